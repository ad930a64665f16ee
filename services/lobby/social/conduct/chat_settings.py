"""Whether chat is on at a table or room, and what the filter does there (PCG-2, PCG-3).

A channel nobody configured has chat on and masks vulgar words: the platform's default.
A room's host decides for the room; moderators decide for any table or room.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from tavolo.lobby.social.chat_store import Channel
from tavolo.lobby.social.conduct.language import Policy
from tavolo.lobby.store import Connection, S


@dataclass(frozen=True, slots=True)
class ChatSettings:
    channel: Channel
    enabled: bool = True
    policy: Policy = Policy.MASK


async def load(conn: Connection, channel: Channel) -> ChatSettings:
    row = await conn.fetchrow(
        f"SELECT enabled, policy FROM {S}.chat_settings"
        " WHERE channel_kind = $1 AND channel_id = $2",
        channel.kind.value,
        channel.channel_id,
    )
    if row is None:
        return ChatSettings(channel)
    return ChatSettings(channel, row["enabled"], Policy(row["policy"]))


async def save(conn: Connection, settings: ChatSettings, set_by: str, at: datetime) -> None:
    await conn.execute(
        f"INSERT INTO {S}.chat_settings (channel_kind, channel_id, enabled, policy, set_by,"
        " set_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (channel_kind, channel_id)"
        " DO UPDATE SET enabled = $3, policy = $4, set_by = $5, set_at = $6",
        settings.channel.kind.value,
        settings.channel.channel_id,
        settings.enabled,
        settings.policy.value,
        set_by,
        at,
    )
