"""Hard Hearts and Spades bots against OpenSpiel's C++ information-set MCTS (GAMES.md 8).

Each deal is played twice, in lockstep in our rules and in OpenSpiel's game of the same
name: our engine deals, OpenSpiel is dealt the same cards through its chance nodes, and
every move is applied to both. Two seats are our hard bot (seeing only its view), two
are ``pyspiel.ISMCTSBot`` (``--simulations`` a move, 1,000 by default, random-rollout
evaluation, the most visited move); the second time the seats are swapped, so each side
gets the other's cards. The searcher allows inconsistent action sets (a resampled world
holds other cards, so its legal moves differ). OpenSpiel's ISMCTS crashes (a
segmentation fault) when it resamples hands during Hearts' pass, so its seats pass as
our medium bot does (the three most dangerous cards) and search every card they play.
At every step the legal moves of both engines must be the same set: a deal where they
differ is stopped and counted, never scored.

Hearts plays our standard rules with OpenSpiel's ``qs_breaks_hearts=False``; Spades our
default rules. The rules that still differ between the two (none of them changes which
moves are legal in a deal, which the lockstep check holds to):

- Hearts: OpenSpiel's game is one deal with its pass direction drawn by chance; ours is a
  match whose first hand passes left. We set OpenSpiel's pass to ours. Scoring (the moon)
  is ours: each deal is scored by our engine.
- Spades: OpenSpiel's ``spades`` (as shipped with open-spiel 2.0.2) implements neither
  ``InformationStateString`` nor ``ResampleFromInfostate``, which its ISMCTS needs, so the
  bench prints that and no figure; what it would take: those two methods in OpenSpiel's
  C++ game (or an ISMCTS of our own over OpenSpiel's observation). When it runs, the
  rules: OpenSpiel's game is one deal scored alone (nil 100, bags as ten-trick penalty
  only past its own bag rule, a win/loss bonus at 500); ours plays on to 500 points. The
  figure is each side's score change in our engine over the deal, so only our scoring
  counts. OpenSpiel offers no blind nil; ours is off by default.

Figures, per deal (the two seatings averaged), with a 95% confidence interval:

- Hearts: points taken by the ISMCTS seats less those taken by the hard seats, per seat
  (above 0: hard takes fewer), and the share of (hard, ISMCTS) seat pairs where the hard
  seat took fewer points (ties ½; even is 0.5);
- Spades: the hard side's score change less the ISMCTS side's (above 0: hard scores more),
  and the share of deals the hard side out-scored the other (ties ½).

    .venv/bin/python bench/bench_ismcts.py [--deals 4] [--simulations 1000] [hearts|spades]

Needs ``open-spiel`` (the bench extra: ``pip install -e '.[dev,bench]'``). A soak-size
run is ``--deals 500`` (about 1 s of ISMCTS a move: hours on two cores).
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.registry import make_bot
from tavolo.cardgames.registry import get_game

OPTIONS: dict[str, dict[str, Any]] = {"hearts": {"rules": "standard", "target": 1}, "spades": {}}
OPENSPIEL_PARAMS: dict[str, dict[str, Any]] = {"hearts": {"qs_breaks_hearts": False}, "spades": {}}
OS_PASS = {0: 0, 1: 1, 2: 2, 3: 3}
"""Our pass offset (seat s gives to s + offset, mod 4) → OpenSpiel's pass chance outcome
(0 none, 1 left = +1, 2 across, 3 right = +3)."""


class Mismatch(Exception):
    """The two engines disagree on the legal moves: the deal is not scored."""


def our_code(text: str) -> str:
    """OpenSpiel's card string (``"TC"`` in Hearts, ``"CT"`` in Spades) as our code."""
    suit = next(ch for ch in (text[0], text[-1]) if ch in "CDHS" and len(text) > 1)
    rank = text[1:] if text[0] == suit else text[:-1]
    return ("10" if rank == "T" else rank) + suit


