"""Hard Spades and Hearts bots against OpenSpiel's information-set MCTS searching our
rules (GAMES.md 8).

Our Spades and Hearts are wrapped as OpenSpiel Python games, one deal each
(``spiel/ours.py``: registered as ``python_tavolo_spades`` and ``python_tavolo_hearts``,
with ``resample_from_infostate`` drawing a world from a seat's knowledge: its hand, the
cards played, the suits each seat showed out of, the cards it passed). Two seats (a
partnership in Spades) are our hard bot, seeing only its view; the other two are
OpenSpiel's ``ISMCTSBot`` with ``--simulations`` a move (1,000 by default), random
rollouts, UCT constant 2, the most visited move, inconsistent action sets allowed (a
resampled world holds other cards, so its legal moves differ). Each deal is played
twice with the seats swapped, so each side gets the other's cards.

The searcher is OpenSpiel's Python port of its C++ ISMCTS
(``open_spiel.python.algorithms.ismcts``, the same algorithm): the C++ ``ISMCTSBot``
releases Python's lock while it searches and cannot call back into a Python game (it
crashes), and OpenSpiel's C++ ``spades`` (open-spiel 2.0.2) implements neither
``InformationStateString`` nor ``ResampleFromInfostate``, which its C++ ISMCTS needs.

Both sides play our rules, so no rule differs between them. What differs from
OpenSpiel's own games of these names, for whoever compares with figures on those:

- Spades (our defaults, the seed's, against OpenSpiel's ``spades`` defaults): a bag costs
  1 point here and earns 1 there (both take 100 off at 10 bags; our ``bag_points=1``
  is OpenSpiel's); OpenSpiel ends a game at -350 (its mercy rule) and adds 200 for
  reaching 500, ours ends at -500 with no bonus, neither of which one deal reaches; we
  play the first deal of a match to 500 and score it alone. The same in both: bids nil
  and 1 to 13, nil ±100 with a failed nil's tricks counting for the partner, no blind nil
  (ours is off by default), no spade led on the first trick nor before spades are broken
  unless the hand holds nothing else.
- Hearts (our standard rules against OpenSpiel's ``hearts`` defaults): the Q♠ does not
  break hearts here (OpenSpiel's ``qs_breaks_hearts=True``); the pass goes left in the
  first hand here, OpenSpiel draws its direction by chance; our passes are chosen at
  once, here in seat order, each hidden from the other seats (their information states
  show "?"), and the searcher chooses its own pass. The same in both: 2♣ leads, no
  points on the first trick, hearts led only once broken, Q♠ 13, shooting the moon
  gives the other seats 26, no J♦ bonus.

Figures, per deal (the two seatings averaged), with a 95% confidence interval:

- Spades: the hard side's score change less the ISMCTS side's (above 0: hard scores
  more), and the share of deals the hard side out-scored the other (ties ½);
- Hearts: points taken by the ISMCTS seats less those taken by the hard seats, per seat
  (above 0: hard takes fewer), and the share of (hard, ISMCTS) seat pairs where the hard
  seat took fewer points (ties ½; even is 0.5).

    .venv/bin/python bench/bench_ismcts.py [--deals 1] [--simulations 1000] [--jobs 1]
        [--hard-bids] [spades|hearts]

``--hard-bids`` splits the figure: the ISMCTS seats bid (Spades) or pass (Hearts) as
our hard bot does and search only the play, so what remains is the play's share.

Needs ``open-spiel`` (the bench extra: ``pip install -e '.[dev,bench]'``). Run it with
``PYTHONPATH=build/compiled`` for the compiled rules (``make compiled``): the search
spends most of its time in them. A larger run is ``--deals 100`` (hours on two cores).
"""

from __future__ import annotations

import argparse
import random
import time
import zlib
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from league.stats import interval

from tavolo.cardgames.actions import ActionKind
from tavolo.cardgames.bots.registry import make_bot


