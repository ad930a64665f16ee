"""A tournament as an event-sourced stream (PCG-7): decisions and the fold that rebuilds it.

Every change is an event of the tournament's own stream (``tournament-<id>`` in the
lobby's event log): created, a player registered or unregistered, cancelled (with the
refunds owed), the bracket drawn (the seed revealed), a match's table opened, a match
decided, the prizes paid. ``rebuild`` folds them back into a :class:`Tournament`, so a
replica that dies mid-round loses nothing: the next one reads the stream and goes on.

The decisions (``register``, ``start``, ``decide_match`` ...) are pure: they check the
tournament as it stands and return the events to append, or refuse saying why.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from tavolo.lobby.tournaments.bracket import (
    MAX_ENTRANTS,
    MIN_ENTRANTS,
    Bracket,
    advance,
    commitment,
    draw,
)
from tavolo.lobby.tournaments.prizes import check_split
from tavolo.lobby.tournaments.standings import final_places
from tavolo.servicekit.errors import FailedPrecondition, InvalidArgument

Event = tuple[str, dict[str, Any]]

REGISTERING, CANCELLED, PLAYING, FINISHED = "registering", "cancelled", "playing", "finished"


@dataclass(frozen=True, slots=True)
class TournamentSpec:
    """What an operator sets when creating a tournament."""

    game: str
    options: Mapping[str, Any]
    max_entrants: int
    opens_at: datetime
    starts_at: datetime
    fee: int
    split: tuple[int, ...]
    no_show: str  # "bot": a bot plays the missing seat; "forfeit": the seat loses
    show_seconds: int = 120  # how long a ready match waits for its players to show


Slot = tuple[int, int]  # (round, index) of a match


@dataclass(frozen=True, slots=True)
class Tournament:
    tournament_id: str
    spec: TournamentSpec
    commitment: str
    status: str = REGISTERING
    entrants: tuple[str, ...] = ()
    bracket: Bracket | None = None
    tables: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    paid: Mapping[str, int] = field(default_factory=dict)
    version: int = 0
    names: Mapping[str, str] = field(default_factory=dict)  # player id -> nickname
    seed_hex: str = ""
    cancel_reason: str = ""
    ready_at: Mapping[Slot, datetime] = field(default_factory=dict)  # when each got ready
    how: Mapping[Slot, str] = field(default_factory=dict)  # how each match was decided
    bots: Mapping[Slot, tuple[str, ...]] = field(default_factory=dict)  # no-shows played
    places: Mapping[str, int] = field(default_factory=dict)  # once finished
    holds: Mapping[str, str] = field(default_factory=dict)  # entrant -> their fee's hold id
    prizes_settled: bool = False  # the wallet said what it paid (``paid``)

    def table_of(self, round_: int, index: int) -> str | None:
        """The table playing match (``round_``, ``index``), if it has opened."""
        for table_id, slot in self.tables.items():
            if slot == (round_, index):
                return table_id
        return None

    def waiting(self) -> list[Slot]:
        """Ready matches whose table has not opened yet."""
        if self.bracket is None or self.status != PLAYING:
            return []
        opened = set(self.tables.values())
        return [
            (m.round, m.index) for m in self.bracket.ready() if (m.round, m.index) not in opened
        ]


def create(tournament_id: str, spec: TournamentSpec, seed: bytes) -> Event:
    """The first event: the spec, checked, and the commitment to the draw's seed."""
    if not MIN_ENTRANTS <= spec.max_entrants <= MAX_ENTRANTS:
        raise InvalidArgument(
            f"a bracket holds {MIN_ENTRANTS} to {MAX_ENTRANTS} entrants",
            reason="TOURNAMENT_INVALID",
            metadata={"field": "max_entrants"},
        )
    if spec.fee < 0:
        raise InvalidArgument(
            "the entry fee is 0 coins or more",
            reason="TOURNAMENT_INVALID",
            metadata={"field": "entry_fee"},
        )
    if spec.starts_at <= spec.opens_at:
        raise InvalidArgument(
            "a tournament starts after its registration opens",
            reason="TOURNAMENT_INVALID",
            metadata={"field": "starts_at"},
        )
    check_split(spec.split, spec.max_entrants)
    if spec.no_show not in ("bot", "forfeit"):
        raise InvalidArgument(
            "a no-show option is 'bot' or 'forfeit'",
            reason="TOURNAMENT_INVALID",
            metadata={"field": "no_show"},
        )
    if not 1 <= spec.show_seconds <= 3600:
        raise InvalidArgument(
            "a match waits 1 to 3600 seconds for its players to show",
            reason="TOURNAMENT_INVALID",
            metadata={"field": "show_up_seconds"},
        )
    return "tournament_created", {
        "tournament_id": tournament_id,
        "game": spec.game,
        "options": dict(spec.options),
        "max_entrants": spec.max_entrants,
        "opens_at": spec.opens_at.isoformat(),
        "starts_at": spec.starts_at.isoformat(),
        "fee": spec.fee,
        "split": list(spec.split),
        "no_show": spec.no_show,
        "show_seconds": spec.show_seconds,
        "commitment": commitment(seed),
    }


