"""Player reports (PCG-3): a player reports a chat message, a table or a player; moderators
read the queue and decide, with a sanction (PCG-4) or a dismissal and a note.

The evidence is copied into the report when it is filed (the chat lines around a message,
the table's last lines and its event-log stream; for a report on a player, the last table
the two shared and its last lines; the nicknames beside the ids) so that a later edit,
pruning or rename cannot change what the moderator judges. The reporter learns that the
report was received and, later, that it was handled; never how, and never the note.

Reports merge into cases: while a case on a player (or on a table, for a table report
naming nobody) is open, every report on the same target joins it, and the moderator's
queue shows the case once with its count. A reporter counts once per case, may report
the same target again only :data:`SAME_TARGET_EVERY` after their last report on it, and
files at most :data:`PER_HOUR` reports an hour; beyond that the call is refused
(RESOURCE_EXHAUSTED) and nothing is recorded. A moderator decides a whole case at once,
or several cases with one sanction or one note (:meth:`Reports.resolve_many`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import timedelta

from tavolo.lobby.accounts import store as accounts_store
from tavolo.lobby.context import LobbyContext
from tavolo.lobby.play import rooms_store, tables_store
from tavolo.lobby.social.chat import _after, _page_size
from tavolo.lobby.social.chat_store import Channel, ChannelKind
from tavolo.lobby.social.conduct import reports_store
from tavolo.lobby.social.conduct.reports_store import ChatLine, Report, Subject
from tavolo.lobby.store import Connection
from tavolo.lobby.updates import ReportHandled
from tavolo.servicekit.auth import Principal, Role
from tavolo.servicekit.errors import (
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    ResourceExhausted,
    quoted,
)

MAX_REASON = 1000
MAX_NOTE = 1000
LINES_BEFORE = 10  # the reported line and the nine before it
LINES_AFTER = 5
TABLE_LINES = 20
SAME_TARGET_EVERY = timedelta(minutes=10)
PER_HOUR = 20
MAX_BULK = 500


@dataclass(frozen=True, slots=True)
class ReportAbout:
    """What the reporter points at: a message, else a table (and maybe a player at it),
    else a player."""

    message_id: str = ""
    table_id: str = ""
    player_id: str = ""


def _text(value: str, what: str, limit: int) -> str:
    cleaned = value.strip()
    if not cleaned:
        raise InvalidArgument(
            f"say why: a {what} cannot be empty", reason="REPORT_INVALID", metadata={"field": what}
        )
    if len(cleaned) > limit:
        raise InvalidArgument(
            f"a {what} has at most {limit} characters, not {len(cleaned)}",
            reason="REPORT_INVALID",
            metadata={"field": what},
        )
    return cleaned


def log_ref(table_id: str) -> str:
    """The table's event-log stream: what `tavolo audit --table` replays."""
    return f"table-{table_id}"


