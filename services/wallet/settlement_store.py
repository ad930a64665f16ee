"""The wallet's record of tables (schema ``wallet``): which stake tables formed, how each
table was settled, and the lock that serialises one table's events. SQL only."""

from __future__ import annotations

from dataclasses import dataclass

from tavolo.wallet.store import Connection


async def lock_table(conn: Connection, table_id: str) -> None:
    """Serialise every settlement step of one table until the transaction ends."""
    await conn.execute(
        "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", f"wallet:{table_id}"
    )


@dataclass(frozen=True, slots=True)
class StakeTable:
    table_id: str
    stake: int
    seats: int


async def stake_table(conn: Connection, table_id: str) -> StakeTable | None:
    row = await conn.fetchrow(
        "SELECT table_id, stake, seats FROM wallet.stake_tables WHERE table_id = $1", table_id
    )
    return None if row is None else StakeTable(row["table_id"], row["stake"], row["seats"])


async def insert_stake_table(
    conn: Connection, table_id: str, stake: int, seats: int, event_id: str
) -> bool:
    """Remember a formed stake table; False when it was already formed."""
    inserted = await conn.fetchval(
        "INSERT INTO wallet.stake_tables (table_id, stake, seats, formed_event)"
        " VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING true",
        table_id,
        stake,
        seats,
        event_id,
    )
    return bool(inserted)


async def settlement(conn: Connection, table_id: str) -> str | None:
    """How the table was settled ("paid", "refunded", ...), None if not yet."""
    outcome: str | None = await conn.fetchval(
        "SELECT outcome FROM wallet.table_settlements WHERE table_id = $1", table_id
    )
    return outcome


async def insert_settlement(conn: Connection, table_id: str, outcome: str, event_id: str) -> bool:
    """Claim a table's settlement; False when it was settled already (the first one stands).

    This insert is where two settlements of one table meet: the second waits on the
    first's row and, once it commits, inserts nothing.
    """
    inserted = await conn.fetchval(
        "INSERT INTO wallet.table_settlements (table_id, outcome, event_id)"
        " VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING true",
        table_id,
        outcome,
        event_id,
    )
    return bool(inserted)