def register(
    t: Tournament, player_id: str, now: datetime, nickname: str = "", hold_id: str = ""
) -> Event:
    """Enter ``player_id``, whose fee the wallet holds under ``hold_id`` (this registration's
    own: a withdrawal releases it for good, so entering again takes a new one)."""
    _registering(t, now)
    if player_id in t.entrants:
        raise FailedPrecondition("you are already registered", reason="ALREADY_REGISTERED")
    if len(t.entrants) >= t.spec.max_entrants:
        raise FailedPrecondition(
            f"the tournament is full ({t.spec.max_entrants} entrants)",
            reason="TOURNAMENT_FULL",
            metadata={"allowed": t.spec.max_entrants},
        )
    if t.spec.fee and hold_id and hold_id in t.holds.values():
        raise FailedPrecondition(
            f"the entry fee's hold {hold_id} is another registration's", reason="TOURNAMENT_STATE"
        )
    data: dict[str, Any] = {"player_id": player_id, "fee": t.spec.fee}
    if nickname:
        data["nickname"] = nickname
    if hold_id:
        data["hold_id"] = hold_id
    return "player_registered", data


def unregister(t: Tournament, player_id: str, now: datetime) -> Event:
    _registering(t, now)
    if player_id not in t.entrants:
        raise FailedPrecondition("you are not registered", reason="NOT_REGISTERED")
    data: dict[str, Any] = {"player_id": player_id, "refund": t.spec.fee}
    if player_id in t.holds:
        data["hold_id"] = t.holds[player_id]
    return "player_unregistered", data


def start(t: Tournament, seed: bytes, now: datetime) -> Event:
    """At the start time: the draw (the seed revealed), or too few entrants cancel it."""
    if t.status != REGISTERING:
        raise FailedPrecondition(
            f"the tournament is {t.status}",
            reason="TOURNAMENT_STATE",
            metadata={"status": t.status},
        )
    if now < t.spec.starts_at:
        raise FailedPrecondition(
            "the tournament has not reached its start time",
            reason="TOURNAMENT_STATE",
            metadata={"status": t.status},
        )
    if commitment(seed) != t.commitment:
        raise InvalidArgument(
            "the seed does not match the tournament's commitment", reason="SEED_MISMATCH"
        )
    if len(t.entrants) < MIN_ENTRANTS:
        refunds = {p: t.spec.fee for p in t.entrants if t.spec.fee}
        return "tournament_cancelled", {"reason": "too few entrants", "refunds": refunds}
    return "bracket_drawn", {
        "seed": seed.hex(),
        "entrants": sorted(t.entrants),  # also the entrants' seats in the escrow
        "fee": t.spec.fee,
        "holds": {p: t.holds[p] for p in sorted(t.entrants) if p in t.holds},
        "at": _at(now),
    }


MAX_REASON = 200


