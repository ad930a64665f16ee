"""Collusion evidence (PCG-3) as a projection: a fold over facts the platform records.

The facts are read from what is already in the logs: a finished table's seats, places and
stake (``TableFinished``), the turns of a free-for-all table (its game events: in Pika,
whether a turn stacked a +2/+4 on the next seat; in a fishing game, whether a seat took
the card the seat before it had just laid), and the network address and client
installation a session came from. The projection only counts; it
holds nothing that a fold of the same facts would not rebuild exactly, and a fact seen
twice (a redelivery) counts once. Scoring the counts is :mod:`collusion_signals`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Pair = tuple[str, str]  # ordered: (actor, other) or, for symmetric counts, sorted

TURN_EVENTS = frozenset({"play", "draw", "keep", "take"})


REWARDED_MODES = frozenset({"versus_friends", "online"})  # tables the wallet rewards


@dataclass(frozen=True, slots=True)
class TableResult:
    """A finished table: its human players (bots left out), their places and the stake;
    how it was formed (``versus_friends``, ``online`` ...), how long it was played (None
    when unknown) and when it finished (empty for facts recorded before these were)."""

    fact_id: str
    table_id: str
    game: str
    seats: int
    places: Mapping[str, int]
    stake: int
    mode: str = ""
    seconds: float | None = None
    finished_on: str = ""  # the UTC day, YYYY-MM-DD


@dataclass(frozen=True, slots=True)
class TurnPassed:
    """In a free-for-all game, ``actor`` had a turn that could hurt ``next_actor``; whether
    it did (in Pika a +2/+4 stacked on the next seat, in a fishing game the card the
    other had just laid captured)."""

    fact_id: str
    table_id: str
    actor: str
    next_actor: str
    penalty: bool


@dataclass(frozen=True, slots=True)
class SessionSeen:
    """A login or registration came from this network address and client installation."""

    fact_id: str
    player_id: str
    address: str
    installation_id: str


Fact = TableResult | TurnPassed | SessionSeen


@dataclass(slots=True)
class Turns:
    count: int = 0
    penalties: int = 0


@dataclass(slots=True)
class QuickTable:
    """A short rewarded table two players shared, and who of them won it."""

    table_id: str
    day: str
    winner: str | None  # one of the two, when only they shared first place


@dataclass(slots=True)
class CollusionProjection:
    """Counts per player and per pair; ``apply`` folds one fact in."""

    seen: set[str] = field(default_factory=set)
    tables_of: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    seats_total: int = 0
    seats_at: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    shared: dict[Pair, list[str]] = field(default_factory=lambda: defaultdict(list))
    lost_to: dict[Pair, list[str]] = field(default_factory=lambda: defaultdict(list))
    coins: dict[Pair, int] = field(default_factory=lambda: defaultdict(int))
    turns: dict[Pair, Turns] = field(default_factory=lambda: defaultdict(Turns))
    addresses: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    installations: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    quick: dict[Pair, list[QuickTable]] = field(default_factory=lambda: defaultdict(list))

    def apply(self, fact: Fact) -> None:
        if fact.fact_id in self.seen:
            return
        self.seen.add(fact.fact_id)
        if isinstance(fact, TableResult):
            self._table(fact)
        elif isinstance(fact, TurnPassed):
            turns = self.turns[(fact.actor, fact.next_actor)]
            turns.count += 1
            turns.penalties += int(fact.penalty)
        else:
            if fact.address:
                self.addresses[fact.address].add(fact.player_id)
            if fact.installation_id:
                self.installations[fact.installation_id].add(fact.player_id)

    def _table(self, fact: TableResult) -> None:
        players = sorted(fact.places)
        for player in players:
            self.tables_of[player] += 1
            self.seats_at[player].append(fact.seats)
        self.seats_total += len(players)
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                self.shared[(a, b)].append(fact.table_id)
        self._quick(fact, players)
        if fact.stake <= 0 or not players:
            return
        best = min(fact.places.values())
        winners = [p for p in players if fact.places[p] == best]
        for loser in players:
            if fact.places[loser] == best:
                continue
            for winner in winners:
                self.lost_to[(loser, winner)].append(fact.table_id)
                self.coins[(loser, winner)] += fact.stake // len(winners)

    def _quick(self, fact: TableResult, players: list[str]) -> None:
        """A short table of a rewarded mode: kept per pair with its winner, for farming."""
        if fact.mode not in REWARDED_MODES or fact.seconds is None:
            return
        if fact.seconds > QUICK_TABLE_SECONDS or not players:
            return
        best = min(fact.places.values())
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                firsts = [p for p in (a, b) if fact.places[p] == best]
                winner = firsts[0] if len(firsts) == 1 else None
                self.quick[(a, b)].append(QuickTable(fact.table_id, fact.finished_on, winner))


QUICK_TABLE_SECONDS = 180.0  # a table this short pays its reward for very little play


def rebuild(facts: Iterable[Fact]) -> CollusionProjection:
    projection = CollusionProjection()
    for fact in facts:
        projection.apply(fact)
    return projection


def table_result(
    fact_id: str, finished: Any, mode: str = "", seconds: float | None = None, day: str = ""
) -> TableResult:
    """From a ``tavolo.v1.TableFinished``: humans only, since a bot colludes with nobody;
    with the mode, the seconds it was played and its day, as the lobby knows them."""
    places = {
        seat.player_id: int(finished.outcome.places[seat.seat])
        for seat in finished.seats
        if seat.player_id and not seat.bot and seat.seat < len(finished.outcome.places)
    }
    return TableResult(
        fact_id,
        finished.table_id,
        finished.game,
        len(finished.seats),
        places,
        finished.stake,
        mode,
        seconds,
        day,
    )


def turns_of(
    table_id: str, players: Sequence[str | None], game_events: Iterable[Mapping[str, Any]]
) -> list[TurnPassed]:
    """The turn changes of a Pika table from its game events, by seat's player (None for a
    bot). A turn that stacked a +2/+4 is a penalty on the seat that had to answer it."""
    found: list[TurnPassed] = []
    actor: int | None = None
    penalty = False
    for index, event in enumerate(game_events):
        kind = event.get("type")
        if kind not in TURN_EVENTS:
            if kind in ("round_end", "game_over"):
                actor, penalty = None, False
            continue
        seat = int(event["seat"])
        if actor is not None and seat != actor:
            a, b = players[actor], players[seat]
            if a is not None and b is not None:
                found.append(TurnPassed(f"{table_id}:{index}", table_id, a, b, penalty))
            penalty = False
        if seat != actor:
            actor, penalty = seat, False
        if kind == "play" and "stack" in event:
            penalty = True
    return found


def captures_of(
    table_id: str, players: Sequence[str | None], game_events: Iterable[Mapping[str, Any]]
) -> list[TurnPassed]:
    """The chances a fishing game gave each seat to hurt the seat before it: after a seat
    lays a card on the table, the next play either captures that card or leaves it."""
    found: list[TurnPassed] = []
    laid: tuple[int, str] | None = None  # the last play, if it laid a card
    for index, event in enumerate(game_events):
        kind = event.get("type")
        if kind not in ("card_laid", "capture"):
            if kind in ("hand_scored", "game_over"):
                laid = None
            continue
        seat = int(event["seat"])
        if laid is not None and laid[0] != seat:
            victim, actor = players[laid[0]], players[seat]
            if victim is not None and actor is not None:
                took = kind == "capture" and laid[1] in event.get("capture", ())
                found.append(TurnPassed(f"{table_id}:{index}", table_id, actor, victim, took))
        laid = (seat, str(event["card"])) if kind == "card_laid" else None
    return found


def rule_events(log: Iterable[tuple[str, Mapping[str, Any]]]) -> list[Mapping[str, Any]]:
    """The rules' events of a table's log (engine ``GetTableLog``: type and data of each
    stored event), in order: each ``action`` event carries those its action produced."""
    found: list[Mapping[str, Any]] = []
    for kind, data in log:
        if kind == "action":
            found.extend(data.get("events", []))
    return found
