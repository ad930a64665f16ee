"""Collusion signals (PCG-3): the projection's counts scored against fair play, ranked.

Every score is a surprise in standard deviations against what fair play would give:

- **together**: shared tables against random seating (each of a player's tables seats the
  other in proportion to how much the other plays), a Poisson excess;
- **coin flow**: of the stake tables two players shared and one of them won, how often the
  same one lost, against a coin toss;
- **soft play**: how rarely a seat hurt the other when it could (stacked a +2/+4 on them
  in Pika, took the card they had just laid in a fishing game), against its own rate on
  everyone else;
- **same address / same installation**: sessions from one network address or one client
  installation (an installation is worth more than an address, which a household shares).

A moderator reads the evidence (tables, figures) and decides; nothing is sanctioned here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tavolo.lobby.social.conduct.collusion import CollusionProjection, Pair

MIN_SHARED = 3  # tables together before "together" means anything
MIN_STAKE_TABLES = 4
MIN_TURNS = 20
THRESHOLD = 3.0  # standard deviations for a signal to be listed
SAME_INSTALLATION = 6.0
SAME_ADDRESS = 2.0
EVIDENCE_TABLES = 20


@dataclass(frozen=True, slots=True)
class Signal:
    kind: str  # together | coin_flow | soft_play | same_installation | same_address
    score: float
    summary: str  # the figures, for people
    tables: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PairSignals:
    players: Pair  # sorted
    score: float
    signals: tuple[Signal, ...]


def _sorted(a: str, b: str) -> Pair:
    return (a, b) if a <= b else (b, a)


def _together(p: CollusionProjection, pair: Pair, tables: list[str]) -> Signal | None:
    a, b = pair
    if len(tables) < MIN_SHARED:
        return None
    others = p.seats_total - p.tables_of.get(a, 0)
    if others <= 0:
        return None
    share = p.tables_of.get(b, 0) / others
    expected = sum((n - 1) * share for n in p.seats_at.get(a, []))
    score = (len(tables) - expected) / math.sqrt(max(expected, 0.25))
    if score < THRESHOLD:
        return None
    summary = f"{len(tables)} tables together, {expected:.1f} expected from random seating"
    return Signal("together", score, summary, tuple(tables[:EVIDENCE_TABLES]))


def _coin_flow(p: CollusionProjection, pair: Pair) -> Signal | None:
    a, b = pair
    a_lost, b_lost = p.lost_to.get((a, b), []), p.lost_to.get((b, a), [])
    decided = len(a_lost) + len(b_lost)
    if decided < MIN_STAKE_TABLES:
        return None
    loser, winner, lost = (a, b, a_lost) if len(a_lost) >= len(b_lost) else (b, a, b_lost)
    score = (len(lost) - decided / 2) / math.sqrt(decided / 4)
    if score < THRESHOLD:
        return None
    net = p.coins.get((loser, winner), 0) - p.coins.get((winner, loser), 0)
    summary = (
        f"{loser} lost to {winner} at {len(lost)} of {decided} stake tables they decided"
        f" between them: {net} coins net"
    )
    return Signal("coin_flow", score, summary, tuple(lost[:EVIDENCE_TABLES]))


def _soft_play_one_way(p: CollusionProjection, actor: str, other: str) -> tuple[float, str]:
    towards = p.turns.get((actor, other))
    if towards is None or towards.count < MIN_TURNS:
        return 0.0, ""
    rest_turns = rest_penalties = 0
    for (who, whom), turns in p.turns.items():
        if who == actor and whom != other:
            rest_turns += turns.count
            rest_penalties += turns.penalties
    if rest_turns < MIN_TURNS or rest_penalties == 0:
        return 0.0, ""
    rate = rest_penalties / rest_turns
    expected = towards.count * rate
    spread = math.sqrt(towards.count * rate * (1 - rate)) or 1.0
    summary = (
        f"{actor} hurt {other} {towards.penalties} times in {towards.count} turns"
        f" ({expected:.1f} expected from {rest_penalties}/{rest_turns} on the others)"
    )
    return (expected - towards.penalties) / spread, summary


def _soft_play(p: CollusionProjection, pair: Pair) -> Signal | None:
    a, b = pair
    one, first = _soft_play_one_way(p, a, b)
    two, second = _soft_play_one_way(p, b, a)
    if one <= 0 or two <= 0:
        return None  # soft play is mutual; one seat sparing another is chance or taste
    score = (one + two) / math.sqrt(2)
    if score < THRESHOLD:
        return None
    return Signal("soft_play", score, f"{first}; {second}")


def _shared_origins(p: CollusionProjection) -> dict[Pair, list[Signal]]:
    found: dict[Pair, list[Signal]] = {}
    for kind, weight, groups in (
        ("same_installation", SAME_INSTALLATION, p.installations),
        ("same_address", SAME_ADDRESS, p.addresses),
    ):
        for origin, players in sorted(groups.items()):
            ordered = sorted(players)
            for i, a in enumerate(ordered):
                for b in ordered[i + 1 :]:
                    summary = f"both connected from {kind.removeprefix('same_')} {origin}"
                    found.setdefault((a, b), []).append(Signal(kind, weight, summary))
    return found


def ranked(p: CollusionProjection) -> list[PairSignals]:
    """Every pair with at least one signal, the most suspicious first."""
    by_pair = _shared_origins(p)
    candidates = set(p.shared) | {_sorted(*pair) for pair in p.lost_to} | set(by_pair)
    candidates |= {_sorted(*pair) for pair in p.turns}
    out: list[PairSignals] = []
    for pair in sorted(candidates):
        signals = list(by_pair.get(pair, []))
        for found in (
            _together(p, pair, p.shared.get(pair, [])),
            _coin_flow(p, pair),
            _soft_play(p, pair),
        ):
            if found is not None:
                signals.append(found)
        if signals:
            ordered = tuple(sorted(signals, key=lambda s: -s.score))
            out.append(PairSignals(pair, round(sum(s.score for s in signals), 6), ordered))
    return sorted(out, key=lambda s: (-s.score, s.players))
