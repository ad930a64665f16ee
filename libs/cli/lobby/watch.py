"""``tavolo lobby watch``: what the lobby has for a player, as it happens (WatchLobby).

The stream opens with where the player stands — pending invitations, waiting tickets,
the live table — and then follows every change, so an invited friend learns the room to
accept, and every seated player the table to join, without asking again and again.
``tavolo room accept`` follows the same stream to wait for the host to start the table.
Each update is printed with the command that acts on it.
"""

from __future__ import annotations

import argparse
import queue
import threading
import time
from collections.abc import Iterator
from typing import Any

import grpc

from tavolo.cli import session as sessions
from tavolo.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc

PENDING = lobby_pb2.INVITATION_STATE_PENDING
ACCEPTED = lobby_pb2.INVITATION_STATE_ACCEPTED
SNAPSHOT_SECONDS = 5.0
"""How long ``room accept`` waits for the stream's snapshot before answering anyway."""
STATES = {
    lobby_pb2.INVITATION_STATE_PENDING: "pending",
    lobby_pb2.INVITATION_STATE_ACCEPTED: "accepted",
    lobby_pb2.INVITATION_STATE_DECLINED: "declined",
}
TICKETS = {
    lobby_pb2.TICKET_STATE_WAITING: "waiting",
    lobby_pb2.TICKET_STATE_SEATED: "seated",
    lobby_pb2.TICKET_STATE_LEFT: "left the queue",
    lobby_pb2.TICKET_STATE_CANCELLED: "cancelled, stake refunded",
}


def register(subparsers: Any) -> None:
    lobby = subparsers.add_parser("lobby", help="follow your invitations, tickets and tables")
    actions = lobby.add_subparsers(dest="action", required=True)
    watch = actions.add_parser(
        "watch", help="print invitations, tickets and tables as they come (Ctrl-C stops)"
    )
    watch.add_argument("--as", dest="as_nick", help="which saved login to use")
    watch.set_defaults(handler=_watch)


def updates(saved: sessions.SavedSession) -> Iterator[lobby_pb2.LobbyUpdate]:
    """The player's WatchLobby stream: where they stand first, then every change."""
    stub = lobby_pb2_grpc.LobbyStub(sessions.channel("lobby"))
    stream: Iterator[lobby_pb2.LobbyUpdate] = stub.WatchLobby(
        lobby_pb2.WatchLobbyRequest(), metadata=saved.metadata()
    )
    return stream


def play_command(seated: lobby_pb2.TableAssignment, nickname: str) -> str:
    """The command that sits ``nickname`` at the table; it names the login, so it works
    from a terminal where several accounts are logged in."""
    return f"tavolo play {seated.game} --server --table {seated.table_id} --as {nickname}"


def seated_line(seated: lobby_pb2.TableAssignment, nickname: str) -> str:
    return (
        f"table {seated.table_id}: you are seat {seated.seat}; "
        f"play it with `{play_command(seated, nickname)}`"
    )


class LobbyStream:
    """The player's WatchLobby stream, read on a thread so that the reader may wait for
    an update with a time limit; ``close`` ends it."""

    def __init__(self, saved: sessions.SavedSession) -> None:
        stub = lobby_pb2_grpc.LobbyStub(sessions.channel("lobby"))
        self._call = stub.WatchLobby(lobby_pb2.WatchLobbyRequest(), metadata=saved.metadata())
        self._queue: queue.Queue[lobby_pb2.LobbyUpdate | None] = queue.Queue()
        self._error: grpc.RpcError | None = None
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for update in self._call:
                self._queue.put(update)
        except grpc.RpcError as exc:
            self._error = exc
        finally:
            self._queue.put(None)

    def next(self, timeout: float | None = None) -> lobby_pb2.LobbyUpdate | None:
        """The next update; None when ``timeout`` passes first. A stream the lobby ended
        raises its error (:class:`StreamEnded` when it ended without one)."""
        try:
            update = self._queue.get(timeout=timeout)
        except queue.Empty:
            return None
        if update is None:
            self._queue.put(None)  # every later call sees the end too
            if self._error is not None:
                raise self._error
            raise StreamEnded("the lobby ended the stream: `tavolo lobby watch` follows it again")
        return update

    def close(self) -> None:
        self._call.cancel()


class StreamEnded(Exception):
    """The lobby closed a WatchLobby stream without an error."""


