"""Chat messages (PCG-2): every message recorded with its sender and time."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from tavolo.lobby.store import Connection, S


class ChannelKind(StrEnum):
    TABLE = "table"
    ROOM = "room"


@dataclass(frozen=True, slots=True)
class Channel:
    kind: ChannelKind
    channel_id: str


@dataclass(frozen=True, slots=True)
class ChatMessage:
    message_id: str
    channel: Channel
    sender_id: str
    sender_nickname: str
    text: str
    sent_at: datetime


async def insert_message(conn: Connection, message: ChatMessage) -> None:
    await conn.execute(
        f"INSERT INTO {S}.chat_messages (message_id, channel_kind, channel_id, sender_id,"
        " sender_nickname, text, sent_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        message.message_id,
        message.channel.kind.value,
        message.channel.channel_id,
        message.sender_id,
        message.sender_nickname,
        message.text,
        message.sent_at,
    )


async def page(
    conn: Connection, channel: Channel, after_seq: int, limit: int
) -> tuple[list[ChatMessage], int | None]:
    """Up to ``limit`` messages after ``after_seq``, oldest first, and the next page's start."""
    rows = await conn.fetch(
        f"SELECT seq, message_id, sender_id, sender_nickname, text, sent_at"
        f" FROM {S}.chat_messages WHERE channel_kind = $1 AND channel_id = $2 AND seq > $3"
        " ORDER BY seq LIMIT $4",
        channel.kind.value,
        channel.channel_id,
        after_seq,
        limit + 1,
    )
    more = len(rows) > limit
    rows = rows[:limit]
    messages = [
        ChatMessage(
            r["message_id"], channel, r["sender_id"], r["sender_nickname"], r["text"], r["sent_at"]
        )
        for r in rows
    ]
    return messages, (rows[-1]["seq"] if more else None)
