"""Knock-out tournaments (PCG-7): a package of the lobby's own.

It reads as the other services do, grpc_api → app → store / consumers, around a pure core:

- ``bracket``: the draw from a committed seed (byes when entrants are not a power of
  two) and how a decided match advances its winner;
- ``prizes``: the prize split of the escrowed fees, with the stake pots' rounding rule;
- ``standings``: final places by the round each player fell in, and who is paid what;
- ``stream``: the tournament as an event-sourced stream, its decisions and its rebuild.

Each tournament is an event-sourced stream (registrations, draw, results, payouts) of the
lobby's event log, rebuilt from its events on restart.
"""