def accept_and_wait(saved: sessions.SavedSession, room_id: str) -> None:
    """Accept an invitation, then wait for the host to start and print how to join.

    The stream is opened first, and the answer sent once the stream's opening snapshot
    shows the invitation still pending. Then every update before the lobby's own notice
    of the acceptance is older than it, so a seat announced there is a table the player
    still sits at — never the room's, which cannot start before the acceptance — and
    the first friends' table after the notice is the room's. (Should the snapshot not
    show the invitation, the first friends' table of the room's game is taken.)"""
    stream = LobbyStream(saved)
    try:
        before = _saw_pending(stream, room_id, saved.player_id)
        room = lobby_pb2_grpc.LobbyStub(sessions.channel("lobby")).RespondToInvitation(
            lobby_pb2.RespondToInvitationRequest(room_id=room_id, accept=True),
            metadata=saved.metadata(),
        )
        host = next(
            (i.host_nickname for i in room.invitations if i.player_id == saved.player_id),
            "the host",
        )
        print(f"accepted; waiting for {host} to start the table (Ctrl-C stops waiting)", flush=True)
        while True:
            update = stream.next()
            if update is None:
                continue
            if before and _invitation_is(update, room_id, saved.player_id, ACCEPTED):
                before = False
            if update.WhichOneof("update") != "seated":
                continue
            seated = update.seated
            if before:
                print(
                    f"you still sit at table {seated.table_id}; {host} can start the room's"
                    f" table once it ends: `{play_command(seated, saved.nickname)}`",
                    flush=True,
                )
            elif seated.mode == common_pb2.MODE_VERSUS_FRIENDS and seated.game == room.game:
                print(seated_line(seated, saved.nickname))
                return
    except StreamEnded as exc:
        print(exc)
    except KeyboardInterrupt:
        print(f"\nstopped waiting; `tavolo lobby watch --as {saved.nickname}` shows the table")
    finally:
        stream.close()


def _saw_pending(stream: LobbyStream, room_id: str, player_id: str) -> bool:
    """True once the stream shows the player's pending invitation to the room (False if it
    does not within :data:`SNAPSHOT_SECONDS`)."""
    deadline = time.monotonic() + SNAPSHOT_SECONDS
    while (left := deadline - time.monotonic()) > 0:
        update = stream.next(timeout=left)
        if update is not None and _invitation_is(update, room_id, player_id, PENDING):
            return True
    return False


def _invitation_is(update: lobby_pb2.LobbyUpdate, room_id: str, player_id: str, state: int) -> bool:
    if update.WhichOneof("update") != "invitation":
        return False
    inv = update.invitation
    return inv.room_id == room_id and inv.player_id == player_id and inv.state == state


def describe(update: lobby_pb2.LobbyUpdate, saved: sessions.SavedSession) -> str:
    """One line for an update, with the command that answers it."""
    me = saved.nickname
    kind = update.WhichOneof("update")
    if kind == "invitation":
        inv = update.invitation
        state = STATES.get(inv.state, "changed")
        if inv.player_id != saved.player_id:
            return f"{inv.nickname} {state} your invitation to room {inv.room_id} ({inv.game})"
        if inv.state == lobby_pb2.INVITATION_STATE_PENDING:
            return (
                f"{inv.host_nickname} invites you to play {inv.game}: "
                f"`tavolo room accept {inv.room_id} --as {me}` "
                f"(or `tavolo room decline {inv.room_id} --as {me}`)"
            )
        return f"you {state} {inv.host_nickname}'s room {inv.room_id} ({inv.game})"
    if kind == "ticket":
        ticket = update.ticket
        what = f"{ticket.game} for {ticket.players}"
        what += f", stake {ticket.stake}" if ticket.stake else ""
        table = f", table {ticket.table_id}" if ticket.table_id else ""
        return f"ticket {ticket.ticket_id} ({what}): {TICKETS.get(ticket.state, 'changed')}{table}"
    if kind == "seated":
        return seated_line(update.seated, me)
    return "the lobby sent an update this version of tavolo does not know"


def _watch(args: argparse.Namespace) -> int:
    def run() -> None:
        saved = sessions.load(args.as_nick)
        print(f"following the lobby for {saved.nickname} (Ctrl-C stops)", flush=True)
        for update in updates(saved):
            print(describe(update, saved), flush=True)
        print("the lobby ended the stream; run the command again to follow it")

    return sessions.run_call(run)