def cancel(t: Tournament, reason: str, by: str) -> Event:
    """An operator calls the tournament off before its end: every entrant's fee is owed
    back (``refunds``), from the holds before the draw or from the escrow after it."""
    if t.status not in (REGISTERING, PLAYING):
        raise FailedPrecondition(
            f"the tournament is {t.status}: there is nothing to cancel",
            reason="TOURNAMENT_STATE",
            metadata={"status": t.status},
        )
    reason = reason.strip()
    if not 1 <= len(reason) <= MAX_REASON:
        raise InvalidArgument(
            f"say why the tournament is cancelled (1 to {MAX_REASON} characters)",
            reason="TOURNAMENT_INVALID",
            metadata={"field": "reason"},
        )
    refunds = {p: t.spec.fee for p in t.entrants if t.spec.fee}
    return "tournament_cancelled", {
        "reason": reason,
        "refunds": refunds,
        "by": by,
        "drawn": t.status == PLAYING,
        "holds": {p: t.holds[p] for p in refunds if p in t.holds},
    }


def open_match(
    t: Tournament, round_: int, index: int, table_id: str, bots: tuple[str, ...] = ()
) -> Event:
    """Match (``round_``, ``index``) plays at ``table_id``; ``bots`` are the players who did
    not show, whose seats a bot plays (the tournament's ``bot`` no-show option)."""
    match = _bracket(t).match(round_, index)
    if not match.ready:
        raise FailedPrecondition(
            f"match {index + 1} of round {round_ + 1} cannot open now",
            reason="MATCH_STATE",
            metadata={"round": round_ + 1, "match": index + 1},
        )
    if table_id in t.tables:
        raise FailedPrecondition(f"table {table_id} already plays a match", reason="MATCH_STATE")
    if any(b not in (match.a, match.b) for b in bots):
        raise InvalidArgument(
            "only the match's own players can be played by a bot", reason="BRACKET_INVALID"
        )
    data: dict[str, Any] = {"round": round_, "index": index, "table_id": table_id}
    if bots:
        data["bots"] = list(bots)
    return "match_opened", data


def decide_match(
    t: Tournament, table_id: str, winner: str, how: str, now: datetime | None = None
) -> list[Event]:
    """A finished table's winner advances; the final's end also pays the prizes."""
    if table_id not in t.tables:
        raise FailedPrecondition(
            f"table {table_id} plays no match of this tournament", reason="MATCH_STATE"
        )
    round_, index = t.tables[table_id]
    return decide(t, round_, index, winner, how, now)


def forfeit(t: Tournament, round_: int, index: int, shown: str, now: datetime) -> list[Event]:
    """The ``forfeit`` no-show option: the player who showed advances without a table."""
    match = _bracket(t).match(round_, index)
    if not match.ready or t.table_of(round_, index) is not None:
        raise FailedPrecondition(
            f"match {index + 1} of round {round_ + 1} is not waiting",
            reason="MATCH_STATE",
            metadata={"round": round_ + 1, "match": index + 1},
        )
    return decide(t, round_, index, shown, "no_show", now)


def decide(
    t: Tournament, round_: int, index: int, winner: str, how: str, now: datetime | None = None
) -> list[Event]:
    """``winner`` takes match (``round_``, ``index``); after the final, the prizes."""
    after = advance(_bracket(t), round_, index, winner)
    data: dict[str, Any] = {"round": round_, "index": index, "winner": winner, "how": how}
    if now is not None:
        data["at"] = _at(now)
    events: list[Event] = [("match_decided", data)]
    if after.champion is not None:
        finished = {
            "pot": t.spec.fee * len(t.entrants),
            "split": list(t.spec.split),
            "places": final_places(after),
            "game": t.spec.game,
            "entrants": sorted(t.entrants),
        }
        events.append(("prizes_paid", finished))  # the wallet computes and pays them
    return events


def settle(t: Tournament, paid: Mapping[str, int], pot: int) -> list[Event]:
    """What the wallet paid each entrant of the finished tournament (its ``TournamentPaid``):
    recorded once, and shown as the prizes; nothing when told again."""
    if t.status != FINISHED or t.prizes_settled:
        return []
    coins = {p: int(c) for p, c in paid.items() if p in t.entrants and c > 0}
    return [("prizes_settled", {"payouts": coins, "pot": pot})]


def rebuild(tournament_id: str, events: Iterable[Event]) -> Tournament:
    """The tournament its stream describes; the first event must be its creation."""
    found: Tournament | None = None
    for type_, data in events:
        found = _create(tournament_id, data) if found is None else apply(found, type_, data)
    if found is None:
        raise FailedPrecondition(f"no tournament {tournament_id}", reason="TOURNAMENT_STATE")
    return found


