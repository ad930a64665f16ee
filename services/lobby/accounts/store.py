"""Accounts, roles and sanctions in the lobby schema."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

import asyncpg

from tavolo.lobby.accounts.sanctions import Sanction, SanctionDuration, SanctionKind
from tavolo.lobby.store import Connection, S
from tavolo.servicekit.auth import Role


@dataclass(frozen=True, slots=True)
class Account:
    player_id: str
    owner_id: str
    nickname: str
    password_hash: str
    roles: frozenset[Role]
    created_at: datetime


class NicknameTaken(Exception):
    """The nickname's skeleton is already in the UNIQUE index."""


_ACCOUNT = "player_id, owner_id, nickname, password_hash, roles, created_at"
_SANCTION = (
    "sanction_id, player_id, kind, applied_by, reason, applied_at, until, lifted_at, lifted_by,"
    " duration"
)


def _account(row: asyncpg.Record) -> Account:
    return Account(
        player_id=row["player_id"],
        owner_id=row["owner_id"],
        nickname=row["nickname"],
        password_hash=row["password_hash"],
        roles=frozenset(Role(r) for r in row["roles"]),
        created_at=row["created_at"],
    )


def _sanction(row: asyncpg.Record) -> Sanction:
    return Sanction(
        sanction_id=row["sanction_id"],
        player_id=row["player_id"],
        kind=SanctionKind(row["kind"]),
        applied_by=row["applied_by"],
        reason=row["reason"],
        applied_at=row["applied_at"],
        until=row["until"],
        lifted_at=row["lifted_at"],
        lifted_by=row["lifted_by"],
        duration=SanctionDuration(row["duration"]) if row["duration"] else None,
    )


async def insert_account(conn: Connection, account: Account, nickname_key: str) -> None:
    try:
        await conn.execute(
            f"INSERT INTO {S}.players (player_id, owner_id, nickname, nickname_key,"
            " password_hash, roles, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            account.player_id,
            account.owner_id,
            account.nickname,
            nickname_key,
            account.password_hash,
            sorted(r.value for r in account.roles),
            account.created_at,
        )
    except asyncpg.UniqueViolationError as exc:
        if exc.constraint_name == "players_nickname_key":
            raise NicknameTaken(account.nickname) from None
        raise


async def account_by_key(conn: Connection, nickname_key: str) -> Account | None:
    row = await conn.fetchrow(
        f"SELECT {_ACCOUNT} FROM {S}.players WHERE nickname_key = $1", nickname_key
    )
    return _account(row) if row else None


async def account_by_id(conn: Connection, player_id: str) -> Account | None:
    row = await conn.fetchrow(f"SELECT {_ACCOUNT} FROM {S}.players WHERE player_id = $1", player_id)
    return _account(row) if row else None


async def set_roles(conn: Connection, player_id: str, roles: Iterable[Role]) -> Account | None:
    row = await conn.fetchrow(
        f"UPDATE {S}.players SET roles = $2 WHERE player_id = $1 RETURNING {_ACCOUNT}",
        player_id,
        sorted({r.value for r in roles}),
    )
    return _account(row) if row else None


async def sanctions_binding(conn: Connection, player_id: str) -> list[Sanction]:
    """Sanctions that bind ``player_id``: their own, and all-accounts ones on their person."""
    rows = await conn.fetch(
        f"SELECT {_SANCTION} FROM {S}.sanctions WHERE lifted_at IS NULL AND ("
        "  player_id = $1 OR (kind = 'all_accounts' AND player_id IN ("
        f"    SELECT p.player_id FROM {S}.players p JOIN {S}.players me"
        "      ON me.owner_id = p.owner_id WHERE me.player_id = $1)))"
        " ORDER BY applied_at",
        player_id,
    )
    return [_sanction(r) for r in rows]


async def insert_sanction(conn: Connection, sanction: Sanction) -> None:
    await conn.execute(
        f"INSERT INTO {S}.sanctions ({_SANCTION}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        sanction.sanction_id,
        sanction.player_id,
        sanction.kind.value,
        sanction.applied_by,
        sanction.reason,
        sanction.applied_at,
        sanction.until,
        sanction.lifted_at,
        sanction.lifted_by,
        sanction.duration.value if sanction.duration else None,
    )


async def sanction_history(conn: Connection, player_id: str) -> list[Sanction]:
    """Every sanction ever applied to ``player_id``, lifted and ended ones too, newest first."""
    rows = await conn.fetch(
        f"SELECT {_SANCTION} FROM {S}.sanctions WHERE player_id = $1"
        " ORDER BY applied_at DESC, sanction_id",
        player_id,
    )
    return [_sanction(r) for r in rows]


async def sanction_for_update(conn: Connection, sanction_id: str) -> Sanction | None:
    row = await conn.fetchrow(
        f"SELECT {_SANCTION} FROM {S}.sanctions WHERE sanction_id = $1 FOR UPDATE", sanction_id
    )
    return _sanction(row) if row else None


async def lift_sanction(
    conn: Connection, sanction_id: str, lifted_by: str, lifted_at: datetime
) -> Sanction:
    row = await conn.fetchrow(
        f"UPDATE {S}.sanctions SET lifted_at = $3, lifted_by = $2 WHERE sanction_id = $1"
        f" RETURNING {_SANCTION}",
        sanction_id,
        lifted_by,
        lifted_at,
    )
    return _sanction(row)


async def active_freezes(conn: Connection, player_id: str) -> int:
    """How many freezes on ``player_id`` are still in force (not lifted)."""
    count: int = await conn.fetchval(
        f"SELECT count(*) FROM {S}.sanctions WHERE player_id = $1 AND kind = 'freeze'"
        " AND lifted_at IS NULL",
        player_id,
    )
    return count


async def lock_account(conn: Connection, player_id: str) -> None:
    """Serialise changes that read and write several of one player's rows (freezes)."""
    await conn.execute(f"SELECT 1 FROM {S}.players WHERE player_id = $1 FOR UPDATE", player_id)
