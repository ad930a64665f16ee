"""Sanctions (PCG-4): moderators apply and lift them; every one records who, why, until when.

A suspension of all of a person's accounts revokes their sessions: their refresh tokens at
once, their access tokens at every service through AccountsSuspended (AccountsReinstated
when lifted), written in the same transaction as the sanction.

A balance freeze is also a fact for the wallet: AccountFrozen is written to the event
log in the same transaction as the sanction, and AccountUnfrozen when the last freeze on
the player is lifted (two freezes, one lifted: the balance stays frozen).
"""

from __future__ import annotations

from tavolo.lobby import events
from tavolo.lobby.accounts import refresh_store
from tavolo.lobby.accounts import store as accounts_store
from tavolo.lobby.accounts.sanctions import (
    Sanction,
    SanctionDuration,
    SanctionKind,
    check_reason,
    sanction_until,
)
from tavolo.lobby.context import LobbyContext
from tavolo.lobby.events import Pending
from tavolo.lobby.store import Connection
from tavolo.servicekit.auth import Principal, Role
from tavolo.servicekit.errors import FailedPrecondition, InvalidArgument, NotFound, quoted


class Moderation:
    def __init__(self, ctx: LobbyContext) -> None:
        self.ctx = ctx

    async def apply(
        self,
        caller: Principal,
        player_id: str,
        kind: SanctionKind | None,
        duration: SanctionDuration | None,
        reason: str,
    ) -> Sanction:
        caller.require(Role.MODERATOR, Role.OPERATOR)
        if kind is None:
            raise InvalidArgument(
                "say what to suspend: chat, lobby, all accounts or a freeze",
                reason="SANCTION_INVALID",
                metadata={"field": "kind"},
            )
        if duration is None:
            raise InvalidArgument(
                "say how long: a warning, one day, one week, one, three or six months,"
                " one year, or permanent",
                reason="SANCTION_INVALID",
                metadata={"field": "duration"},
            )
        why = check_reason(reason)
        now = self.ctx.clock()
        until = sanction_until(kind, duration, now)
        if player_id == caller.player_id:
            raise FailedPrecondition(
                "you cannot sanction yourself; ask another moderator", reason="SELF_SANCTION"
            )
        sanction = Sanction(
            sanction_id=self.ctx.new_id(),
            player_id=player_id,
            kind=kind,
            applied_by=caller.player_id,
            reason=why,
            applied_at=now,
            until=until,
            duration=duration,
        )
        shut_out: list[str] = []
        async with self.ctx.db.transaction() as conn:
            if player_id == "" or await accounts_store.account_by_id(conn, player_id) is None:
                raise NotFound(
                    f"no player has the id {quoted(player_id)}",
                    reason="PLAYER_NOT_FOUND",
                    metadata={"player_id": player_id},
                )
            await accounts_store.lock_account(conn, player_id)
            await accounts_store.insert_sanction(conn, sanction)
            if kind is SanctionKind.LOBBY and not sanction.warning:
                shut_out = [player_id]
            if kind is SanctionKind.ALL_ACCOUNTS and not sanction.warning:
                suspended = await _suspend(conn, sanction)
                shut_out = list(await refresh_store.person_accounts(conn, player_id))
                await self.ctx.append(conn, [suspended])
            if kind is SanctionKind.FREEZE:
                await self.ctx.append(
                    conn,
                    [events.account_frozen(sanction.sanction_id, player_id, why, caller.player_id)],
                )
        self.ctx.on_append()
        await self.ctx.suspended(shut_out)  # their open streams close now, not at the next update
        return sanction

    async def history(self, caller: Principal, player_id: str) -> list[Sanction]:
        """Every sanction of a player, lifted and ended ones and warnings too (PCG-4): for
        staff, and for the player themself (a warning is read there)."""
        if caller.player_id != player_id:
            caller.require(Role.MODERATOR, Role.OPERATOR)
        async with self.ctx.db.connection() as conn:
            if player_id == "" or await accounts_store.account_by_id(conn, player_id) is None:
                raise NotFound(
                    f"no player has the id {quoted(player_id)}",
                    reason="PLAYER_NOT_FOUND",
                    metadata={"player_id": player_id},
                )
            return await accounts_store.sanction_history(conn, player_id)

    async def lift(self, caller: Principal, sanction_id: str) -> Sanction:
        caller.require(Role.MODERATOR, Role.OPERATOR)
        async with self.ctx.db.transaction() as conn:
            found = (
                await accounts_store.sanction_for_update(conn, sanction_id) if sanction_id else None
            )
            if found is None:
                raise NotFound(
                    f"no sanction has the id {quoted(sanction_id)}",
                    reason="SANCTION_NOT_FOUND",
                    metadata={"sanction_id": sanction_id},
                )
            if found.lifted_at is not None:
                raise FailedPrecondition(
                    "this sanction was already lifted",
                    reason="SANCTION_LIFTED",
                    metadata={"sanction_id": sanction_id},
                )
            await accounts_store.lock_account(conn, found.player_id)
            lifted = await accounts_store.lift_sanction(
                conn, sanction_id, caller.player_id, self.ctx.clock()
            )
            if found.kind is SanctionKind.ALL_ACCOUNTS and not found.warning:
                players = await refresh_store.person_accounts(conn, found.player_id)
                await self.ctx.append(conn, [events.accounts_reinstated(sanction_id, players)])
            if found.kind is SanctionKind.FREEZE and not await accounts_store.active_freezes(
                conn, found.player_id
            ):
                await self.ctx.append(
                    conn,
                    [events.account_unfrozen(sanction_id, found.player_id, caller.player_id)],
                )
        self.ctx.on_append()
        return lifted


async def _suspend(conn: Connection, sanction: Sanction) -> Pending:
    """Revoke the refresh tokens of every account of the person, and the event that makes
    every service refuse their access tokens from now on."""
    players = await refresh_store.person_accounts(conn, sanction.player_id)
    await refresh_store.revoke_players(conn, players, sanction.applied_at, "suspended")
    return events.accounts_suspended(sanction.sanction_id, players, sanction.until, sanction.reason)
