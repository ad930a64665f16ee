"""Player reports and the evidence they carry (PCG-3)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from tavolo.lobby.social.chat_store import Channel, ChannelKind
from tavolo.lobby.store import Connection, S


class Subject(StrEnum):
    MESSAGE = "message"
    TABLE = "table"
    PLAYER = "player"


@dataclass(frozen=True, slots=True)
class ChatLine:
    """A chat line as moderators see it: what was shown and what was written."""

    message_id: str
    sender_id: str
    sender_nickname: str
    text: str
    original_text: str | None
    sent_at: datetime


@dataclass(frozen=True, slots=True)
class Report:
    report_id: str
    reporter_id: str
    subject: Subject
    player_id: str | None
    message_id: str | None
    table_id: str | None
    reason: str
    chat_lines: tuple[ChatLine, ...]
    log_ref: str
    filed_at: datetime
    resolved_by: str | None = None
    resolved_at: datetime | None = None
    sanction_id: str | None = None
    note: str | None = None
    case_id: str = ""  # empty until filed: the report's own id or the case it joined
    reporter_nickname: str = ""
    player_nickname: str = ""
    case_count: int = 1

    @property
    def target(self) -> str:
        """What reports merge on: the player reported, else the table."""
        return f"player:{self.player_id}" if self.player_id else f"table:{self.table_id}"

    @property
    def handled(self) -> bool:
        return self.resolved_at is not None


@dataclass(frozen=True, slots=True)
class Located:
    """A chat message, its channel and its place in the log of messages."""

    seq: int
    channel: Channel
    sender_id: str


_REPORT = (
    "seq, report_id, reporter_id, subject, player_id, message_id, table_id, reason,"
    " chat_lines, log_ref, filed_at, resolved_by, resolved_at, sanction_id, note, case_id,"
    " reporter_nickname, player_nickname,"
    f" (SELECT count(*) FROM {S}.reports c WHERE c.case_id = r.case_id) AS case_count"
)


def _line_out(line: ChatLine) -> dict[str, Any]:
    return {
        "message_id": line.message_id,
        "sender_id": line.sender_id,
        "sender_nickname": line.sender_nickname,
        "text": line.text,
        "original_text": line.original_text,
        "sent_at": line.sent_at.isoformat(),
    }


def _line_in(data: dict[str, Any]) -> ChatLine:
    return ChatLine(
        data["message_id"],
        data["sender_id"],
        data["sender_nickname"],
        data["text"],
        data["original_text"],
        datetime.fromisoformat(data["sent_at"]),
    )


def _report(row: Any) -> Report:
    return Report(
        row["report_id"],
        row["reporter_id"],
        Subject(row["subject"]),
        row["player_id"],
        row["message_id"],
        row["table_id"],
        row["reason"],
        tuple(_line_in(item) for item in json.loads(row["chat_lines"])),
        row["log_ref"],
        row["filed_at"],
        row["resolved_by"],
        row["resolved_at"],
        row["sanction_id"],
        row["note"],
        row["case_id"],
        row["reporter_nickname"],
        row["player_nickname"],
        row["case_count"],
    )


async def locate_message(conn: Connection, message_id: str) -> Located | None:
    row = await conn.fetchrow(
        f"SELECT seq, channel_kind, channel_id, sender_id FROM {S}.chat_messages"
        " WHERE message_id = $1",
        message_id,
    )
    if row is None:
        return None
    channel = Channel(ChannelKind(row["channel_kind"]), row["channel_id"])
    return Located(row["seq"], channel, row["sender_id"])


async def lines_around(
    conn: Connection, channel: Channel, seq: int | None, before: int, after: int
) -> tuple[ChatLine, ...]:
    """Up to ``before`` lines up to ``seq`` (inclusive) and ``after`` lines after it; the
    channel's last ``before`` lines when ``seq`` is None."""
    columns = "seq, message_id, sender_id, sender_nickname, text, original_text, sent_at"
    where = f"FROM {S}.chat_messages WHERE channel_kind = $1 AND channel_id = $2"
    upto = seq if seq is not None else 2**62
    head = await conn.fetch(
        f"SELECT {columns} {where} AND seq <= $3 ORDER BY seq DESC LIMIT $4",
        channel.kind.value,
        channel.channel_id,
        upto,
        before,
    )
    tail = []
    if seq is not None:
        tail = await conn.fetch(
            f"SELECT {columns} {where} AND seq > $3 ORDER BY seq LIMIT $4",
            channel.kind.value,
            channel.channel_id,
            seq,
            after,
        )
    rows = [*reversed(head), *tail]
    return tuple(
        ChatLine(
            r["message_id"],
            r["sender_id"],
            r["sender_nickname"],
            r["text"],
            r["original_text"],
            r["sent_at"],
        )
        for r in rows
    )


