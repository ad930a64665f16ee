"""Collusion signals for moderators (PCG-3): facts recorded as they happen, signals
rebuilt from them on request. Nothing here sanctions anyone: a moderator reads the
evidence, audits the tables (``tavolo audit --table``) and decides (PCG-4)."""

from __future__ import annotations

import re
from typing import Any

from tavolo.lobby.conduct import collusion_store
from tavolo.lobby.conduct.collusion import SessionSeen, rebuild, table_result
from tavolo.lobby.conduct.collusion_signals import PairSignals, ranked
from tavolo.lobby.context import LobbyContext
from tavolo.lobby.store import Connection
from tavolo.servicekit.auth import Principal, Role
from tavolo.servicekit.errors import InvalidArgument

INSTALLATION_HEADER = "x-tavolo-installation"
_INSTALLATION = re.compile(r"[A-Za-z0-9._:-]{1,100}")
DEFAULT_LIMIT = 50
MAX_LIMIT = 500


def peer_address(peer: str) -> str:
    """The address of a gRPC peer string (``ipv4:1.2.3.4:5``, ``ipv6:[::1]:5``), no port."""
    kind, _, rest = peer.partition(":")
    if kind == "ipv4":
        return rest.rsplit(":", 1)[0]
    if kind == "ipv6":
        return rest.rsplit(":", 1)[0].strip("[]")
    return ""  # a unix socket or an in-process channel: no network address


def installation_id(value: str) -> str:
    if value and not _INSTALLATION.fullmatch(value):
        raise InvalidArgument(
            f"{INSTALLATION_HEADER} is at most 100 letters, digits and . _ : - characters"
        )
    return value


class FairPlay:
    def __init__(self, ctx: LobbyContext) -> None:
        self.ctx = ctx

    async def session_seen(self, player_id: str, address: str, installation: str) -> None:
        fact = SessionSeen(
            f"session:{player_id}:{address}:{installation}", player_id, address, installation
        )
        async with self.ctx.db.transaction() as conn:
            await collusion_store.record(conn, fact, self.ctx.clock())

    async def table_finished(self, conn: Connection, fact_id: str, finished: Any) -> None:
        """Inside the consumer's transaction: the finished table becomes a fact."""
        await collusion_store.record(conn, table_result(fact_id, finished), self.ctx.clock())

    async def signals(self, caller: Principal, limit: int) -> list[PairSignals]:
        caller.require(Role.MODERATOR, Role.AUDITOR)
        if limit < 0:
            raise InvalidArgument("limit cannot be negative")
        async with self.ctx.db.connection() as conn:
            facts = await collusion_store.every_fact(conn)
        return ranked(rebuild(facts))[: min(limit or DEFAULT_LIMIT, MAX_LIMIT)]
