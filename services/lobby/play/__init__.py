"""Where tables come from: versus computer, friends' rooms, queues, the matchmaker, bot fill."""
