"""Session tokens: signed, expiring JWTs (HS256) that every service verifies the same way.

The lobby issues them at login; every other service only verifies. A token names the
player and their roles, so no service has to ask the lobby who is calling.
"""

from __future__ import annotations

import contextvars
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import jwt

from tavolo.servicekit.errors import PermissionDenied, Unauthenticated

ACCESS_TTL_SECONDS = 15 * 60
REFRESH_TTL_SECONDS = 30 * 24 * 3600
VERIFIED_TOKENS = 10_000
"""Access tokens remembered as verified (about 300 bytes each)."""


class Role(StrEnum):
    """What a caller may do beyond playing."""

    PLAYER = "player"
    MODERATOR = "moderator"
    AUDITOR = "auditor"
    OPERATOR = "operator"
    SERVICE = "service"  # another Tavolo service calling on the platform's behalf


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling, as proved by their token."""

    player_id: str
    roles: frozenset[Role]
    nickname: str = ""
    # Unix seconds: a revocation refuses the sessions issued before it.
    issued_at: int = field(default=0, compare=False)

    def has(self, role: Role) -> bool:
        return role in self.roles

    def require(self, *roles: Role) -> None:
        """Raise PERMISSION_DENIED unless the caller holds one of ``roles``."""
        if not self.roles.intersection(roles):
            needed = " or ".join(r.value for r in roles)
            raise PermissionDenied(
                f"this needs the {needed} role", reason="ROLE_REQUIRED", metadata={"role": needed}
            )


current_principal: contextvars.ContextVar[Principal | None] = contextvars.ContextVar(
    "current_principal", default=None
)


def caller() -> Principal:
    """The authenticated caller of the current RPC (set by the auth interceptor)."""
    principal = current_principal.get()
    if principal is None:
        raise Unauthenticated("this call needs a session token", reason="TOKEN_MISSING")
    return principal


class TokenSigner:
    """Issues and verifies access and refresh tokens with one shared secret."""

    def __init__(self, secret: str) -> None:
        if len(secret.encode()) < 32:  # RFC 7518 3.2: an HS256 key of at least 256 bits
            raise ValueError("the token secret must be at least 32 bytes long")
        self._secret = secret
        self._verified: dict[str, tuple[Principal, float]] = {}

    def issue(
        self,
        player_id: str,
        roles: Iterable[Role],
        *,
        nickname: str = "",
        kind: str = "access",
        ttl_seconds: int | None = None,
        now: float | None = None,
        family: str = "",
    ) -> tuple[str, int]:
        """A signed token and its expiry (Unix seconds). A refresh token names its
        ``family`` (every token rotated from one login) and a random id of its own."""
        issued = int(time.time() if now is None else now)
        ttl = ttl_seconds or (ACCESS_TTL_SECONDS if kind == "access" else REFRESH_TTL_SECONDS)
        expires = issued + ttl
        claims = {
            "sub": player_id,
            "roles": sorted(r.value for r in roles),
            "nick": nickname,
            "typ": kind,
            "iat": issued,
            "exp": expires,
        }
        if family:
            claims["fam"] = family
            claims["jti"] = secrets.token_urlsafe(16)
        return jwt.encode(claims, self._secret, algorithm="HS256"), expires

    def verify(self, token: str, *, kind: str = "access") -> Principal:
        """The principal a valid token names; UNAUTHENTICATED with the reason otherwise.

        An access token verified before is answered from memory until it expires: a token
        cannot change, so its signature and claims check the same on every call, and
        checking them costs 60 µs of every call of every service (revocation is checked
        apart, on every call)."""
        if kind == "access":
            known = self._verified.get(token)
            if known is not None:
                principal, expires = known
                if time.time() < expires:
                    return principal
                del self._verified[token]
        claims = self._claims(token, kind)
        principal = self._principal(claims)
        if kind == "access":
            if len(self._verified) >= VERIFIED_TOKENS:
                del self._verified[next(iter(self._verified))]  # the oldest
            self._verified[token] = (principal, float(claims["exp"]))
        return principal

    def verify_refresh(self, token: str) -> tuple[Principal, str]:
        """The principal of a valid refresh token and the family it belongs to."""
        claims = self._claims(token, "refresh")
        return self._principal(claims), str(claims.get("fam", ""))

    def _claims(self, token: str, kind: str) -> dict[str, Any]:
        try:
            claims: dict[str, Any] = jwt.decode(
                token, self._secret, algorithms=["HS256"], options={"require": ["exp", "sub"]}
            )
        except jwt.ExpiredSignatureError:
            raise Unauthenticated(
                "the session token has expired: refresh it or log in", reason="TOKEN_EXPIRED"
            ) from None
        except jwt.InvalidTokenError:
            raise Unauthenticated(
                "the session token is not valid: log in again", reason="TOKEN_INVALID"
            ) from None
        if claims.get("typ") != kind:
            raise Unauthenticated(
                f"a {claims.get('typ')} token cannot be used here", reason="TOKEN_INVALID"
            )
        return claims

    @staticmethod
    def _principal(claims: dict[str, Any]) -> Principal:
        try:
            roles = frozenset(Role(r) for r in claims.get("roles", []))
        except ValueError:
            raise Unauthenticated(
                "the session token names an unknown role", reason="TOKEN_INVALID"
            ) from None
        issued = claims.get("iat", 0)
        return Principal(
            str(claims["sub"]),
            roles,
            str(claims.get("nick", "")),
            issued if isinstance(issued, int) else 0,
        )
