"""The use cases of knock-out tournaments (PCG-7): create, list, register, unregister, read,
and the loop that starts each tournament and opens its matches as engine tables.

Every change is decided by the pure ``stream`` module on the tournament as its stream
stands, and appended at that version in a transaction that holds the tournament's row:
two replicas never both decide, and a replica that dies mid-round loses nothing (the next
one folds the stream and goes on; tables are opened with ids derived from the match, so
opening one again finds the same table).

Money goes through the wallet: registering holds the entry fee (``entry_hold_id``), and
withdrawing or a cancelled tournament releases it through the lobby's hold releases
(retried until the wallet answers, so each fee comes back exactly once). The draw and the
final are published (``TournamentDrawn``, ``TournamentFinished``): the wallet moves the
held fees into the tournament's escrow, then pays the prizes from it, once each.

No-shows: a ready match waits ``show_seconds`` for both players to follow the tournament
(``GetTournament`` or ``WatchTournament``, which ``tavolo tournament watch`` keeps open);
then a bot plays the missing seat and the table's result stands, or (``forfeit``) the
player who showed goes through without a table (if neither showed, bots play it).
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

import structlog

from tavolo.cardgames.errors import InvalidOptions
from tavolo.cardgames.knockout import knock_out
from tavolo.cardgames.registry import get_game
from tavolo.lobby.context import LobbyContext
from tavolo.lobby.events import entry_hold_id
from tavolo.lobby.play import queue_store, tables_store
from tavolo.lobby.play.tables import BotLevel, Mode, Seat, TableSpec, check_stake, table_spec
from tavolo.lobby.play.tables_store import TableRecord
from tavolo.lobby.store import Connection
from tavolo.lobby.tournaments import store
from tavolo.lobby.tournaments.prizes import WINNER_TAKES_ALL
from tavolo.lobby.tournaments.stream import (
    CANCELLED,
    FINISHED,
    PLAYING,
    REGISTERING,
    Event,
    Tournament,
    TournamentSpec,
    apply,
    cancel,
    create,
    decide_match,
    forfeit,
    open_match,
    register,
    settle,
    start,
    unregister,
)
from tavolo.servicekit.auth import Principal, Role
from tavolo.servicekit.errors import InvalidArgument, NotFound, Unavailable, quoted

log = structlog.get_logger("tavolo.lobby.tournaments")

PLAYERS_PER_MATCH = 2
DEFAULT_SHOW_SECONDS = 120
DEFAULT_LIST = 50
MAX_LIST = 500
BOT_LEVEL = BotLevel.MEDIUM
# A player who followed the tournament this shortly before a match got ready has shown
# for it: a follower's presence is refreshed every few seconds (``store.seen``).
PRESENCE_GRACE = timedelta(seconds=10)
# Tournament tables always run a turn timer, so one idle player cannot stall a round.
TABLE_DEFAULTS: Mapping[str, int] = {"turn_seconds": 30, "bot_think_millis": 800}
OPENING_AT_ONCE = 16  # engine tables opened concurrently when a round starts
_TABLES = uuid.UUID("8d1e5a2c-3b7f-4e09-a6d4-71c2f0b9e853")

Release = Callable[[str], Awaitable[int]]


def table_id_of(tournament_id: str, round_: int, index: int) -> str:
    """A match's engine table id, derived so that opening it again finds the same table."""
    return str(uuid.uuid5(_TABLES, f"{tournament_id}:{round_}:{index}"))


@dataclass(frozen=True, slots=True)
class NewTournament:
    """What an operator asks for; unset fields take their defaults."""

    game: str
    options: Mapping[str, Any]
    max_entrants: int
    opens_at: datetime | None
    starts_at: datetime | None
    fee: int
    split: Sequence[int]
    no_show: str
    show_seconds: int


@dataclass(frozen=True, slots=True)
class _Table:
    """A match's table, decided on, for the engine to open."""

    table_id: str
    spec: TableSpec
    seats: tuple[Seat, ...]


