"""The bot league's parts: which tables it plays, how a deal is played and scored, and
how the figures are printed (``bench/bench_bot_league.py`` is the command)."""
