"""The bot league: every game's levels measured the same way (GAMES.md 8).

For each of the 17 games, at its default seat count and at 2 seats where it offers them,
each step up the ladder is one pairing: random against easy, easy against medium, medium
against hard (``random`` is a uniformly random legal player, the yardstick, not a level).
Each pairing plays ``--deals`` seeded deals, every deal once for each way of rotating the
levels through the seats (duplicate deals: the same cards with the seats swapped), so the
luck of the deal cancels. A deal is one hand where the game can be set to one (a
single-hand match length, a target of 1 point; Uno and Pika play a single round, which
places every seat by what it holds at the end rather than only the winner first);
Tresette and Ciapanò play 3 hands and Spades plays to 100 points, the shortest match they
offer; the fishing games play their default match (to 11 points, Cirulla to 51), since a
single hand of them is mostly drawn; the chip games (Bestia, Poker, Sette e mezzo) play
their whole default match, since stacks and Bestia's pot carry over from hand to hand
(their figure is per hand). Solitario is two games, draw 1 and draw 3.

Seats: in partnership games the stronger level holds one side; elsewhere it holds one
seat against the weaker level in every other seat, rotated through all the seats
(``--seating half``: every other seat, two against two). The figure of a pairing, per
deal (the rotations averaged, so a deal is one sample):

- places: the stronger seat's share of the weaker seats it finished ahead of (a tie ½);
  even is 0.5, and at two seats it is the win share;
- chips (Bestia, Poker, Sette e mezzo): the stronger seat's chips won per hand less the
  mean of the weaker seats'; even is 0;
- Solitario: both levels play every deal alone; the figure is the stronger level's win
  rate less the weaker's on the same deals (both rates printed with Wilson intervals,
  and at draw 3 the published greedy solvers' rates beside hard's with ``--detail``);
  even is 0.

Each figure comes with a 95% confidence interval (normal approximation over the deals).
Every decision is timed in CPU time (the thread's, so the other processes of a shared
machine do not count); each level's p50 and p99 over the pairing are printed beside the
weaker level's, the random player's for the first step.

    .venv/bin/python bench/bench_bot_league.py [--deals 4] [--jobs 1]
        [--steps random<easy,easy<medium,medium<hard] [--seats N] [--match]
        [--option name=value ...] [--seating one|half] [--detail] [--markdown]
        [--selfplay GAMES] [game ...]

Other questions the same machinery answers (each prints beside the league's figure):

- a fixed opponent or a reference: ``--steps easy<hard,medium<hard,medium<medium``
  (medium against itself comes out exactly even, every deal being played from both sides);
- whole matches instead of one deal: ``--match`` (Spades to 500, Hearts to 100, Uno to
  500, ...), with ``--detail`` for the stronger level's share of first places and its
  score margin (a rummy hand's points, say: ``burraco scala40 --seats 2 --detail``);
- options: ``--option rules=seed hearts``, ``--option draw=3 solitario``;
- two levels of each at four seats: ``--seating half poker settemezzo hearts``;
- random self-play speed of every game beside Pika's, the rules interpreted and, where
  ``build/compiled`` exists, compiled (GAMES.md 11): ``--selfplay 20``.

The soak size is ``--deals 2000`` (``make soak-league``); the default is a quick look.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from league import selfplay
from league.play import Pairing, measure
from league.report import HEADER, Row, detail, line, markdown
from league.tables import SEATINGS, tables

from tavolo.cardgames.registry import all_games

PAIRINGS = (("random", "easy"), ("easy", "medium"), ("medium", "hard"))
"""(weaker, stronger) for each step up the ladder."""


def option(text: str) -> tuple[str, Any]:
    """``name=value``; the value read as JSON where it parses (numbers, true), else text."""
    name, _, value = text.partition("=")
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value


def steps(text: str) -> list[tuple[str, str]]:
    if not text:
        return list(PAIRINGS)
    found = []
    for step in text.split(","):
        weak, _, strong = step.partition("<")
        found.append((weak.strip(), strong.strip()))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", help="games to bench (default: all 17)")
    parser.add_argument("--deals", type=int, default=4, help="deals per pairing (soak: 2000)")
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument(
        "--steps", default="", help="pairings weaker<stronger, comma-separated (any two levels)"
    )
    parser.add_argument("--seats", type=int, help="only this seat count")
    parser.add_argument("--match", action="store_true", help="whole default matches")
    parser.add_argument("--option", action="append", type=option, default=[], help="name=value")
    parser.add_argument("--seating", choices=SEATINGS, default="one")
    parser.add_argument("--detail", action="store_true", help="first places, margins, actions")
    parser.add_argument("--markdown", action="store_true", help="end with a markdown table")
    parser.add_argument(
        "--selfplay", type=int, default=8, help="random self-play games a game (0: none)"
    )
    parser.add_argument("--selfplay-json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    names = args.games or sorted(all_games())
    if args.selfplay_json:
        print(json.dumps(selfplay.measure(names, args.selfplay)))
        return 0
    rows: list[Row] = []
    if args.deals:
        chosen = tables(names, seats=args.seats, match=args.match, options=dict(args.option))
        print(f"Bot league: {args.deals} deals per pairing, every deal seat-rotated; 95% CI")
        print(HEADER)
        for table in chosen:
            for weak, strong in steps(args.steps):
                limit = 3000 * (100 if args.match else 1)
                pairing = Pairing(table, weak, strong, args.seating, limit)
                start = time.perf_counter()
                tally = measure(pairing, args.deals, args.jobs)
                rows.append(Row(pairing, tally, time.perf_counter() - start))
                print(line(rows[-1]), flush=True)
                if args.detail:
                    print("\n".join(detail(rows[-1])), flush=True)
        below = sum(not row.above_even() for row in rows)
        print(f"pairings whose interval does not lie above even: {below} of {len(rows)}")
    if args.selfplay:
        selfplay.report(names, args.selfplay, __file__)
    if args.markdown and rows:
        print()
        print(markdown(rows, args.deals))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