def cards_of(os_game: Any) -> dict[int, str]:
    state = os_game.new_initial_state()
    if os_game.get_type().short_name == "hearts":
        state.apply_action(0)
    return {a: our_code(state.action_to_string(a)) for a, _ in state.chance_outcomes()}


def os_action(name: str, state: Any, action: Action, card_ids: dict[str, int]) -> int:
    if action.kind is ActionKind.BID:
        legal = state.legal_actions()
        by_text = {state.action_to_string(a): a for a in legal}
        return int(by_text["Nil" if action.amount == 0 else str(action.amount)])
    return card_ids[action.cards[0]]


def our_action(name: str, state: Any, move: int, legal: Sequence[Action], codes: dict[int, str]):
    text = state.action_to_string(move)
    for action in legal:
        if action.kind is ActionKind.BID:
            if (action.amount == 0 and text == "Nil") or text == str(action.amount):
                return action
        elif action.cards and move in codes and action.cards[0] == codes[move]:
            return action
    raise Mismatch(f"OpenSpiel's {text!r} is not legal in ours")


def legal_texts(legal: Sequence[Action]) -> set[str]:
    texts = set()
    for action in legal:
        if action.kind is ActionKind.BID:
            texts.add("Nil" if action.amount == 0 else str(action.amount))
        elif action.cards:
            texts.add(action.cards[0])
    return texts


def os_texts(state: Any, codes: dict[int, str]) -> set[str]:
    return {codes.get(a) or state.action_to_string(a) for a in state.legal_actions()}


