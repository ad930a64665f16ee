"""Accounts and sessions (PCG-1, guarantee 9): register, log in, refresh, profiles, roles."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tavolo.lobby import accounts_store, events
from tavolo.lobby.accounts_store import Account, NicknameTaken
from tavolo.lobby.app import LobbyContext
from tavolo.lobby.nicknames import normalise, skeleton
from tavolo.lobby.passwords import check_password
from tavolo.lobby.sanctions import Sanction, ensure_account_active
from tavolo.servicekit.auth import Principal, Role
from tavolo.servicekit.errors import (
    AlreadyExists,
    InvalidArgument,
    NotFound,
    Unauthenticated,
    quoted,
)

_WRONG_LOGIN = "the nickname or the password is wrong"
# Roles a person can be given; SERVICE belongs to the services' own tokens only.
GRANTABLE = frozenset({Role.PLAYER, Role.MODERATOR, Role.AUDITOR, Role.OPERATOR})


@dataclass(frozen=True, slots=True)
class SessionTokens:
    account: Account
    access_token: str
    access_expires_at: int
    refresh_token: str


@dataclass(frozen=True, slots=True)
class ProfileView:
    account: Account
    sanctions: tuple[Sanction, ...]


class Accounts:
    def __init__(self, ctx: LobbyContext) -> None:
        self.ctx = ctx

    async def register(
        self, nickname: str, password: str, linked_to: Principal | None = None
    ) -> SessionTokens:
        """A new account with a unique nickname (PCG-1), logged in at once.

        With the token of an existing account (``linked_to``), the new account belongs to
        the same person, so a sanction on all of that person's accounts reaches it.
        """
        shown = normalise(nickname)
        key = skeleton(shown)
        check_password(password)
        player_id = self.ctx.new_id()
        owner_id = player_id
        now = self.ctx.clock()
        if linked_to is not None and not linked_to.has(Role.SERVICE):
            async with self.ctx.db.connection() as conn:
                owner = await self.ctx.account(conn, linked_to)
                ensure_account_active(await self.ctx.sanctions(conn, owner.player_id), now)
            owner_id = owner.owner_id
        account = Account(
            player_id=player_id,
            owner_id=owner_id,
            nickname=shown,
            password_hash=await self.ctx.passwords.hash(password),
            roles=frozenset({Role.PLAYER}),
            created_at=now,
        )
        try:
            async with self.ctx.db.transaction() as conn:
                await accounts_store.insert_account(conn, account, key)
                await self.ctx.append(conn, [events.player_registered(player_id, shown, owner_id)])
        except NicknameTaken:
            raise AlreadyExists(
                f"the nickname {shown!r} is taken (nicknames are unique regardless of case and"
                " look-alike letters): choose another one"
            ) from None
        self.ctx.on_append()
        return self._session(account)

    async def login(self, nickname: str, password: str) -> SessionTokens:
        if not nickname.strip() or not password:
            raise InvalidArgument("give your nickname and your password")
        try:
            key = skeleton(normalise(nickname))
        except InvalidArgument:
            raise Unauthenticated(_WRONG_LOGIN) from None
        async with self.ctx.db.connection() as conn:
            account = await accounts_store.account_by_key(conn, key)
            if account is None:
                await self.ctx.passwords.verify_unknown(password)
                raise Unauthenticated(_WRONG_LOGIN)
            if not await self.ctx.passwords.verify(account.password_hash, password):
                raise Unauthenticated(_WRONG_LOGIN)
            ensure_account_active(
                await self.ctx.sanctions(conn, account.player_id), self.ctx.clock()
            )
        return self._session(account)

    async def refresh(self, refresh_token: str) -> SessionTokens:
        """A new session from a refresh token; roles and suspensions are read afresh."""
        if not refresh_token:
            raise InvalidArgument("give the refresh token of your last session")
        principal = self.ctx.signer.verify(refresh_token, kind="refresh")
        async with self.ctx.db.connection() as conn:
            account = await self.ctx.account(conn, principal)
            ensure_account_active(
                await self.ctx.sanctions(conn, account.player_id), self.ctx.clock()
            )
        return self._session(account)

    async def profile(self, caller: Principal, player_id: str) -> ProfileView:
        """A profile; sanctions are shown to the player and to staff only."""
        wanted = player_id or caller.player_id
        async with self.ctx.db.connection() as conn:
            account = await accounts_store.account_by_id(conn, wanted)
            if account is None:
                raise NotFound(f"no player has the id {quoted(wanted)}")
            staff = (
                caller.has(Role.MODERATOR) or caller.has(Role.OPERATOR) or caller.has(Role.AUDITOR)
            )
            sanctions: tuple[Sanction, ...] = ()
            if wanted == caller.player_id or staff:
                now = self.ctx.clock()
                sanctions = tuple(
                    s for s in await self.ctx.sanctions(conn, wanted) if s.active_at(now)
                )
        return ProfileView(account, sanctions)

    async def set_roles(
        self, caller: Principal, player_id: str, roles: Iterable[Role]
    ) -> ProfileView:
        """Operators only; PLAYER is always kept."""
        caller.require(Role.OPERATOR)
        wanted = set(roles)
        if not wanted <= GRANTABLE:
            raise InvalidArgument("roles are player, moderator, auditor and operator")
        wanted.add(Role.PLAYER)
        async with self.ctx.db.transaction() as conn:
            account = await accounts_store.set_roles(conn, player_id, wanted)
        if account is None:
            raise NotFound(f"no player has the id {quoted(player_id)}")
        return await self.profile(caller, player_id)

    async def ensure_operator(self, nickname: str, password: str) -> Account:
        """Create (or promote) the operator named at start-up; a deployment's first staff."""
        key = skeleton(normalise(nickname))
        async with self.ctx.db.connection() as conn:
            existing = await accounts_store.account_by_key(conn, key)
        if existing is None:
            await self.register(nickname, password)
            async with self.ctx.db.connection() as conn:
                existing = await accounts_store.account_by_key(conn, key)
            assert existing is not None
        roles = existing.roles | {Role.OPERATOR, Role.MODERATOR}
        async with self.ctx.db.transaction() as conn:
            updated = await accounts_store.set_roles(conn, existing.player_id, roles)
        assert updated is not None
        return updated

    def _session(self, account: Account) -> SessionTokens:
        signer = self.ctx.signer
        config = self.ctx.config
        access, access_expires = signer.issue(
            account.player_id,
            account.roles,
            nickname=account.nickname,
            ttl_seconds=config.access_ttl_seconds,
        )
        refresh, _ = signer.issue(
            account.player_id,
            account.roles,
            nickname=account.nickname,
            kind="refresh",
            ttl_seconds=config.refresh_ttl_seconds,
        )
        return SessionTokens(account, access, access_expires, refresh)
