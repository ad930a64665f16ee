"""Password hashing with Argon2id (argon2-cffi), off the event loop.

Hashing is deliberately slow (that is what protects a leaked table), so it runs in a
worker thread: one login must not stall every other call on the replica. Parameters
are the library's defaults in production; tests pass cheaper ones.
"""

from __future__ import annotations

import asyncio

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from tavolo.servicekit.errors import InvalidArgument

MIN_PASSWORD = 8
MAX_PASSWORD = 256


def check_password(password: str) -> str:
    if len(password) < MIN_PASSWORD:
        raise InvalidArgument(
            f"choose a password of at least {MIN_PASSWORD} characters",
            reason="PASSWORD_INVALID",
            metadata={"min_length": MIN_PASSWORD, "max_length": MAX_PASSWORD},
        )
    if len(password) > MAX_PASSWORD:
        raise InvalidArgument(
            f"a password has at most {MAX_PASSWORD} characters",
            reason="PASSWORD_INVALID",
            metadata={"min_length": MIN_PASSWORD, "max_length": MAX_PASSWORD},
        )
    return password


class Passwords:
    """Hash and verify; ``verify_unknown`` spends the same time when no account matches, so
    a wrong nickname and a wrong password cannot be told apart by timing."""

    def __init__(self, hasher: PasswordHasher | None = None) -> None:
        self._hasher = hasher or PasswordHasher()
        self._decoy = self._hasher.hash("tavolo decoy password")

    async def hash(self, password: str) -> str:
        return await asyncio.to_thread(self._hasher.hash, password)

    async def verify(self, stored_hash: str, password: str) -> bool:
        return await asyncio.to_thread(self._check, stored_hash, password)

    async def verify_unknown(self, password: str) -> None:
        await asyncio.to_thread(self._check, self._decoy, password)

    def _check(self, stored_hash: str, password: str) -> bool:
        try:
            return bool(self._hasher.verify(stored_hash, password))
        except (VerificationError, InvalidHashError):
            return False


def fast_passwords() -> Passwords:
    """Cheap parameters for tests and benchmarks only: never in a running service."""
    return Passwords(PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
