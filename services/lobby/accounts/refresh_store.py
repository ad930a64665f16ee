"""Refresh tokens in the lobby schema: stored hashed, rotated, revoked by family or player."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from tavolo.lobby.store import Connection, S


def token_hash(token: str) -> bytes:
    """What is kept of a refresh token: enough to recognise it, useless to present."""
    return hashlib.sha256(token.encode()).digest()


@dataclass(frozen=True, slots=True)
class StoredRefresh:
    family_id: str
    player_id: str
    used_at: datetime | None
    revoked_at: datetime | None


async def insert(
    conn: Connection,
    token: str,
    family_id: str,
    player_id: str,
    issued_at: datetime,
    expires_at: datetime,
) -> None:
    await conn.execute(
        f"INSERT INTO {S}.refresh_tokens"
        " (token_hash, family_id, player_id, issued_at, expires_at) VALUES ($1, $2, $3, $4, $5)",
        token_hash(token),
        family_id,
        player_id,
        issued_at,
        expires_at,
    )


async def for_update(conn: Connection, token: str) -> StoredRefresh | None:
    row = await conn.fetchrow(
        f"SELECT family_id, player_id, used_at, revoked_at FROM {S}.refresh_tokens"
        " WHERE token_hash = $1 FOR UPDATE",
        token_hash(token),
    )
    if row is None:
        return None
    return StoredRefresh(row["family_id"], row["player_id"], row["used_at"], row["revoked_at"])


async def mark_used(conn: Connection, token: str, at: datetime) -> None:
    await conn.execute(
        f"UPDATE {S}.refresh_tokens SET used_at = $2 WHERE token_hash = $1",
        token_hash(token),
        at,
    )


async def revoke_family(conn: Connection, family_id: str, at: datetime, why: str) -> int:
    status: str = await conn.execute(
        f"UPDATE {S}.refresh_tokens SET revoked_at = $2, revoked_why = $3"
        " WHERE family_id = $1 AND revoked_at IS NULL",
        family_id,
        at,
        why,
    )
    return int(status.split()[-1])


async def revoke_players(
    conn: Connection, player_ids: Sequence[str], at: datetime, why: str
) -> int:
    status: str = await conn.execute(
        f"UPDATE {S}.refresh_tokens SET revoked_at = $2, revoked_why = $3"
        " WHERE player_id = ANY($1::text[]) AND revoked_at IS NULL",
        list(player_ids),
        at,
        why,
    )
    return int(status.split()[-1])


async def person_accounts(conn: Connection, player_id: str) -> list[str]:
    """Every account of ``player_id``'s person, ``player_id`` first."""
    rows = await conn.fetch(
        f"SELECT p.player_id FROM {S}.players p JOIN {S}.players me"
        " ON me.owner_id = p.owner_id WHERE me.player_id = $1"
        " ORDER BY p.player_id <> $1, p.created_at, p.player_id",
        player_id,
    )
    return [r["player_id"] for r in rows]
