"""``tavolo play``: a game in the terminal, offline or at the engine, and how each game looks."""
