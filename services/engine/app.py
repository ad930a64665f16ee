"""The engine's use cases: the only place that decides who may do what at a table.

Open a table, show a seat its view, apply a seat's action, let a player leave to a bot,
serve the log to auditors, stream a seat's views, and fire timers and bot moves. Every
state change goes through `TableRepository.run` (one transaction, optimistic
concurrency), so players, bots and timers share one command path.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import os
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from tavolo.cardgames import Action, ActionKind, RuleError
from tavolo.cardgames.bots.base import RandomBot, SeatedBot, seed_bytes
from tavolo.cardgames.bots.registry import make_bot
from tavolo.cardgames.errors import InvalidOptions
from tavolo.cardgames.rng import SeededRandom
from tavolo.engine.live import LiveTable
from tavolo.engine.repository import (
    BOT_TIMER,
    Decide,
    LogDoesNotReplay,
    Request,
    TableRepository,
)
from tavolo.engine.store import DeadlineRow, refused_stream_id
from tavolo.eventlog import ConcurrencyError, NewEvent, RecordedEvent
from tavolo.eventlog.integrity import IndexColumns
from tavolo.servicekit import tracing
from tavolo.servicekit.auth import Principal, Role
from tavolo.servicekit.errors import (
    Conflict,
    DomainError,
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    PermissionDenied,
    quoted,
)
from tavolo.servicekit.waiting import wait_event
from tavolo.tablelog.setup import TableSetup
from tavolo.tablelog.table import (
    BY_BOT,
    BY_PLAYER,
    BY_TIMER,
    PLAYING,
    Decision,
    Table,
    bots_play_on,
    decide_action,
    decide_leave,
    open_table,
)
from tavolo.tablelog.views import SeatView, seat_view

LEAVER_BOT_LEVEL = "medium"
WATCH_POLL_SECONDS = 2.0
"""A watcher re-reads the stored head this often even without a notification."""
PRIVILEGED = (Role.OPERATOR, Role.SERVICE)
MIN_SEED_BYTES = 32
OBSERVERS = (Role.AUDITOR, Role.OPERATOR)
BOT_RUN = 8
"""Moves of bots with no think time committed together at most (`bots_play_on`): a few
turns of a table, well inside the versions the cache keeps for its watchers."""
PLAYERS_ACTIVE_SECONDS = 1.0
"""Bots play on only when no player has sent a command for this long. A run is one long
step of the event loop, and while players act it holds their calls back: at 200 tables
of one player and three bots with no think time, `Act` p50 / p99 61 / 568 ms with runs
of 8 against 14 / 58 ms one move at a time (the bots' own tables played 1,034 against 455
actions/s). Players first: bots in runs only while no one waits for the loop."""


class EngineApp:
    """Use cases over a :class:`TableRepository`."""

    def __init__(
        self, repo: TableRepository, *, new_seed: Callable[[], bytes] = lambda: os.urandom(32)
    ) -> None:
        self.repo = repo
        self._new_seed = new_seed
        self.player_acted_at = -PLAYERS_ACTIVE_SECONDS
        """``time.monotonic()`` when a player's command last began: bots play on only long
        after it, and the timer loop gives way to players when it moves during a batch."""

    # -- opening ----------------------------------------------------------------------

    async def open_table(
        self, principal: Principal, setup: TableSetup, deal_seed: bytes = b""
    ) -> Table:
        """Deal a new table (or return the same table for a retried open). Services may
        fix the seed (``deal_seed``): a Duplicate Solitario competition deals every
        entrant's table from its own committed seed."""
        privileged = bool(principal.roles.intersection(PRIVILEGED))
        if (deal_seed or setup.sealed_until) and not privileged:
            raise PermissionDenied(
                "only the platform's services choose a table's seed", reason="SEED_FORBIDDEN"
            )
        if setup.sealed_until and not deal_seed:
            raise InvalidArgument(
                "a sealed log is for a table dealt from a given seed", reason="SEED_INVALID"
            )
        if deal_seed and len(deal_seed) < MIN_SEED_BYTES:
            raise InvalidArgument(
                f"a deal seed has {MIN_SEED_BYTES} bytes or more", reason="SEED_INVALID"
            )
        if setup.sealed_until:
            try:
                zone = datetime.fromisoformat(setup.sealed_until).tzinfo
            except ValueError:
                zone = None
            if zone is None:
                raise InvalidArgument(
                    "log_sealed_until is not a time with its time zone",
                    reason="FIELD_INVALID",
                    metadata={"field": "log_sealed_until"},
                )
        if not privileged:
            mine = [s for s in setup.seats if s.player_id == principal.player_id and not s.bot]
            if setup.mode != "versus_computer":
                raise PermissionDenied(
                    "players open only versus-computer tables; other tables form in the lobby",
                    reason="TABLE_KIND_FORBIDDEN",
                )
            if len(mine) != 1 or any(not s.bot for s in setup.seats if s not in mine):
                raise PermissionDenied(
                    "a versus-computer table has you in one seat and bots in all the others",
                    reason="TABLE_KIND_FORBIDDEN",
                )
        return await self.open_setup(setup, deal_seed)

    async def open_setup(self, setup: TableSetup, deal_seed: bytes = b"") -> Table:
        """Open ``setup`` with a fresh seed (or ``deal_seed``); also the path of a
        MatchFormed event."""
        seed = deal_seed or self._new_seed()
        now = await self.repo.store.now()  # the database's clock starts the first timers
        try:
            decision = open_table(setup, seed, now)
        except InvalidOptions as exc:
            raise InvalidArgument(str(exc), reason=exc.reason, metadata=exc.metadata) from None
        table, _ = await self.repo.create(setup, seed, decision, now)
        return table

    async def refuse_match(self, conn: Any, table_id: str, aborted: NewEvent) -> bool:
        """Record the abort of a match that cannot be opened, in the caller's transaction;
        False if it was recorded before (a replay of the same match)."""
        stream = refused_stream_id(table_id)
        try:  # the append runs in a savepoint: a repeat leaves the caller's transaction usable
            await self.repo.store.events.append_events(stream, 0, [aborted], conn=conn)
        except ConcurrencyError:
            return False
        return True

    # -- reading ----------------------------------------------------------------------

    async def get_view(self, principal: Principal, table_id: str) -> SeatView:
        live = await self.repo.live(table_id)
        table = await self.repo.refresh(live)
        return await self._with_receipt(seat_view(table, self._viewer_seat(table, principal)))

    async def table_log(
        self, principal: Principal, table_id: str
    ) -> tuple[list[RecordedEvent], tuple[int, str], str]:
        """The whole hash-chained log (AUDIT-4), the version and status the table's row
        records, read in one snapshot so that a table still in play cannot show a head past
        its last event, and why the log does not replay ("" when it does).

        Auditors and operators see any table; a player sees a table they sat at once its
        row records it ended, when its closing event has revealed the seed and the log
        shows nothing a seat could still use; so does the lobby (a service), which reads
        finished tables for fair-play signals (PCG-3). A log changed after it was written
        is served all the same, whole, with the replay's complaint beside it: the auditor
        needs it most then (AUDIT-1), and the engine serves every other table as before.
        """
        events, head = await self.repo.store.log_and_head(table_id)
        if head is None or not events:
            raise NotFound(
                f"there is no table {quoted(table_id)}: check the id you were given",
                reason="TABLE_NOT_FOUND",
                metadata={"table_id": table_id},
            )
        problem = ""
        try:
            await self.repo.live(table_id)
        except LogDoesNotReplay as exc:
            problem = str(exc.mismatch)
        if not principal.roles.intersection(OBSERVERS):
            await self._may_read_log(principal, table_id, events[0].data, head[1])
        return events, head, problem

    async def _may_read_log(
        self, principal: Principal, table_id: str, opened: Mapping[str, Any], status: str
    ) -> None:
        """A player of the table, or a service, once the table's row records its end; the
        seats and the seal are read from the opening event, so that a log that no longer
        replays still opens to the players who hold its receipt."""
        try:
            setup = TableSetup.from_dict(opened)
        except (KeyError, TypeError, ValueError):
            raise FailedPrecondition(
                f"the opening event of table {table_id} no longer names its seats: ask an"
                " auditor to check the table",
                reason="TABLE_LOG_UNREADABLE",
                metadata={"table_id": table_id},
            ) from None
        service = principal.has(Role.SERVICE)
        if not service and setup.seat_of(principal.player_id) is None:
            raise PermissionDenied(
                f"you had no seat at table {table_id}: players check only their own tables",
                reason="NO_SEAT",
                metadata={"table_id": table_id},
            )
        if status == PLAYING:
            raise FailedPrecondition(
                f"table {table_id} is still in play: its log opens to its players when it"
                " ends and its seed is revealed",
                reason="LOG_SEALED",
                metadata={"table_id": table_id},
            )
        sealed = setup.sealed_until  # the seal keeps the deal from players only
        if sealed and not service and await self.repo.store.now() < datetime.fromisoformat(sealed):
            raise FailedPrecondition(
                f"table {table_id} plays a Duplicate Solitario deal: its log opens to"
                f" its player when the competition closes, at {sealed}",
                reason="LOG_SEALED",
                metadata={"table_id": table_id, "until": sealed},
            )

    async def log_index(
        self, principal: Principal, after_position: int, limit: int
    ) -> tuple[IndexColumns, int]:
        """A page of the whole log's index, for auditors (a deleted event shows as a gap)."""
        principal.require(*OBSERVERS)
        if after_position < 0 or limit < 0:
            raise InvalidArgument(
                "after_position and limit are 0 or more",
                reason="FIELD_INVALID",
                metadata={"field": "after_position"},
            )
        return await self.repo.store.log_index(after_position, min(limit or 10_000, 10_000))

    async def _with_receipt(self, view: SeatView) -> SeatView:
        """A closing view carries the hash of the log's last event: every seat's receipt."""
        if view.status == "playing":
            return view
        found = await self.repo.store.event_hash(view.table_id, view.version)
        return dataclasses.replace(view, log_hash=found.hex() if found else "")

    async def watch(
        self, principal: Principal, table_id: str, after_version: int
    ) -> AsyncIterator[SeatView]:
        """The caller's view after every event past ``after_version`` (0: the current view
        first), then live, until the table closes. Resuming never skips a version."""
        live = await self.repo.live(table_id)
        seat = self._viewer_seat(live.table, principal)
        if after_version < 0:
            raise InvalidArgument(
                "after_version is 0 or a version you have seen",
                reason="FIELD_INVALID",
                metadata={"field": "after_version"},
            )
        wake = asyncio.Event()
        live.watchers.add(wake)
        try:
            table = await self.repo.refresh(live)
            if after_version > table.version:
                raise InvalidArgument(
                    f"table {table_id} is at version {table.version}; it has no version"
                    f" {after_version} yet",
                    reason="VERSION_UNKNOWN",
                    metadata={"table_id": table_id, "version": table.version},
                )
            last = after_version
            if after_version == 0:
                yield await self._with_receipt(seat_view(table, seat))
                last = table.version
            stale = False
            while True:
                wake.clear()
                # Local commits advance the cached copy; the database is read only when
                # another replica announced a newer version or no news came for a while.
                table = await self.repo.refresh(live, read_head=stale)
                if table.version > last:
                    for each in await self.repo.tables_between(live, last + 1, table.version):
                        yield await self._with_receipt(seat_view(each, seat))
                        last = each.version
                if not table.playing:
                    return
                stale = not await wait_event(wake, WATCH_POLL_SECONDS)
        finally:
            live.watchers.discard(wake)
            live.settle()

    # -- acting -----------------------------------------------------------------------

    async def act(
        self,
        principal: Principal,
        table_id: str,
        action: Action,
        *,
        expected_version: int = 0,
        request_id: str = "",
        seat: int | None = None,
    ) -> SeatView:
        """Apply ``action`` for the caller's seat and return the caller's view after it."""
        if action.kind is ActionKind.EXPIRE:
            raise PermissionDenied(
                "timers are run by the engine: a client cannot expire one",
                reason="TIMER_CLIENT_FORBIDDEN",
            )
        if expected_version < 0:
            raise InvalidArgument(
                "expected_version is 0 (no check) or the version you saw",
                reason="FIELD_INVALID",
                metadata={"field": "expected_version"},
            )
        live = await self.repo.live(table_id)
        own = self._acting_seat(live.table, principal, seat)

        def decide(table: Table, table_seed: bytes, now: datetime) -> Decision:
            if expected_version > table.version:
                raise InvalidArgument(
                    f"table {table_id} is at version {table.version}; it has no version"
                    f" {expected_version} yet: send the version of the last view you saw",
                    reason="VERSION_UNKNOWN",
                    metadata={"table_id": table_id, "version": table.version},
                )
            if expected_version and expected_version != table.version:
                raise Conflict(
                    f"the table moved on to version {table.version} (you saw {expected_version}):"
                    " look at the new view and choose again",
                    reason="TABLE_MOVED_ON",
                    metadata={
                        "table_id": table_id,
                        "version": table.version,
                        "expected_version": expected_version,
                    },
                )
            if not table.playing:
                raise FailedPrecondition(
                    f"the table has {table.status}: no more actions",
                    reason="TABLE_ENDED",
                    metadata={"table_id": table_id, "status": table.status},
                )
            if table.seats[own].bot:
                raise PermissionDenied(
                    f"you left table {table_id}: a bot plays seat {own} now",
                    reason="SEAT_LEFT",
                    metadata={"table_id": table_id, "seat": own},
                )
            try:
                return decide_action(
                    table,
                    own,
                    action,
                    by=BY_PLAYER,
                    seed=table_seed,
                    now=now,
                    metadata={"player_id": principal.player_id, "request_id": request_id}
                    if request_id
                    else {"player_id": principal.player_id},
                )
            except RuleError as refusal:
                # What a client needs to explain the refusal in its own words (API-1).
                refusal.metadata.update(
                    table_id=table_id, version=str(table.version), seat=str(own)
                )
                raise

        request = Request(principal.player_id, request_id) if request_id else None
        self._player_acts()
        # A move is traced from the player's call; it links to the table's opening, the
        # trace of the match that made the table (README, "Operating it").
        with tracing.linked("engine act", [live.opened_by], table_id=table_id):
            applied = await self.repo.run(table_id, decide, request=request)
        assert applied is not None
        return await self._with_receipt(seat_view(applied.table, own))

    async def leave(self, principal: Principal, table_id: str) -> str:
        """The caller leaves; a bot plays their seat from now on (returns its level)."""
        live = await self.repo.live(table_id)
        own = self._acting_seat(live.table, principal, None)

        def decide(table: Table, table_seed: bytes, now: datetime) -> Decision:
            if not table.playing:
                raise FailedPrecondition(
                    f"the table has {table.status}: there is nothing to leave",
                    reason="TABLE_ENDED",
                    metadata={"table_id": table_id, "status": table.status},
                )
            if table.seats[own].bot:
                raise FailedPrecondition(
                    f"you have already left table {table_id}",
                    reason="ALREADY_LEFT",
                    metadata={"table_id": table_id},
                )
            return decide_leave(table, own, LEAVER_BOT_LEVEL, seed=table_seed)

        self._player_acts()
        await self.repo.run(table_id, decide)
        return LEAVER_BOT_LEVEL

    # -- timers and bots --------------------------------------------------------------

    async def fire(self, row: DeadlineRow) -> bool:
        """Fire one due deadline through the command path; False if it was not ours."""
        live = await self.repo.live(row.table_id)
        applied = await self.repo.run(row.table_id, self._decider(live, row), fired=row)
        return applied is not None

    async def fire_together(self, rows: Sequence[DeadlineRow]) -> tuple[int, list[DeadlineRow]]:
        """Fire due deadlines of many tables in one statement (`TableRepository.
        fire_together`); how many were handled, and those to fire alone with `fire`."""
        fired = []
        unknown = []
        for row in rows:
            try:
                live = await self.repo.live(row.table_id)
            except DomainError:
                unknown.append(row)  # `fire` says why
            else:
                fired.append((live, row, self._decider(live, row)))
        handled, alone = await self.repo.fire_together(fired)
        return handled, unknown + [row for _, row, _ in alone]

    def _decider(self, live: LiveTable, row: DeadlineRow) -> Decide:
        """What firing ``row`` decides: the seat's bot moves, or the timer expires."""
        if row.kind == BOT_TIMER:

            def bot_moves(table: Table, table_seed: bytes, now: datetime) -> Decision | None:
                info = table.seats[row.seat]
                legal = table.game.legal_actions(table.state, row.seat) if table.playing else []
                if not info.bot or not legal:
                    return None
                choice = self._bot_choice(live, table, row.seat, legal)
                decision = decide_action(
                    table, row.seat, choice, by=BY_BOT, seed=table_seed, now=now
                )
                if table.setup.bot_think_millis or self.players_active():
                    return decision
                choose = functools.partial(self._bot_choice, live)
                return bots_play_on(decision, choose, seed=table_seed, now=now, limit=BOT_RUN)

            return bot_moves

        def expires(table: Table, table_seed: bytes, now: datetime) -> Decision | None:
            expire = Action(ActionKind.EXPIRE, timer=row.key)
            try:
                return decide_action(table, row.seat, expire, by=BY_TIMER, seed=table_seed, now=now)
            except RuleError:
                return None  # the timer stopped meanwhile: drop its row

        return expires

    def _player_acts(self) -> None:
        self.player_acted_at = time.monotonic()

    def players_active(self) -> bool:
        """A player sent a command within `PLAYERS_ACTIVE_SECONDS`: bots move one at a time."""
        return time.monotonic() - self.player_acted_at < PLAYERS_ACTIVE_SECONDS

    def _bot_choice(self, live: LiveTable, table: Table, seat: int, legal: list[Action]) -> Action:
        """The seat's bot chooses on the seat's own view, as a player would."""
        return self._bot(live, table, seat).choose(table.game.view(table.state, seat), legal)

    def _bot(self, live: LiveTable, table: Table, seat: int) -> SeatedBot:
        """The seat's bot, kept with the cached table so a bot with memory keeps it."""
        bot = live.bots.get(seat)
        if bot is None:
            level = table.seats[seat].bot_level or "easy"
            seed = f"{table.table_id}:{seat}"
            try:
                bot = make_bot(table.setup.game, level, seed)
            except InvalidOptions:  # a game without bots of that level: random legal moves
                bot = SeatedBot(
                    table.setup.game, level, RandomBot(), SeededRandom(seed_bytes(seed))
                )
            live.bots[seat] = bot
        return bot

    # -- who is asking ----------------------------------------------------------------

    def _viewer_seat(self, table: Table, principal: Principal) -> int | None:
        seat = table.setup.seat_of(principal.player_id)
        if seat is not None:
            return seat
        if principal.roles.intersection(OBSERVERS):
            return None
        raise PermissionDenied(
            f"you have no seat at table {table.table_id}",
            reason="NO_SEAT",
            metadata={"table_id": table.table_id},
        )

    def _acting_seat(self, table: Table, principal: Principal, requested: int | None) -> int:
        seat = table.setup.seat_of(principal.player_id)
        if seat is None:
            raise PermissionDenied(
                f"you have no seat at table {table.table_id}: only its players can act",
                reason="NO_SEAT",
                metadata={"table_id": table.table_id},
            )
        if requested is not None and requested != seat:
            raise PermissionDenied(
                f"you sit at seat {seat}: you cannot act for seat {requested}",
                reason="SEAT_NOT_YOURS",
                metadata={"seat": seat, "requested": requested},
            )
        if table.seats[seat].bot:
            raise PermissionDenied(
                f"you left table {table.table_id}: a bot plays seat {seat} now",
                reason="SEAT_LEFT",
                metadata={"table_id": table.table_id, "seat": seat},
            )
        return seat
