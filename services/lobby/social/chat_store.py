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
    # What the sender wrote when the filter masked or refused it (PCG-3): moderators only.
    original_text: str | None = None
    refused: bool = False


async def insert_message(conn: Connection, message: ChatMessage) -> None:
    await conn.execute(
        f"INSERT INTO {S}.chat_messages (message_id, channel_kind, channel_id, sender_id,"
        " sender_nickname, text, sent_at, original_text, refused)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        message.message_id,
        message.channel.kind.value,
        message.channel.channel_id,
        message.sender_id,
        message.sender_nickname,
        message.text,
        message.sent_at,
        message.original_text,
        message.refused,
    )


async def page(
    conn: Connection, channel: Channel, after_seq: int, limit: int, *, staff: bool = False
) -> tuple[list[ChatMessage], int | None]:
    """Up to ``limit`` messages after ``after_seq``, oldest first, and the next page's start.

    Only ``staff`` see refused messages and what a filtered message said originally.
    """
    rows = await conn.fetch(
        f"SELECT seq, message_id, sender_id, sender_nickname, text, sent_at, original_text,"
        f" refused FROM {S}.chat_messages WHERE channel_kind = $1 AND channel_id = $2"
        " AND seq > $3 AND (NOT refused OR $5) ORDER BY seq LIMIT $4",
        channel.kind.value,
        channel.channel_id,
        after_seq,
        limit + 1,
        staff,
    )
    more = len(rows) > limit
    rows = rows[:limit]
    messages = [
        ChatMessage(
            r["message_id"],
            channel,
            r["sender_id"],
            r["sender_nickname"],
            r["text"],
            r["sent_at"],
            r["original_text"] if staff else None,
            r["refused"],
        )
        for r in rows
    ]
    return messages, (rows[-1]["seq"] if more else None)