class Tournaments:
    def __init__(self, ctx: LobbyContext, release: Release) -> None:
        self.ctx = ctx
        self._release = release
        # Each tournament as last folded: a read folds only the events after it (the
        # stream stays the truth; a stale copy only means more events to fold).
        self._folded: dict[str, Tournament] = {}

    # -- operators --------------------------------------------------------------------

    async def create(self, caller: Principal, asked: NewTournament) -> Tournament:
        caller.require(Role.OPERATOR)
        spec_table = _match_spec(asked.game, asked.options)
        now = self.ctx.clock()
        if asked.starts_at is None:
            raise InvalidArgument(
                "say when the tournament starts (starts_at)",
                reason="FIELD_REQUIRED",
                metadata={"field": "starts_at"},
            )
        check_stake(asked.fee)
        spec = TournamentSpec(
            game=spec_table.game,
            options=dict(spec_table.options),
            max_entrants=asked.max_entrants,
            opens_at=asked.opens_at or now,
            starts_at=asked.starts_at,
            fee=asked.fee,
            split=tuple(asked.split) or WINNER_TAKES_ALL,
            no_show=asked.no_show or "bot",
            show_seconds=asked.show_seconds or DEFAULT_SHOW_SECONDS,
        )
        tournament_id = self.ctx.new_id()
        seed = os.urandom(32)
        created = create(tournament_id, spec, seed)  # refuses a bad spec, saying why
        blank = Tournament(tournament_id, spec, "")
        async with self.ctx.db.transaction() as conn:
            await store.insert(conn, tournament_id, seed, spec.starts_at, now)
            await store.append(self.ctx.events, conn, blank, [created])
            found = await store.read(self.ctx.events, conn, tournament_id)
        self.ctx.on_append()
        assert found is not None
        log.info("tournament created", tournament=tournament_id, game=spec.game)
        return found

    async def cancel(self, caller: Principal, tournament_id: str, reason: str) -> Tournament:
        """Call a tournament off; every fee comes back exactly once: before the draw the
        holds are released here, after it the wallet refunds the escrow (and voids any hold
        it has not moved yet) on the published cancellation. Tables still playing finish,
        but decide nothing."""
        caller.require(Role.OPERATOR)
        async with self.ctx.db.transaction() as conn:
            await store.lock(conn, tournament_id)
            t = await self._read(conn, tournament_id)
            called_off = cancel(t, reason, caller.player_id)
            await store.append(self.ctx.events, conn, t, [called_off])
            await store.set_status(conn, tournament_id, CANCELLED)
            releases = [] if t.status == PLAYING or not t.spec.fee else list(t.entrants)
            for player in releases:
                hold = hold_of(t, player)
                await queue_store.request_hold_release(conn, hold, player, self.ctx.clock())
        self.ctx.on_append()
        for player in releases:
            await self._release(hold_of(t, player))
        log.info("tournament cancelled", tournament=tournament_id, by=caller.player_id)
        return apply(t, *called_off)

    # -- players ----------------------------------------------------------------------

    async def listed(self, caller: Principal, limit: int) -> list[Tournament]:
        if not 0 <= limit <= MAX_LIST:
            raise InvalidArgument(
                f"limit is 1 to {MAX_LIST}, not {limit}",
                reason="FIELD_INVALID",
                metadata={"field": "limit"},
            )
        async with self.ctx.db.connection() as conn:
            ids = await store.listed(conn, limit or DEFAULT_LIST)
            found = [await store.read(self.ctx.events, conn, i) for i in ids]
        return [t for t in found if t is not None]

    async def get(self, caller: Principal, tournament_id: str) -> Tournament:
        """The tournament; a registered player reading it has shown for their match."""
        async with self.ctx.db.connection() as conn:
            t = await self._read(conn, tournament_id)
            if caller.player_id in t.entrants and t.status in (REGISTERING, PLAYING):
                await store.seen(conn, tournament_id, caller.player_id, self.ctx.clock())
        return t

    async def changed_since(self, caller: Principal, tournament_id: str, version: int) -> bool:
        """Whether the tournament moved past ``version`` (one cheap read, no fold); the
        caller, if an entrant, is present meanwhile (a follower asks this every moment)."""
        async with self.ctx.db.connection() as conn:
            now = await self.ctx.events.stream_version(store.stream_id(tournament_id), conn=conn)
            if now == version:
                await store.seen(conn, tournament_id, caller.player_id, self.ctx.clock())
        return now != version

    async def register(self, caller: Principal, tournament_id: str) -> Tournament:
        """Enter: checked, the fee held at the wallet, then recorded (a registration that
        cannot be recorded releases its hold)."""
        async with self.ctx.db.connection() as conn:
            account = await self.ctx.lobby_account(conn, caller)
            t = await self._read(conn, tournament_id)
            register(t, account.player_id, self.ctx.clock())  # refused here if it must be
        hold_id = entry_hold_id(tournament_id, account.player_id, uuid.uuid4().hex[:12])
        if t.spec.fee:
            try:
                await self.ctx.wallet.hold_stake(
                    hold_id, account.player_id, t.spec.fee, f"tournament:{tournament_id}"
                )
            except Unavailable:
                await self._release_later(hold_id, account.player_id)
                raise
        try:
            async with self.ctx.db.transaction() as conn:
                await store.lock(conn, tournament_id)
                t = await self._read(conn, tournament_id)
                entered = register(
                    t, account.player_id, self.ctx.clock(), account.nickname, hold_id
                )
                await store.append(self.ctx.events, conn, t, [entered])
        except BaseException:
            if t.spec.fee:
                await self._release_later(hold_id, account.player_id)
            raise
        self.ctx.on_append()
        return apply(t, *entered)

    async def unregister(self, caller: Principal, tournament_id: str) -> Tournament:
        """Withdraw before the start; the held fee is released."""
        async with self.ctx.db.transaction() as conn:
            await store.lock(conn, tournament_id)
            t = await self._read(conn, tournament_id)
            left = unregister(t, caller.player_id, self.ctx.clock())
            hold_id = hold_of(t, caller.player_id)
            await store.append(self.ctx.events, conn, t, [left])
            if t.spec.fee:
                await queue_store.request_hold_release(
                    conn, hold_id, caller.player_id, self.ctx.clock()
                )
        self.ctx.on_append()
        if t.spec.fee:
            await self._release(hold_id)
        return apply(t, *left)

    # -- the loop ---------------------------------------------------------------------

    async def run(self) -> None:
        """Background loop of every replica: start what is due, open what is ready."""
        while True:
            try:
                await self.tick()
            except Exception:  # one bad pass must not stop the loop; the next retries
                log.exception("tournament pass failed")
            await asyncio.sleep(self.ctx.config.tournament_interval)

    async def tick(self) -> int:
        """One pass over the live tournaments; how many changed."""
        async with self.ctx.db.connection() as conn:
            ids = await store.live(conn)
        changed = 0
        for tournament_id in ids:
            changed += await self.step(tournament_id)
        return changed

    async def step(self, tournament_id: str) -> int:
        """Start or play one tournament, holding its row (another replica skips it)."""
        releases: list[str] = []
        async with self.ctx.db.transaction() as conn:
            seed = await store.lock(conn, tournament_id, wait=False)
            if seed is None:
                return 0
            t = await self._read(conn, tournament_id)
            now = self.ctx.clock()
            decided: list[Event] = []
            if t.status == REGISTERING and now >= t.spec.starts_at:
                began = start(t, seed, now)
                decided.append(began)
                t = apply(t, *began)
                if t.status == CANCELLED:
                    releases = [hold_of(t, p) for p in t.entrants if t.spec.fee]
                    for player in (p for p in t.entrants if t.spec.fee):
                        hold = hold_of(t, player)
                        await queue_store.request_hold_release(conn, hold, player, now)
            if t.status == PLAYING:
                t, played = await self._play(conn, t, now)
                decided.extend(played)
            if not decided:
                return 0
            before = replace(t, version=t.version - len(decided))
            await store.append(self.ctx.events, conn, before, decided)
            await store.set_status(conn, tournament_id, t.status)
        self.ctx.on_append()
        for hold in releases:
            await self._release(hold)
        return len(decided)

    async def _play(
        self, conn: Connection, t: Tournament, now: datetime
    ) -> tuple[Tournament, list[Event]]:
        """Open every ready match whose players showed (or whose wait is over).

        The engine opens the tables inside the transaction, several at once: if it refuses
        or cannot be reached, nothing is recorded and the next pass tries again (the same
        table ids, so a table it did open is found, not opened twice)."""
        decided: list[Event] = []
        tables: list[_Table] = []
        progress = True
        while progress and t.status == PLAYING:
            progress = False
            for round_, index in t.waiting():
                events, table = await self._open(conn, t, round_, index, now)
                for event in events:
                    t = apply(t, *event)
                decided.extend(events)
                tables.extend([table] if table else [])
                progress = progress or any(e[0] == "match_decided" for e in events)
        slots = asyncio.Semaphore(OPENING_AT_ONCE)
        options = {**TABLE_DEFAULTS, **self.ctx.config.engine_options}

        async def opening(table: _Table) -> None:
            async with slots:
                await self.ctx.engine.open_table(
                    table.table_id,
                    table.spec,
                    table.seats,
                    Mode.TOURNAMENT,
                    ko=True,
                    engine_options=options,
                )

        await asyncio.gather(*(opening(table) for table in tables))
        for table in tables:
            log.info("tournament match opened", tournament=t.tournament_id, table=table.table_id)
        return t, decided

    async def _open(
        self, conn: Connection, t: Tournament, round_: int, index: int, now: datetime
    ) -> tuple[list[Event], _Table | None]:
        assert t.bracket is not None
        match = t.bracket.match(round_, index)
        assert match.a is not None and match.b is not None
        players = (match.a, match.b)
        ready_at = t.ready_at.get((round_, index), now)
        shown = await store.seen_since(conn, t.tournament_id, players, ready_at - PRESENCE_GRACE)
        missing = tuple(p for p in players if p not in shown)
        waited = now - ready_at >= timedelta(seconds=t.spec.show_seconds)
        if missing and not waited:
            return [], None
        if missing and t.spec.no_show == "forfeit" and len(missing) == 1:
            (present,) = (p for p in players if p not in missing)
            return forfeit(t, round_, index, present, now), None
        table_id = table_id_of(t.tournament_id, round_, index)
        opened = open_match(t, round_, index, table_id, missing)
        seats = [
            Seat(seat, None, f"{t.names.get(p, p)} (bot)", BOT_LEVEL)
            if p in missing
            else Seat(seat, p, t.names.get(p, p))
            for seat, p in enumerate(players)
        ]
        await store.add_table(conn, table_id, t.tournament_id)
        spec = TableSpec(t.spec.game, PLAYERS_PER_MATCH, dict(t.spec.options))
        if await tables_store.table(conn, table_id) is None:
            # A table like any other: its seats have chat and reports, moderators find it.
            record = TableRecord(table_id, spec, Mode.TOURNAMENT, now, bot_filled=bool(missing))
            await tables_store.insert_tables(conn, [record], [seats])
        for player in players:  # busy like any seated player, until the table ends
            if player not in missing:
                await tables_store.claim(conn, [player], now, table_id=table_id)
        return [opened], _Table(table_id, spec, tuple(seats))

    # -- results from the engine (in the consumer's transaction) ----------------------

    async def table_ended(
        self, conn: Connection, table_id: str, places: Sequence[int], how: str
    ) -> bool:
        """A tournament table ended: its winner goes through (after the final, the prizes).
        ``places`` by seat (empty for an aborted table: the first-drawn side goes through).
        False when the table plays for no tournament, or its match was already decided."""
        tournament_id = await store.tournament_of(conn, table_id)
        if tournament_id is None:
            return False
        await store.lock(conn, tournament_id)
        t = await self._read(conn, tournament_id)
        slot = t.tables.get(table_id)
        if slot is None or t.bracket is None or t.status != PLAYING:
            return False  # not this tournament's, or it was cancelled meanwhile
        match = t.bracket.match(*slot)
        if match.winner is not None:
            return False  # decided already (a forfeit, or this very result redelivered)
        assert match.a is not None and match.b is not None
        sides = (match.a, match.b)
        winner = sides[0]
        if len(places) == PLAYERS_PER_MATCH and places[1] < places[0]:
            winner = sides[1]
        decided = decide_match(t, table_id, winner, how, self.ctx.clock())
        await store.append(self.ctx.events, conn, t, decided)
        after = t
        for event in decided:
            after = apply(after, *event)
        if after.status == FINISHED:
            await store.set_status(conn, tournament_id, FINISHED)
        return True

    async def prizes_paid(
        self, conn: Connection, tournament_id: str, paid: Mapping[str, int], pot: int
    ) -> bool:
        """The wallet paid the tournament's prizes (``TournamentPaid``): recorded once, they
        are the prizes the tournament shows. False when already recorded or unknown."""
        if await store.lock(conn, tournament_id) is None:
            log.warning("prizes paid for no tournament here", tournament=tournament_id)
            return False
        t = await self._read(conn, tournament_id)
        settled = settle(t, paid, pot)
        if not settled:
            return False
        await store.append(self.ctx.events, conn, t, settled)
        return True

    # -- helpers ----------------------------------------------------------------------

    async def _read(self, conn: Connection, tournament_id: str) -> Tournament:
        known = self._folded.get(tournament_id)
        t = await store.read(self.ctx.events, conn, tournament_id, known) if tournament_id else None
        if t is None:
            raise NotFound(
                f"no tournament has the id {quoted(tournament_id)}",
                reason="TOURNAMENT_NOT_FOUND",
                metadata={"tournament_id": tournament_id},
            )
        self._folded[tournament_id] = t
        return t

    async def _release_later(self, hold_id: str, player_id: str) -> None:
        async with self.ctx.db.transaction() as conn:
            await queue_store.request_hold_release(conn, hold_id, player_id, self.ctx.clock())
        await self._release(hold_id)


def hold_of(t: Tournament, player_id: str) -> str:
    """The hold of ``player_id``'s entry fee, as their registration recorded it."""
    return t.holds.get(player_id) or entry_hold_id(t.tournament_id, player_id)


def _match_spec(game: str, options: Mapping[str, Any]) -> TableSpec:
    """The table every match plays: two seats, the game's options, KO play offered."""
    spec = table_spec(game, PLAYERS_PER_MATCH, options)
    try:
        knock_out(get_game(spec.game))
    except InvalidOptions as exc:
        raise InvalidArgument(str(exc), reason=exc.reason, metadata=exc.metadata) from None
    return spec