def apply(t: Tournament, type_: str, data: Mapping[str, Any]) -> Tournament:
    """``t`` after one recorded event."""
    t = replace(t, version=t.version + 1)
    if type_ == "player_registered":
        player = str(data["player_id"])
        names = {**t.names, player: str(data.get("nickname") or player)}
        holds = {**t.holds, player: str(data["hold_id"])} if data.get("hold_id") else t.holds
        return replace(t, entrants=(*t.entrants, player), names=names, holds=holds)
    if type_ == "player_unregistered":
        player = str(data["player_id"])
        holds = {p: h for p, h in t.holds.items() if p != player}
        return replace(t, entrants=tuple(p for p in t.entrants if p != player), holds=holds)
    if type_ == "tournament_cancelled":
        return replace(t, status=CANCELLED, cancel_reason=str(data.get("reason", "")))
    if type_ == "bracket_drawn":
        bracket = draw(list(data["entrants"]), bytes.fromhex(str(data["seed"])))
        how = {(0, m.index): "bye" for m in bracket.rounds[0] if m.b is None}
        t = replace(t, status=PLAYING, bracket=bracket, seed_hex=str(data["seed"]), how=how)
        return _ready_now(t, data)
    if type_ == "match_opened":
        slot = (int(data["round"]), int(data["index"]))
        tables = {**t.tables, str(data["table_id"]): slot}
        bots = {**t.bots, slot: tuple(str(b) for b in data.get("bots", ()))}
        return replace(t, tables=tables, bots=bots)
    if type_ == "match_decided":
        slot = (int(data["round"]), int(data["index"]))
        bracket = advance(_bracket(t), slot[0], slot[1], data["winner"])
        t = replace(t, bracket=bracket, how={**t.how, slot: str(data["how"])})
        return _ready_now(t, data)
    if type_ == "prizes_paid":  # the final's places (older streams: with the lobby's prizes)
        places = {str(p): int(at) for p, at in dict(data.get("places", {})).items()}
        return replace(t, status=FINISHED, paid=dict(data.get("payouts", {})), places=places)
    if type_ == "prizes_settled":
        paid = {str(p): int(c) for p, c in dict(data["payouts"]).items()}
        return replace(t, paid=paid, prizes_settled=True)
    raise ValueError(f"unknown tournament event {type_!r}")


def _create(tournament_id: str, data: Mapping[str, Any]) -> Tournament:
    spec = TournamentSpec(
        game=str(data["game"]),
        options=dict(data["options"]),
        max_entrants=int(data["max_entrants"]),
        opens_at=datetime.fromisoformat(str(data["opens_at"])),
        starts_at=datetime.fromisoformat(str(data["starts_at"])),
        fee=int(data["fee"]),
        split=tuple(int(s) for s in data["split"]),
        no_show=str(data["no_show"]),
        show_seconds=int(data.get("show_seconds", 120)),
    )
    return Tournament(tournament_id, spec, str(data["commitment"]), version=1)


def _ready_now(t: Tournament, data: Mapping[str, Any]) -> Tournament:
    """Matches that became ready with this event start waiting for their players now."""
    if "at" not in data or t.bracket is None:
        return t
    at = datetime.fromisoformat(str(data["at"]))
    fresh = {
        (m.round, m.index): at for m in t.bracket.ready() if (m.round, m.index) not in t.ready_at
    }
    return replace(t, ready_at={**t.ready_at, **fresh}) if fresh else t


def _at(now: datetime) -> str:
    return now.isoformat()


def _registering(t: Tournament, now: datetime) -> None:
    if t.status != REGISTERING or now >= t.spec.starts_at:
        raise FailedPrecondition(
            "registration is closed: the tournament has started", reason="REGISTRATION_CLOSED"
        )
    if now < t.spec.opens_at:
        raise FailedPrecondition(
            f"registration opens at {t.spec.opens_at.isoformat()}",
            reason="REGISTRATION_CLOSED",
            metadata={"opens_at": t.spec.opens_at.isoformat()},
        )


def _bracket(t: Tournament) -> Bracket:
    if t.bracket is None:
        raise FailedPrecondition(
            "the bracket is not drawn yet", reason="TOURNAMENT_STATE", metadata={"status": t.status}
        )
    return t.bracket
