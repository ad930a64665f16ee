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
from tavolo.cli.i18n import N_, _, pgettext
from tavolo.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc

PENDING = lobby_pb2.INVITATION_STATE_PENDING
ACCEPTED = lobby_pb2.INVITATION_STATE_ACCEPTED
SNAPSHOT_SECONDS = 5.0
"""How long ``room accept`` waits for the stream's snapshot before answering anyway."""
TICKETS = {
    lobby_pb2.TICKET_STATE_WAITING: N_("waiting"),
    lobby_pb2.TICKET_STATE_SEATED: N_("seated"),
    lobby_pb2.TICKET_STATE_LEFT: N_("left the queue"),
    lobby_pb2.TICKET_STATE_CANCELLED: N_("cancelled, stake refunded"),
}


def _guest_did(state: int) -> str:
    """``{guest} accepted your invitation ...``: a guest's answer, as the host reads it."""
    if state == lobby_pb2.INVITATION_STATE_ACCEPTED:
        return _("{guest} accepted your invitation to room {room} ({game})")
    if state == lobby_pb2.INVITATION_STATE_DECLINED:
        return _("{guest} declined your invitation to room {room} ({game})")
    if state == lobby_pb2.INVITATION_STATE_PENDING:
        return _("{guest} pending your invitation to room {room} ({game})")
    return _("{guest} changed your invitation to room {room} ({game})")


def _you_did(state: int) -> str:
    """``you accepted {host}'s room ...``: the player's own answer."""
    if state == lobby_pb2.INVITATION_STATE_ACCEPTED:
        return _("you accepted {host}'s room {room} ({game})")
    if state == lobby_pb2.INVITATION_STATE_DECLINED:
        return _("you declined {host}'s room {room} ({game})")
    return _("you changed {host}'s room {room} ({game})")


def register(subparsers: Any) -> None:
    lobby = subparsers.add_parser("lobby", help=_("follow your invitations, tickets and tables"))
    actions = lobby.add_subparsers(dest="action", required=True)
    watch = actions.add_parser(
        "watch", help=_("print invitations, tickets and tables as they come (Ctrl-C stops)")
    )
    watch.add_argument("--as", dest="as_nick", help=_("which saved login to use"))
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
    return _("table {table}: you are seat {seat}; play it with {command}").format(
        table=seated.table_id, seat=seated.seat, command=f"`{play_command(seated, nickname)}`"
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
            raise StreamEnded(
                _("the lobby ended the stream: `tavolo lobby watch` follows it again")
            )
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
            _("the host"),
        )
        print(
            _("accepted; waiting for {host} to start the table (Ctrl-C stops waiting)").format(
                host=host
            ),
            flush=True,
        )
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
                    _(
                        "you still sit at table {table}; {host} can start the room's table "
                        "once it ends: {command}"
                    ).format(
                        table=seated.table_id,
                        host=host,
                        command=f"`{play_command(seated, saved.nickname)}`",
                    ),
                    flush=True,
                )
            elif seated.mode == common_pb2.MODE_VERSUS_FRIENDS and seated.game == room.game:
                print(seated_line(seated, saved.nickname))
                return
    except StreamEnded as exc:
        print(exc)
    except KeyboardInterrupt:
        print(
            "\n"
            + _("stopped waiting; {command} shows the table").format(
                command=f"`tavolo lobby watch --as {saved.nickname}`"
            )
        )
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
        if inv.player_id != saved.player_id:
            return _guest_did(inv.state).format(guest=inv.nickname, room=inv.room_id, game=inv.game)
        if inv.state == lobby_pb2.INVITATION_STATE_PENDING:
            return _("{host} invites you to play {game}: {accept} (or {decline})").format(
                host=inv.host_nickname,
                game=inv.game,
                accept=f"`tavolo room accept {inv.room_id} --as {me}`",
                decline=f"`tavolo room decline {inv.room_id} --as {me}`",
            )
        return _you_did(inv.state).format(host=inv.host_nickname, room=inv.room_id, game=inv.game)
    if kind == "ticket":
        ticket = update.ticket
        what = _("{game} for {players}").format(game=ticket.game, players=ticket.players)
        what += ", " + _("stake {stake}").format(stake=ticket.stake) if ticket.stake else ""
        table = ", " + _("table {table}").format(table=ticket.table_id) if ticket.table_id else ""
        state = (
            _(TICKETS[ticket.state]) if ticket.state in TICKETS else pgettext("ticket", "changed")
        )
        return (
            _("ticket {ticket} ({what}): {state}").format(
                ticket=ticket.ticket_id, what=what, state=state
            )
            + table
        )
    if kind == "seated":
        return seated_line(update.seated, me)
    return _("the lobby sent an update this version of tavolo does not know")


def _watch(args: argparse.Namespace) -> int:
    def run() -> None:
        saved = sessions.load(args.as_nick)
        print(
            _("following the lobby for {nick} (Ctrl-C stops)").format(nick=saved.nickname),
            flush=True,
        )
        for update in updates(saved):
            print(describe(update, saved), flush=True)
        print(_("the lobby ended the stream; run the command again to follow it"))

    return sessions.run_call(run)
