"""Collusion signals (PCG-3): the projection's counts scored against fair play, ranked.

Every score is a surprise in standard deviations against what fair play would give:

- **together**: shared tables against random seating (each of a player's tables seats the
  other in proportion to how much the other plays), a Poisson excess;
- **coin flow**: of the stake tables two players shared and one of them won, how often the
  same one lost, against a coin toss;
- **soft play**: how rarely a seat hurt the other when it could (stacked a +2/+4 on them
  in Pika, took the card they had just laid in a fishing game), against its own rate on
  everyone else;
- **reward farming**: short tables of a rewarded mode (friends, online) between the same
  two people, one of them winning nearly every one (the reward flowing one way), against
  a coin toss; listed as well once they pass :data:`FARMING_CAP_PER_DAY` in one day, the
  cap a moderator sees in the summary;
- **same address / same installation**: sessions from one network address or one client
  installation. What the server observes outweighs what a client claims: an address is
  seen by the server, an installation id is sent by the client (anyone can send any id),
  so a shared installation weighs :data:`SAME_INSTALLATION` only when the two accounts
  also share an observed address, and :data:`CLAIMED_INSTALLATION` otherwise. The
  platform's own addresses (loopback, and those it is told are its proxies) say nothing
  about who is behind them and are never a shared address.

A moderator reads the evidence (tables, figures) and decides; nothing is sanctioned here.
"""

from __future__ import annotations

import ipaddress
import math
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass

from tavolo.lobby.social.conduct.collusion import QUICK_TABLE_SECONDS, CollusionProjection, Pair

MIN_SHARED = 3  # tables together before "together" means anything
MIN_STAKE_TABLES = 4
MIN_TURNS = 20
THRESHOLD = 3.0  # standard deviations for a signal to be listed
SAME_INSTALLATION = 6.0  # one installation, and an address both were seen from
CLAIMED_INSTALLATION = 1.0  # one installation id sent, nothing the server saw agrees
SAME_ADDRESS = 2.0
EVIDENCE_TABLES = 20
FARMING_MIN_TABLES = 5  # short rewarded tables decided between the two
FARMING_ONE_WAY = 0.8  # of them won by the same one
FARMING_CAP_PER_DAY = 5  # short rewarded tables a day between two people, unremarked


def is_platform_address(address: str, platform: Collection[str] = ()) -> bool:
    """Loopback, unspecified and link-local addresses, and the platform's own (a proxy's):
    every client behind them shares them, so they tell nobody apart."""
    if address in platform:
        return True
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    if mapped is not None:
        ip = mapped
    return ip.is_loopback or ip.is_unspecified or ip.is_link_local or str(ip) in platform


@dataclass(frozen=True, slots=True)
class Signal:
    kind: str  # together | coin_flow | soft_play | reward_farming | same_installation | ...
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


def _pairs(players: set[str]) -> list[Pair]:
    ordered = sorted(players)
    return [(a, b) for i, a in enumerate(ordered) for b in ordered[i + 1 :]]


def _shared_origins(p: CollusionProjection, platform: Collection[str]) -> dict[Pair, list[Signal]]:
    found: dict[Pair, list[Signal]] = {}
    seen_together: set[Pair] = set()
    for address, players in sorted(p.addresses.items()):
        if is_platform_address(address, platform):
            continue
        for pair in _pairs(players):
            seen_together.add(pair)
            summary = f"both connected from address {address} (seen by the server)"
            found.setdefault(pair, []).append(Signal("same_address", SAME_ADDRESS, summary))
    for installation, players in sorted(p.installations.items()):
        for pair in _pairs(players):
            if pair in seen_together:
                weight = SAME_INSTALLATION
                summary = f"both used client installation {installation}, from one address"
            else:
                weight = CLAIMED_INSTALLATION
                summary = (
                    f"both sent client installation {installation}, which the client claims"
                    " and the server saw from no shared address"
                )
            found.setdefault(pair, []).append(Signal("same_installation", weight, summary))
    return found


def _farming(p: CollusionProjection, pair: Pair) -> Signal | None:
    quick = p.quick.get(pair, [])
    decided = [q for q in quick if q.winner is not None]
    if len(decided) < FARMING_MIN_TABLES:
        return None
    wins = Counter(q.winner for q in decided)
    winner, won = max(wins.items(), key=lambda item: (item[1], item[0] or ""))
    if won < FARMING_ONE_WAY * len(decided):
        return None
    score = (won - len(decided) / 2) / math.sqrt(len(decided) / 4)
    per_day = Counter(q.day for q in quick)
    busiest = max(per_day.values())
    over_cap = sum(max(0, n - FARMING_CAP_PER_DAY) for n in per_day.values())
    if score < THRESHOLD and not over_cap:
        return None
    loser = pair[1] if winner == pair[0] else pair[0]
    summary = (
        f"{winner} won {won} of {len(decided)} short rewarded tables against {loser}"
        f" (each under {QUICK_TABLE_SECONDS / 60:.0f} min), the reward flowing one way;"
        f" up to {busiest} in one day, cap {FARMING_CAP_PER_DAY} a day: {over_cap} over it"
    )
    tables = tuple(q.table_id for q in decided if q.winner == winner)
    return Signal("reward_farming", max(score, THRESHOLD), summary, tables[:EVIDENCE_TABLES])


def ranked(p: CollusionProjection, platform: Collection[str] = ()) -> list[PairSignals]:
    """Every pair with at least one signal, the most suspicious first; ``platform`` names
    the platform's own addresses beyond loopback (:func:`is_platform_address`)."""
    by_pair = _shared_origins(p, platform)
    candidates = set(p.shared) | {_sorted(*pair) for pair in p.lost_to} | set(by_pair)
    candidates |= {_sorted(*pair) for pair in p.turns} | set(p.quick)
    out: list[PairSignals] = []
    for pair in sorted(candidates):
        signals = list(by_pair.get(pair, []))
        for found in (
            _together(p, pair, p.shared.get(pair, [])),
            _coin_flow(p, pair),
            _soft_play(p, pair),
            _farming(p, pair),
        ):
            if found is not None:
                signals.append(found)
        if signals:
            ordered = tuple(sorted(signals, key=lambda s: -s.score))
            out.append(PairSignals(pair, round(sum(s.score for s in signals), 6), ordered))
    return sorted(out, key=lambda s: (-s.score, s.players))
