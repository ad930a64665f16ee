"""Players the lobby registered, as the wallet learns of them from ``PlayerRegistered``."""

from __future__ import annotations

import asyncpg

from tavolo.wallet import store


async def register(pool: asyncpg.Pool, *players: str) -> None:
    """Open the players' accounts exactly as the wallet does on their registration."""
    async with pool.acquire() as conn:
        for player in players:
            await store.open_player_account(conn, player)
