"""Live lobby updates (WatchLobby): per-player messages on core NATS, across replicas.

A use case publishes an update after its transaction commits; whichever replica holds
the player's WatchLobby stream receives it through a subscription on the player's own
subject. Core NATS delivers at most once, which is enough here because nothing is lost
that matters: the durable state is in PostgreSQL, and every WatchLobby stream starts
with a snapshot of it (pending invitations, waiting tickets, the live table), so a
client that reconnects after a gap sees where it stands.

The subject, ``<namespace>.lobby.updates.<player id>``, lies outside the events stream's
``<namespace>.events.>``, so JetStream never stores these notices.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass

import structlog
from nats.aio.client import Client as NATS

from tavolo.lobby.play.queue_store import Ticket
from tavolo.lobby.play.rooms import Invitation, Room
from tavolo.lobby.play.tables_store import Assignment
from tavolo.lobby.social.conduct.reports_store import Report

log = structlog.get_logger("tavolo.lobby.updates")


@dataclass(frozen=True, slots=True)
class InvitationChanged:
    """An invitation arrived or was answered (sent to the invitee and to the host)."""

    invitation: Invitation
    room: Room


@dataclass(frozen=True, slots=True)
class TicketChanged:
    ticket: Ticket


@dataclass(frozen=True, slots=True)
class Seated:
    assignment: Assignment


@dataclass(frozen=True, slots=True)
class ReportHandled:
    """A moderator handled the player's report (PCG-3); the player learns that, not how."""

    report: Report


Update = InvitationChanged | TicketChanged | Seated | ReportHandled


def updates_subject(namespace: str, player_id: str) -> str:
    return f"{namespace}.lobby.updates.{player_id}"


def suspended_subject(namespace: str, player_id: str) -> str:
    return f"{namespace}.lobby.suspended.{player_id}"


class LobbyUpdates:
    """Publish and follow per-player updates; payloads are ``tavolo.v1.LobbyUpdate`` bytes."""

    def __init__(self, nc: NATS, namespace: str) -> None:
        self._nc = nc
        self._namespace = namespace

    async def publish(self, player_id: str, payload: bytes) -> None:
        """Best effort: a lost notice is recovered by the snapshot of the next WatchLobby."""
        try:
            await self._nc.publish(updates_subject(self._namespace, player_id), payload)
        except Exception as exc:  # the connection is going away; the state is safe in PostgreSQL
            log.warning("lobby update not sent", player_id=player_id, error=repr(exc))

    async def suspend(self, player_ids: Sequence[str]) -> None:
        """Tell every replica that these players were kept out of the lobby (PCG-4): the
        streams they hold open close at once. Best effort like any notice: a stream that
        missed it is refused at its next start, and every call checks the sanction."""
        for player_id in player_ids:
            try:
                await self._nc.publish(suspended_subject(self._namespace, player_id), b"")
            except Exception as exc:
                log.warning("suspension not sent", player_id=player_id, error=repr(exc))

    @contextlib.asynccontextmanager
    async def suspension(self, player_id: str) -> AsyncIterator[asyncio.Event]:
        """An event set when the player is suspended while the context is open."""
        stop = asyncio.Event()

        async def deliver(msg: object) -> None:
            stop.set()

        sub = await self._nc.subscribe(suspended_subject(self._namespace, player_id), cb=deliver)
        try:
            await self._nc.flush()
            yield stop
        finally:
            with contextlib.suppress(Exception):
                await sub.unsubscribe()

    @contextlib.asynccontextmanager
    async def follow(self, player_id: str) -> AsyncIterator[asyncio.Queue[bytes]]:
        """A queue of the player's update payloads while the context is open."""
        queue: asyncio.Queue[bytes] = asyncio.Queue(maxsize=1000)

        async def deliver(msg: object) -> None:
            data: bytes = getattr(msg, "data", b"")
            if queue.full():  # a client that stopped reading: drop the oldest
                queue.get_nowait()
            queue.put_nowait(data)

        sub = await self._nc.subscribe(updates_subject(self._namespace, player_id), cb=deliver)
        try:
            await self._nc.flush()  # the subscription is live before the snapshot is read
            yield queue
        finally:
            with contextlib.suppress(Exception):
                await sub.unsubscribe()