async def insert(conn: Connection, report: Report) -> None:
    await conn.execute(
        f"INSERT INTO {S}.reports (report_id, reporter_id, subject, player_id, message_id,"
        " table_id, reason, chat_lines, log_ref, filed_at, case_id, target,"
        " reporter_nickname, player_nickname)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
        report.report_id,
        report.reporter_id,
        report.subject.value,
        report.player_id,
        report.message_id,
        report.table_id,
        report.reason,
        json.dumps([_line_out(line) for line in report.chat_lines]),
        report.log_ref,
        report.filed_at,
        report.case_id or report.report_id,
        report.target,
        report.reporter_nickname,
        report.player_nickname,
    )


async def lock(conn: Connection, key: str) -> None:
    """Serialise filings on one reporter or one target until the transaction ends."""
    await conn.execute("SELECT pg_advisory_xact_lock(hashtext($1))", f"report:{key}")


async def open_case(conn: Connection, target: str) -> str | None:
    """The open case on ``target``, if there is one."""
    found: str | None = await conn.fetchval(
        f"SELECT case_id FROM {S}.reports WHERE target = $1 AND resolved_at IS NULL"
        " ORDER BY seq LIMIT 1",
        target,
    )
    return found


async def in_case(conn: Connection, case_id: str, reporter_id: str) -> bool:
    found = await conn.fetchval(
        f"SELECT 1 FROM {S}.reports WHERE case_id = $1 AND reporter_id = $2",
        case_id,
        reporter_id,
    )
    return found is not None


async def last_filed_on(conn: Connection, reporter_id: str, target: str) -> datetime | None:
    found: datetime | None = await conn.fetchval(
        f"SELECT max(filed_at) FROM {S}.reports WHERE reporter_id = $1 AND target = $2",
        reporter_id,
        target,
    )
    return found


async def filed_since(conn: Connection, reporter_id: str, since: datetime) -> int:
    count: int = await conn.fetchval(
        f"SELECT count(*) FROM {S}.reports WHERE reporter_id = $1 AND filed_at > $2",
        reporter_id,
        since,
    )
    return count


async def last_shared_table(conn: Connection, a: str, b: str) -> str | None:
    """The table both players sat at most recently, if any."""
    found: str | None = await conn.fetchval(
        f"SELECT t.table_id FROM {S}.game_tables t"
        f" JOIN {S}.table_seats x ON x.table_id = t.table_id AND x.player_id = $1"
        f" JOIN {S}.table_seats y ON y.table_id = t.table_id AND y.player_id = $2"
        " ORDER BY t.formed_at DESC LIMIT 1",
        a,
        b,
    )
    return found


async def nickname_of(conn: Connection, player_id: str | None) -> str:
    if not player_id:
        return ""
    found: str | None = await conn.fetchval(
        f"SELECT nickname FROM {S}.players WHERE player_id = $1", player_id
    )
    return found or ""


async def case_for_update(conn: Connection, report_id: str) -> list[Report]:
    """Every report of the case ``report_id`` belongs to, its first report first."""
    rows = await conn.fetch(
        f"SELECT {_REPORT} FROM {S}.reports r WHERE r.case_id = ("
        f"  SELECT case_id FROM {S}.reports WHERE report_id = $1)"
        " ORDER BY r.seq FOR UPDATE",
        report_id,
    )
    return [_report(r) for r in rows]


async def resolve_case(
    conn: Connection,
    case_id: str,
    by: str,
    at: datetime,
    sanction_id: str | None,
    note: str | None,
) -> list[Report]:
    rows = await conn.fetch(
        f"UPDATE {S}.reports r SET resolved_by = $2, resolved_at = $3, sanction_id = $4,"
        f" note = $5 WHERE r.case_id = $1 RETURNING {_REPORT}",
        case_id,
        by,
        at,
        sanction_id,
        note,
    )
    return sorted((_report(r) for r in rows), key=lambda r: r.report_id != case_id)


async def page(
    conn: Connection, after_seq: int, limit: int, *, open_only: bool, reporter_id: str | None
) -> tuple[list[Report], int | None]:
    """Oldest first: a moderator's queue of cases, each shown by its first report
    (``reporter_id`` None), or one reporter's own reports."""
    rows = await conn.fetch(
        f"SELECT {_REPORT} FROM {S}.reports r WHERE seq > $1"
        " AND (NOT $2 OR resolved_at IS NULL)"
        " AND (($3::text IS NULL AND report_id = case_id) OR reporter_id = $3)"
        " ORDER BY seq LIMIT $4",
        after_seq,
        open_only,
        reporter_id,
        limit + 1,
    )
    more = len(rows) > limit
    rows = rows[:limit]
    return [_report(r) for r in rows], (rows[-1]["seq"] if more else None)
