"""Accounts and sessions (PCG-1, guarantee 9): register, log in, refresh, profiles, roles.

Refresh tokens are single-use: each refresh rotates it, and the lobby keeps each one's
hash (``refresh_store``) to recognise a token used twice or revoked by a suspension."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from tavolo.lobby import events
from tavolo.lobby.accounts import refresh_store
from tavolo.lobby.accounts import store as accounts_store
from tavolo.lobby.accounts.nicknames import check_acceptable, normalise, skeleton
from tavolo.lobby.accounts.passwords import check_password
from tavolo.lobby.accounts.sanctions import Sanction, ensure_account_active
from tavolo.lobby.accounts.store import Account, NicknameTaken
from tavolo.lobby.context import LobbyContext
from tavolo.lobby.play import queue_store
from tavolo.lobby.play.queue_store import KnownRating
from tavolo.lobby.store import Connection
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
    ratings: tuple[KnownRating, ...] = ()


class Accounts:
    def __init__(self, ctx: LobbyContext) -> None:
        self.ctx = ctx

    async def register(
        self,
        nickname: str,
        password: str,
        linked_to: Principal | None = None,
        *,
        staff: bool = False,
    ) -> SessionTokens:
        """A new account with a unique nickname (PCG-1), logged in at once.

        With the token of an existing account (``linked_to``), the new account belongs to
        the same person, so a sanction on all of that person's accounts reaches it. A
        ``staff`` account (the operator named at start-up) may bear a staff-like name.
        """
        shown = normalise(nickname)
        if not staff:
            check_acceptable(shown)
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
                " look-alike letters): choose another one",
                reason="NICKNAME_TAKEN",
                metadata={"nickname": shown},
            ) from None
        self.ctx.on_append()
        async with self.ctx.db.transaction() as conn:
            return await self._session(conn, account)

    async def login(self, nickname: str, password: str) -> SessionTokens:
        if not nickname.strip() or not password:
            raise InvalidArgument(
                "give your nickname and your password",
                reason="FIELD_REQUIRED",
                metadata={"field": "nickname"},
            )
        try:
            key = skeleton(normalise(nickname))
        except InvalidArgument:
            raise Unauthenticated(_WRONG_LOGIN, reason="LOGIN_FAILED") from None
        async with self.ctx.db.connection() as conn:
            account = await accounts_store.account_by_key(conn, key)
            if account is None:
                await self.ctx.passwords.verify_unknown(password)
                raise Unauthenticated(_WRONG_LOGIN, reason="LOGIN_FAILED")
            if not await self.ctx.passwords.verify(account.password_hash, password):
                raise Unauthenticated(_WRONG_LOGIN, reason="LOGIN_FAILED")
            ensure_account_active(
                await self.ctx.sanctions(conn, account.player_id), self.ctx.clock()
            )
        async with self.ctx.db.transaction() as conn:
            return await self._session(conn, account)

    async def refresh(self, refresh_token: str) -> SessionTokens:
        """A new session from a refresh token, which is used up: the answer carries the next
        token of the same login (its family). Roles and suspensions are read afresh.

        A token presented a second time was copied: its family is revoked, so whoever holds
        a copy is shut out with the owner, who logs in again (OAuth 2.0 Security BCP 4.14)."""
        if not refresh_token:
            raise InvalidArgument(
                "give the refresh token of your last session",
                reason="FIELD_REQUIRED",
                metadata={"field": "refresh_token"},
            )
        principal, _ = self.ctx.signer.verify_refresh(refresh_token)
        now = self.ctx.clock()
        async with self.ctx.db.transaction() as conn:
            stored = await refresh_store.for_update(conn, refresh_token)
            if stored is None or stored.player_id != principal.player_id:
                raise Unauthenticated(
                    "this session is not known or has ended: log in again", reason="SESSION_ENDED"
                )
            if stored.revoked_at is not None:
                # A suspension says why (PERMISSION_DENIED); any other revocation does not.
                ensure_account_active(await self.ctx.sanctions(conn, stored.player_id), now)
                raise Unauthenticated(
                    "this session was revoked: log in again", reason="SESSION_ENDED"
                )
            reused = stored.used_at is not None
            if reused:
                await refresh_store.revoke_family(conn, stored.family_id, now, "reused")
            else:
                account = await self.ctx.account(conn, principal)
                ensure_account_active(await self.ctx.sanctions(conn, account.player_id), now)
                await refresh_store.mark_used(conn, refresh_token, now)
                session = await self._session(conn, account, stored.family_id)
        if reused:  # raised after the commit, which keeps the family revoked
            raise Unauthenticated(
                "this refresh token was used before, so someone else may hold a copy: every"
                " session of this login is revoked; log in again",
                reason="REFRESH_TOKEN_REUSED",
            )
        return session

    async def logout(self, refresh_token: str) -> None:
        """End the login ``refresh_token`` belongs to: its family is revoked. Logging out
        twice is no error; a token this lobby never issued is."""
        if not refresh_token:
            raise InvalidArgument(
                "give the refresh token of the session to end",
                reason="FIELD_REQUIRED",
                metadata={"field": "refresh_token"},
            )
        self.ctx.signer.verify_refresh(refresh_token)
        async with self.ctx.db.transaction() as conn:
            stored = await refresh_store.for_update(conn, refresh_token)
            if stored is None:
                raise Unauthenticated(
                    "this session is not known or has ended: log in again", reason="SESSION_ENDED"
                )
            await refresh_store.revoke_family(
                conn, stored.family_id, self.ctx.clock(), "logged out"
            )

    async def profile(self, caller: Principal, player_id: str) -> ProfileView:
        """A profile; sanctions are shown to the player and to staff only."""
        wanted = player_id or caller.player_id
        async with self.ctx.db.connection() as conn:
            account = await accounts_store.account_by_id(conn, wanted)
            if account is None:
                raise NotFound(
                    f"no player has the id {quoted(wanted)}",
                    reason="PLAYER_NOT_FOUND",
                    metadata={"player_id": wanted},
                )
            staff = (
                caller.has(Role.MODERATOR) or caller.has(Role.OPERATOR) or caller.has(Role.AUDITOR)
            )
            sanctions: tuple[Sanction, ...] = ()
            if wanted == caller.player_id or staff:
                now = self.ctx.clock()
                sanctions = tuple(
                    s for s in await self.ctx.sanctions(conn, wanted) if s.active_at(now)
                )
            ratings = tuple(await queue_store.ratings_of(conn, wanted))
        return ProfileView(account, sanctions, ratings)

    async def set_roles(
        self, caller: Principal, player_id: str, roles: Iterable[Role]
    ) -> ProfileView:
        """Operators only; PLAYER is always kept."""
        caller.require(Role.OPERATOR)
        wanted = set(roles)
        if not wanted <= GRANTABLE:
            raise InvalidArgument(
                "roles are player, moderator, auditor and operator",
                reason="ROLE_UNKNOWN",
                metadata={"allowed": "player,moderator,auditor,operator"},
            )
        wanted.add(Role.PLAYER)
        async with self.ctx.db.transaction() as conn:
            account = await accounts_store.set_roles(conn, player_id, wanted)
        if account is None:
            raise NotFound(
                f"no player has the id {quoted(player_id)}",
                reason="PLAYER_NOT_FOUND",
                metadata={"player_id": player_id},
            )
        return await self.profile(caller, player_id)

    async def find(self, caller: Principal, nickname: str) -> ProfileView:
        """Staff: a player by nickname, case and look-alike letters ignored."""
        caller.require(Role.MODERATOR, Role.OPERATOR)
        if not nickname.strip():
            raise InvalidArgument(
                "give the nickname to find", reason="FIELD_REQUIRED", metadata={"field": "nickname"}
            )
        try:
            key = skeleton(normalise(nickname))
        except InvalidArgument:
            raise NotFound(
                f"no player is called {quoted(nickname.strip())}",
                reason="PLAYER_NOT_FOUND",
                metadata={"nickname": nickname.strip()},
            ) from None
        async with self.ctx.db.connection() as conn:
            account = await accounts_store.account_by_key(conn, key)
        if account is None:
            raise NotFound(
                f"no player is called {quoted(nickname.strip())}",
                reason="PLAYER_NOT_FOUND",
                metadata={"nickname": nickname.strip()},
            )
        return await self.profile(caller, account.player_id)

    async def ensure_operator(self, nickname: str, password: str) -> Account:
        """Create (or promote) the operator named at start-up; a deployment's first staff."""
        key = skeleton(normalise(nickname))
        async with self.ctx.db.connection() as conn:
            existing = await accounts_store.account_by_key(conn, key)
        if existing is None:
            # another lobby replica starting at the same time may have registered it
            with contextlib.suppress(AlreadyExists):
                await self.register(nickname, password, staff=True)
            async with self.ctx.db.connection() as conn:
                existing = await accounts_store.account_by_key(conn, key)
            assert existing is not None
        roles = existing.roles | {Role.OPERATOR, Role.MODERATOR}
        async with self.ctx.db.transaction() as conn:
            updated = await accounts_store.set_roles(conn, existing.player_id, roles)
        assert updated is not None
        return updated

    async def _session(
        self, conn: Connection, account: Account, family: str | None = None
    ) -> SessionTokens:
        """An access token and the next refresh token of ``family`` (a new login: a new
        family), kept hashed in the caller's transaction."""
        signer = self.ctx.signer
        config = self.ctx.config
        access, access_expires = signer.issue(
            account.player_id,
            account.roles,
            nickname=account.nickname,
            ttl_seconds=config.access_ttl_seconds,
        )
        family_id = family or self.ctx.new_id()
        refresh, refresh_expires = signer.issue(
            account.player_id,
            account.roles,
            nickname=account.nickname,
            kind="refresh",
            ttl_seconds=config.refresh_ttl_seconds,
            family=family_id,
        )
        await refresh_store.insert(
            conn,
            refresh,
            family_id,
            account.player_id,
            self.ctx.clock(),
            datetime.fromtimestamp(refresh_expires, UTC),
        )
        return SessionTokens(account, access, access_expires, refresh)