def play_deal(
    name: str, seed: str, hard_seats: set[int], simulations: int, spiel: Any, hard_bids: bool
) -> tuple[list[float], float]:
    """One deal: each seat's score change (Spades: its side's; Hearts: points taken)
    and the ISMCTS seconds per searched move. With ``hard_bids`` the ISMCTS seats bid
    (Spades) or pass (Hearts) as our hard bot does, and search only the play."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts

    game = pyspiel.load_game(f"python_tavolo_{name}", {"seed": seed})
    state = game.new_initial_state()
    rules = state.snap.game.rules
    bots = {s: make_bot(name, "hard", f"{seed}-{s}") for s in hard_seats}
    bidders = {s: make_bot(name, "hard", f"{seed}-bid-{s}") for s in range(4) if hard_bids}
    searchers = {}
    for s in set(range(4)) - hard_seats:
        draw = random.Random(f"{seed}-world-{s}")
        bot = ismcts.ISMCTSBot(
            game,
            spiel.Rollout(random.Random(f"{seed}-rollout-{s}")),
            2.0,
            simulations,
            random_state=np.random.RandomState(zlib.crc32(f"{seed}-tree-{s}".encode())),
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
            allow_inconsistent_action_sets=True,
        )
        bot.set_resampler(lambda st, p, draw=draw: st.resample_from_infostate(p, draw))
        searchers[s] = bot
    spent, searched = 0.0, 0
    while not state.is_terminal():
        seat = state.current_player()
        ours = state.snap.ours
        legal = rules.legal_actions(ours, seat)
        chooser = bots.get(seat)
        if chooser is None and legal[0].kind is not ActionKind.PLAY:
            chooser = bidders.get(seat)
        if chooser is not None:
            move = spiel.to_id(chooser.choose(rules.view(ours, seat), legal))
        elif len(state.legal_actions()) == 1:
            move = state.legal_actions()[0]
        else:
            start = time.thread_time()
            move = int(searchers[seat].step(state))
            spent, searched = spent + time.thread_time() - start, searched + 1
        state.apply_action(move)
    return state.changes(), spent / max(1, searched)


def play_pair(
    name: str, n: int, simulations: int, hard_bids: bool
) -> tuple[float, float, list[float]]:
    """Deal ``n`` twice, seats swapped: the margin and share (see above), averaged, and
    the ISMCTS thread CPU seconds a searched move in each seating."""
    from spiel import ours as spiel

    seed = f"ismcts-{name}-{n}"
    margin = share = 0.0
    per_move = []
    for hard in ({0, 2}, {1, 3}):
        took, seconds = play_deal(name, seed, hard, simulations, spiel, hard_bids)
        per_move.append(seconds)
        mine = [took[s] for s in sorted(hard)]
        theirs = [took[s] for s in range(4) if s not in hard]
        if name == "hearts":  # points taken: fewer is better
            margin += (sum(theirs) - sum(mine)) / 2
            pairs = [(m, t) for m in mine for t in theirs]
            share += sum(1.0 if m < t else 0.5 if m == t else 0.0 for m, t in pairs) / 4
        else:  # a side's score change: more is better
            margin += mine[0] - theirs[0]
            share += 1.0 if mine[0] > theirs[0] else 0.5 if mine[0] == theirs[0] else 0.0
    return margin / 2, share / 2, per_move


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", default=["spades", "hearts"])
    parser.add_argument("--deals", type=int, default=1, help="seat-swapped deals")
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=1, help="processes, a deal each")
    parser.add_argument("--first", type=int, default=0, help="the first deal's number")
    parser.add_argument(
        "--hard-bids",
        action="store_true",
        help="ISMCTS seats bid (pass) as the hard bot does and search only the play",
    )
    args = parser.parse_args()
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("open-spiel is not installed: pip install -e '.[dev,bench]'")
        return 1
    for name in args.games:
        margins: list[float] = []
        shares: list[float] = []
        per_move: list[float] = []
        start = time.perf_counter()
        with ProcessPoolExecutor(args.jobs) as pool:
            futures = [
                pool.submit(play_pair, name, n, args.simulations, args.hard_bids)
                for n in range(args.first, args.first + args.deals)
            ]
            for n, future in enumerate(futures, args.first):
                margin, share, seconds = future.result()
                margins.append(margin)
                shares.append(share)
                per_move += seconds
                print(f"  {name} deal {n}: {margin:+.1f}", flush=True)
        m, lo, hi = interval(margins)
        s, slo, shi = interval(shares)
        what = (
            "points a seat, ISMCTS less hard"
            if name == "hearts"
            else "points a deal, hard side less ISMCTS"
        )
        print(
            f"{name}: hard vs ISMCTS ({args.simulations} simulations"
            f"{', bidding and passing as hard' if args.hard_bids else ''}), {len(margins)} "
            f"seat-swapped deals: {m:+.2f} {what} (95% CI {lo:+.2f}, {hi:+.2f}); "
            f"hard's share {s:.3f} (95% CI {slo:.3f}, {shi:.3f}); "
            f"ISMCTS {sum(per_move) / len(per_move) * 1e3:.0f} ms CPU a searched move; "
            f"{time.perf_counter() - start:.0f}s",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