class Reports:
    def __init__(self, ctx: LobbyContext) -> None:
        self.ctx = ctx

    async def file(self, caller: Principal, about: ReportAbout, reason: str) -> Report:
        why = _text(reason, "report's reason", MAX_REASON)
        async with self.ctx.db.transaction() as conn:
            await self.ctx.account(conn, caller)
            if about.message_id:
                report = await self._about_message(conn, caller, about.message_id, why)
            elif about.table_id:
                report = await self._about_table(conn, caller, about, why)
            elif about.player_id:
                report = await self._about_player(conn, caller, about.player_id, why)
            else:
                raise InvalidArgument(
                    "say what you report: a message, a table or a player",
                    reason="REPORT_INVALID",
                    metadata={"field": "target"},
                )
            report = replace(
                report,
                reporter_nickname=await reports_store.nickname_of(conn, caller.player_id),
                player_nickname=await reports_store.nickname_of(conn, report.player_id),
            )
            if report.player_id == caller.player_id:
                raise InvalidArgument(
                    "you cannot report yourself",
                    reason="REPORT_INVALID",
                    metadata={"field": "player_id"},
                )
            report = await self._into_case(conn, report)
            await reports_store.insert(conn, report)
        return report

    async def _into_case(self, conn: Connection, report: Report) -> Report:
        """Throttle the reporter, then join the open case on the target or open one."""
        await reports_store.lock(conn, report.reporter_id)
        now = self.ctx.clock()
        filed = await reports_store.filed_since(conn, report.reporter_id, now - timedelta(hours=1))
        if filed >= PER_HOUR:
            raise ResourceExhausted(
                f"you filed {filed} reports in the last hour, the most one may; a moderator"
                " reads every one of them, try again later",
                reason="REPORT_THROTTLED",
            )
        await reports_store.lock(conn, report.target)
        case_id = await reports_store.open_case(conn, report.target)
        whom = report.player_nickname or f"table {report.table_id}"
        if case_id is not None and await reports_store.in_case(conn, case_id, report.reporter_id):
            raise ResourceExhausted(
                f"you already reported {whom} and a moderator has not decided yet; one"
                " report per reporter is enough for the case",
                reason="REPORT_THROTTLED",
            )
        last = await reports_store.last_filed_on(conn, report.reporter_id, report.target)
        if last is not None and now - last < SAME_TARGET_EVERY:
            minutes = int(SAME_TARGET_EVERY.total_seconds() // 60)
            raise ResourceExhausted(
                f"you reported {whom} less than {minutes} minutes ago; report again later",
                reason="REPORT_THROTTLED",
            )
        return replace(report, case_id=case_id or report.report_id)

    async def mine(
        self, caller: Principal, page_size: int, page_token: str
    ) -> tuple[list[Report], str]:
        async with self.ctx.db.connection() as conn:
            found, next_seq = await reports_store.page(
                conn,
                _after(page_token),
                _page_size(page_size),
                open_only=False,
                reporter_id=caller.player_id,
            )
        return found, ("" if next_seq is None else str(next_seq))

    async def queue(
        self, caller: Principal, open_only: bool, page_size: int, page_token: str
    ) -> tuple[list[Report], str]:
        caller.require(Role.MODERATOR)
        async with self.ctx.db.connection() as conn:
            found, next_seq = await reports_store.page(
                conn,
                _after(page_token),
                _page_size(page_size),
                open_only=open_only,
                reporter_id=None,
            )
        return found, ("" if next_seq is None else str(next_seq))

    async def resolve(
        self, caller: Principal, report_id: str, sanction_id: str, note: str
    ) -> Report:
        """Decide the case ``report_id`` belongs to; the answer is its first report."""
        return (await self.resolve_many(caller, [report_id], sanction_id, note, bulk=False))[0]

    async def resolve_many(
        self,
        caller: Principal,
        report_ids: list[str],
        sanction_id: str,
        note: str,
        *,
        bulk: bool = True,
    ) -> list[Report]:
        """Decide every case the reports belong to, with one sanction or one note: all of
        them, or none when one is unknown, already decided or about another player."""
        caller.require(Role.MODERATOR)
        if not report_ids or (bulk and len(report_ids) > MAX_BULK):
            raise InvalidArgument(
                f"name the reports to decide: 1 to {MAX_BULK} ids",
                reason="REPORT_INVALID",
                metadata={"field": "report_ids"},
            )
        if not sanction_id and not note.strip():
            raise InvalidArgument(
                "link the sanction you applied, or dismiss with a note",
                reason="REPORT_INVALID",
                metadata={"field": "sanction_id"},
            )
        remark = _text(note, "note", MAX_NOTE) if note.strip() else None
        decided: list[Report] = []
        async with self.ctx.db.transaction() as conn:
            sanction = None
            if sanction_id:
                sanction = await accounts_store.sanction_for_update(conn, sanction_id)
                if sanction is None:
                    raise NotFound(
                        f"no sanction has the id {quoted(sanction_id)}",
                        reason="SANCTION_NOT_FOUND",
                        metadata={"sanction_id": sanction_id},
                    )
            cases: dict[str, list[Report]] = {}
            for report_id in dict.fromkeys(report_ids):
                case = await reports_store.case_for_update(conn, report_id) if report_id else []
                if not case:
                    raise NotFound(
                        f"no report has the id {quoted(report_id)}",
                        reason="REPORT_NOT_FOUND",
                        metadata={"report_id": report_id},
                    )
                if case[0].handled:
                    raise FailedPrecondition(
                        f"report {quoted(report_id)} was already handled (its case"
                        f" {quoted(case[0].case_id)})",
                        reason="REPORT_HANDLED",
                        metadata={"report_id": report_id},
                    )
                head = case[0]
                if sanction is not None and head.player_id not in (None, sanction.player_id):
                    raise InvalidArgument(
                        f"that sanction is on another player than the one reported in"
                        f" {quoted(report_id)}",
                        reason="SANCTION_MISMATCH",
                        metadata={"sanction_id": sanction_id},
                    )
                cases[head.case_id] = case
            now = self.ctx.clock()
            for case_id in cases:
                decided += await reports_store.resolve_case(
                    conn, case_id, caller.player_id, now, sanction_id or None, remark
                )
        await self.ctx.publish([(r.reporter_id, ReportHandled(r)) for r in decided])
        return [r for r in decided if r.report_id == r.case_id] if bulk else decided[:1]

    # -- evidence -------------------------------------------------------------------

    def _new(
        self,
        caller: Principal,
        subject: Subject,
        player_id: str | None,
        message_id: str | None,
        table_id: str | None,
        reason: str,
        lines: tuple[ChatLine, ...] = (),
    ) -> Report:
        return Report(
            self.ctx.new_id(),
            caller.player_id,
            subject,
            player_id,
            message_id,
            table_id,
            reason,
            lines,
            log_ref(table_id) if table_id else "",
            self.ctx.clock(),
        )

    async def _about_message(
        self, conn: Connection, caller: Principal, message_id: str, reason: str
    ) -> Report:
        located = await reports_store.locate_message(conn, message_id)
        if located is None or not await self._reads(conn, caller, located.channel):
            raise NotFound(
                f"no message {quoted(message_id)} in a chat you can read",
                reason="MESSAGE_NOT_FOUND",
                metadata={"message_id": message_id},
            )
        lines = await reports_store.lines_around(
            conn, located.channel, located.seq, LINES_BEFORE, LINES_AFTER
        )
        table_id = await self._table_of(conn, located.channel)
        return self._new(
            caller, Subject.MESSAGE, located.sender_id, message_id, table_id, reason, lines
        )

    async def _about_table(
        self, conn: Connection, caller: Principal, about: ReportAbout, reason: str
    ) -> Report:
        table_id = about.table_id
        if not await tables_store.is_seated(conn, table_id, caller.player_id):
            raise NotFound(
                f"you did not sit at table {quoted(table_id)}",
                reason="NOT_AT_TABLE",
                metadata={"table_id": table_id},
            )
        player_id = about.player_id or None
        if player_id is not None and not await tables_store.is_seated(conn, table_id, player_id):
            raise NotFound(
                f"player {quoted(player_id)} did not sit at table {quoted(table_id)}",
                reason="NOT_AT_TABLE",
                metadata={"table_id": table_id, "player_id": player_id},
            )
        channel = Channel(ChannelKind.TABLE, table_id)
        lines = await reports_store.lines_around(conn, channel, None, TABLE_LINES, 0)
        return self._new(caller, Subject.TABLE, player_id, None, table_id, reason, lines)

    async def _about_player(
        self, conn: Connection, caller: Principal, player_id: str, reason: str
    ) -> Report:
        """A player, with the last table the two shared and its last lines, if any."""
        if await accounts_store.account_by_id(conn, player_id) is None:
            raise NotFound(
                f"no player has the id {quoted(player_id)}",
                reason="PLAYER_NOT_FOUND",
                metadata={"player_id": player_id},
            )
        table_id = await reports_store.last_shared_table(conn, caller.player_id, player_id)
        lines: tuple[ChatLine, ...] = ()
        if table_id is not None:
            channel = Channel(ChannelKind.TABLE, table_id)
            lines = await reports_store.lines_around(conn, channel, None, TABLE_LINES, 0)
        return self._new(caller, Subject.PLAYER, player_id, None, table_id, reason, lines)

    async def _reads(self, conn: Connection, caller: Principal, channel: Channel) -> bool:
        if channel.kind is ChannelKind.TABLE:
            return await tables_store.is_seated(conn, channel.channel_id, caller.player_id)
        room = await rooms_store.room(conn, channel.channel_id)
        return room is not None and room.is_member(caller.player_id)

    async def _table_of(self, conn: Connection, channel: Channel) -> str | None:
        if channel.kind is ChannelKind.TABLE:
            return channel.channel_id
        room = await rooms_store.room(conn, channel.channel_id)
        return room.table_id if room is not None else None
