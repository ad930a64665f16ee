"""Duplicate Solitario: a "same deal" competition of the lobby's own.

Every entrant plays the same Klondike deal alone, at a table of their own that the engine
deals and records like any other (the auditor replays it); the leaderboard ranks them by
score, then time, then moves. It reads as the other services do, grpc_api → app → store /
consumers, around a pure core:

- ``competition``: a competition, its checks, the daily one's id and hours, and what an
  entrant may see of its seed;
- ``ranking``: the places, by score, then time, then moves;
- ``store``: the competitions and their entries in the lobby's schema;
- ``app``: create (operators, or the daily one on first use), join, standings, and the
  engine's table facts that fill in an entry's result;
- ``grpc_api``: the three RPCs.

*Fair and checkable seed.* A competition draws its seed once, when it is created, and
publishes ``sha256(seed)``. Every entrant's table is dealt from that seed by the engine,
so its first event commits to the same hash: each entrant checks that they played the
published deal. The seed is revealed when the competition closes (``GetDuplicateStandings``
and, from then on, each table's log), so everyone can re-deal it with the platform's
generator (``tavolo.cardgames.rng``) and replay every entrant's table.

*Nobody learns the deal before playing.* No answer to a player carries the seed before
the close: the engine keeps a duplicate table's log (whose closing event reveals the seed)
from its own player until the competition closes (``log_sealed_until``), the standings show
only scores, times and moves, and a player enters once, so a finished entrant cannot deal
again. What the platform cannot stop is an entrant who has finished describing the cards
they saw to someone who has not played yet, outside the platform. Against that: each entry
is timed from the deal, so a player who waits for a description gains nothing on time;
the daily competition's window is one day; and operators can compare an entrant's line of
play against the finishers before them in the logs, which open at the close.
"""
