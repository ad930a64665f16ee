"""Operators read the platform's dead letters here: events a service's consumer gave up on
(see ``tavolo.messaging.deadletters``). The lobby is where operators already work
(roles, sanctions), and the dead-letter stream is the whole namespace's, so one call
shows every service's letters."""

from __future__ import annotations

from tavolo.messaging import DeadLetters
from tavolo.messaging.deadletters import MAX_LISTED
from tavolo.servicekit.auth import Principal, Role
from tavolo.servicekit.errors import InvalidArgument
from tavolo.v1 import events_pb2

DEFAULT_LIMIT = 50


class DeadLetterDesk:
    """Operator-only listing of dead letters, newest first."""

    def __init__(self, letters: DeadLetters) -> None:
        self._letters = letters

    async def latest(self, caller: Principal, limit: int) -> list[events_pb2.DeadLetter]:
        caller.require(Role.OPERATOR)
        if not 0 <= limit <= MAX_LISTED:
            raise InvalidArgument(
                f"limit is 1 to {MAX_LISTED} (0 for {DEFAULT_LIMIT})",
                reason="FIELD_INVALID",
                metadata={"field": "limit"},
            )
        return await self._letters.latest(limit or DEFAULT_LIMIT)
