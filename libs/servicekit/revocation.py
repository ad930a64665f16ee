"""Revoked sessions: the suspensions every service checks on every call (PCG-4).

A token is good until it expires, up to a quarter of an hour; a suspended account must be
stopped at once. The lobby publishes ``AccountsSuspended`` when a sanction suspends all of
a person's accounts, and ``AccountsReinstated`` when it is lifted; every service keeps
them here, in memory, and the auth interceptor asks ``refusal`` before every call.

Pure: no I/O. ``tavolo.servicekit.revocation_feed`` fills it from NATS and keeps it in the
service's database, so a replica that restarts refuses the same tokens before it serves.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime

from tavolo.servicekit.auth import Principal


@dataclass(frozen=True, slots=True)
class Suspension:
    """One sanction's suspension of a person's accounts."""

    sanction_id: str
    player_ids: tuple[str, ...]
    since: datetime
    until: datetime | None = None  # None: until a moderator lifts it
    lifted: bool = False
    reason: str = ""

    def active_at(self, now: datetime) -> bool:
        return not self.lifted and (self.until is None or now < self.until)


class Revocations:
    """The suspensions this service knows, by player."""

    def __init__(self, suspensions: Iterable[Suspension] = ()) -> None:
        self._by_sanction: dict[str, Suspension] = {}
        self._by_player: dict[str, set[str]] = {}
        for suspension in suspensions:
            self.apply(suspension)

    def apply(self, suspension: Suspension) -> Suspension:
        """Record a suspension or its lifting; a lifted one is never suspended again (an
        event replayed late cannot undo the lift). Returns what is now recorded."""
        known = self._by_sanction.get(suspension.sanction_id)
        if known is not None:
            suspension = replace(known, lifted=known.lifted or suspension.lifted)
        self._by_sanction[suspension.sanction_id] = suspension
        for player_id in suspension.player_ids:
            self._by_player.setdefault(player_id, set()).add(suspension.sanction_id)
        return suspension

    def refusal(self, principal: Principal, now: datetime) -> str | None:
        """Why ``principal``'s token is refused now, or None when it is not revoked.

        While a suspension is in force every token of its accounts is refused; after it
        ends, tokens issued before it began still are (their holder must log in again)."""
        for sanction_id in self._by_player.get(principal.player_id, ()):
            suspension = self._by_sanction[sanction_id]
            if suspension.active_at(now):
                until = (
                    f"until {suspension.until.strftime('%Y-%m-%d %H:%M UTC')}"
                    if suspension.until
                    else "until a moderator lifts it"
                )
                return f"this account is suspended {until}: its sessions are revoked"
            # Whole seconds, as tokens count: a login in the second of a quick lift is good.
            if principal.issued_at < int(suspension.since.timestamp()):
                return "this session was revoked when the account was suspended: log in again"
        return None