def play_deal(
    name: str, seed: bytes, hard_seats: set[int], simulations: int, pyspiel: Any
) -> tuple[list[int], float]:
    """One deal: each of our seats' points (Hearts) or score change (Spades), and the
    ISMCTS seconds per move."""
    game = get_game(name)
    os_game = pyspiel.load_game(name, OPENSPIEL_PARAMS[name])
    codes = cards_of(os_game)
    ids = {code: a for a, code in codes.items()}
    state = game.new_game(OPTIONS[name], 4, seed)
    # our seat s is OpenSpiel's player (s - shift) % 4, so both start with player 0
    shift = 0 if name == "hearts" else _first_bidder(game, state)
    os_state = os_game.new_initial_state()
    if name == "hearts":
        os_state.apply_action(OS_PASS[state.pass_to % 4])
    hands = [list(state.hands[(p + shift) % 4]) for p in range(4)]
    for k in range(52):
        os_state.apply_action(ids[hands[k % 4][k // 4]])
    bots = {s: make_bot(name, "hard", seed + bytes([s])) for s in hard_seats}
    evaluator = pyspiel.RandomRolloutEvaluator(1, int.from_bytes(seed[:4], "big"))
    searchers = {
        s: pyspiel.ISMCTSBot(
            int.from_bytes(seed[:4], "big") + s,
            evaluator,
            2.0,
            simulations,
            -1,
            pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
            False,
            True,  # resampled hands hold other cards: their legal sets differ
        )
        for s in range(4)
        if s not in hard_seats
    }
    passers = {s: make_bot(name, "medium", seed + bytes([s])) for s in searchers}
    before = _scores(name, game, state)
    spent, moves = 0.0, 0
    while not os_state.is_terminal() and _same_hand(name, game, state):
        player = os_state.current_player()
        seat = (player + shift) % 4
        legal = game.legal_actions(state, seat)
        if legal_texts(legal) != os_texts(os_state, codes):
            raise Mismatch(
                f"seat {seat}: ours {sorted(legal_texts(legal))}, "
                f"OpenSpiel {sorted(os_texts(os_state, codes))}"
            )
        if seat in bots or legal[0].kind is ActionKind.PASS_CARDS:
            chooser = bots.get(seat) or passers[seat]
            action = chooser.choose(game.view(state, seat), legal)
            move = os_action(name, os_state, action, ids)
        else:
            start = time.perf_counter()
            move = searchers[seat].step(os_state)
            spent, moves = spent + time.perf_counter() - start, moves + 1
            action = our_action(name, os_state, move, legal, codes)
        os_state.apply_action(move)
        state, _ = game.apply(state, seat, action)
    after = _scores(name, game, state)
    return [after[s] - before[s] for s in range(4)], spent / max(1, moves)


def _first_bidder(game: Any, state: Any) -> int:
    (seat,) = game.to_act(state)
    return int(seat)


def _same_hand(name: str, game: Any, state: Any) -> bool:
    if game.outcome(state) is not None:
        return False
    public = game.view(state, 0).public
    return name == "hearts" or int(public.get("round", 1)) == 1


def _scores(name: str, game: Any, state: Any) -> list[int]:
    outcome = game.outcome(state)
    if name == "hearts":
        if outcome is not None:
            return list(outcome.scores)
        return [int(x) for x in game.view(state, 0).public["totals"]]
    scores = game.view(state, 0).public["scores"]
    return [int(scores[s % 2]) for s in range(4)]


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / max(1, n - 1)
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", default=["hearts", "spades"])
    parser.add_argument("--deals", type=int, default=4, help="seat-swapped deals (soak: 500)")
    parser.add_argument("--simulations", type=int, default=1000)
    args = parser.parse_args()
    try:
        import pyspiel
    except ImportError:
        print("open-spiel is not installed: pip install -e '.[dev,bench]'")
        return 1
    for name in args.games:
        margins: list[float] = []
        shares: list[float] = []
        mismatches, per_move = 0, []
        start = time.perf_counter()
        for n in range(args.deals):
            seed = f"ismcts-{name}-{n}".encode()
            margin = share = 0.0
            try:
                for hard in ({0, 2}, {1, 3}):
                    took, seconds = play_deal(name, seed, hard, args.simulations, pyspiel)
                    per_move.append(seconds)
                    mine = [took[s] for s in sorted(hard)]
                    theirs = [took[s] for s in range(4) if s not in hard]
                    if name == "hearts":  # points taken: fewer is better
                        margin += (sum(theirs) - sum(mine)) / 2
                        pairs = [(m, t) for m in mine for t in theirs]
                        share += sum(1.0 if m < t else 0.5 if m == t else 0.0 for m, t in pairs) / 4
                    else:  # a side's score change: more is better
                        margin += mine[0] - theirs[0]
                        share += (
                            1.0 if mine[0] > theirs[0] else 0.5 if mine[0] == theirs[0] else 0.0
                        )
            except Mismatch as error:
                mismatches += 1
                print(f"  {name} deal {n}: not scored, the engines differ: {error}")
                continue
            except pyspiel.SpielError as error:
                print(f"{name}: OpenSpiel's ISMCTS cannot play its {name} game: {error}")
                break
            margins.append(margin / 2)
            shares.append(share / 2)
        if not margins and not mismatches:
            continue
        if not margins:
            print(f"{name}: no deal scored ({mismatches} stopped on differing rules)")
            continue
        m, lo, hi = interval(margins)
        s, slo, shi = interval(shares)
        what = (
            "points a seat, ISMCTS less hard"
            if name == "hearts"
            else "score, hard side less ISMCTS"
        )
        print(
            f"{name}: hard vs ISMCTS ({args.simulations} simulations), {len(margins)} "
            f"seat-swapped deals: {m:+.2f} {what} (95% CI {lo:+.2f}, {hi:+.2f}); "
            f"hard's share {s:.3f} (95% CI {slo:.3f}, {shi:.3f}); "
            f"ISMCTS {sum(per_move) / len(per_move) * 1e3:.0f} ms a move; "
            f"{mismatches} deals stopped on differing rules; {time.perf_counter() - start:.0f}s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
