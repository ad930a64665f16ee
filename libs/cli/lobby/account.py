"""``tavolo account``, ``tavolo room``, ``tavolo coins``: the platform from a terminal.

Enough to do what a client app does: register and log in, invite a friend to a room,
start the table, and read the wallet. Every answer names the next command to type, with
``--as NICK`` so that two accounts can be driven from one terminal. Play itself is
``tavolo play GAME --server --table ID``; ``tavolo room accept`` waits for the host to
start and prints that command for the invited friend.
"""

from __future__ import annotations

import argparse
from typing import Any

import grpc
from google.protobuf import json_format

from tavolo.cli import session as sessions
from tavolo.cli.i18n import _
from tavolo.cli.lobby.watch import accept_and_wait, seated_line
from tavolo.cli.play.table_options import (
    add_option_argument,
    describe_options,
    option_line,
    options_struct,
)
from tavolo.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc, wallet_pb2, wallet_pb2_grpc

LEVELS = {
    "easy": common_pb2.BOT_LEVEL_EASY,
    "medium": common_pb2.BOT_LEVEL_MEDIUM,
    "hard": common_pb2.BOT_LEVEL_HARD,
}


def register(subparsers: Any) -> None:
    account = subparsers.add_parser("account", help=_("register, log in, show who you are"))
    acts = account.add_subparsers(dest="action", required=True)
    for name, helptext in (("register", _("create an account")), ("login", _("log in"))):
        p = acts.add_parser(name, help=helptext)
        p.add_argument("nickname")
        p.add_argument("--password", required=True)
        p.set_defaults(handler=_login, create=name == "register")
    who = acts.add_parser("whoami", help=_("the saved login in use"))
    who.add_argument("--as", dest="as_nick")
    who.set_defaults(handler=_whoami)
    out = acts.add_parser("logout", help=_("end the login here and at the platform"))
    out.add_argument("--as", dest="as_nick")
    out.set_defaults(handler=_logout)

    room = subparsers.add_parser("room", help=_("play with friends: create a room, invite, start"))
    ra = room.add_subparsers(dest="action", required=True)
    create = ra.add_parser("create", help=_("create a room"))
    create.add_argument("game")
    create.add_argument("--players", type=int, default=2)
    add_option_argument(create)
    create.set_defaults(handler=_room_create)
    games = ra.add_parser("games", help=_("the games, their options and defaults"))
    games.set_defaults(handler=_room_games)
    invite = ra.add_parser("invite", help=_("invite a player by nickname"))
    invite.add_argument("room_id")
    invite.add_argument("nickname")
    invite.set_defaults(handler=_room_invite)
    answers = (
        ("accept", True, _("accept an invitation")),
        ("decline", False, _("decline an invitation")),
    )
    for name, accept, helptext in answers:
        p = ra.add_parser(name, help=helptext)
        p.add_argument("room_id")
        p.set_defaults(handler=_room_answer, accept=accept, no_wait=False)
    ra.choices["accept"].add_argument(
        "--no-wait",
        action="store_true",
        help=_("do not wait for the host to start the table (`tavolo lobby watch` shows it)"),
    )
    start = ra.add_parser("start", help=_("start the room's table (host only)"))
    start.add_argument("room_id")
    start.add_argument("--bots", choices=sorted(LEVELS), help=_("fill empty seats with bots"))
    start.set_defaults(handler=_room_start)

    coins = subparsers.add_parser("coins", help=_("your wallet"))
    ca = coins.add_subparsers(dest="action", required=True)
    ca.add_parser("balance", help=_("available and held coins")).set_defaults(handler=_balance)
    ca.add_parser("history", help=_("your transfers")).set_defaults(handler=_history)

    for parser in (*acts.choices.values(), *ra.choices.values(), *ca.choices.values()):
        if "as_nick" not in {a.dest for a in parser._actions}:
            parser.add_argument("--as", dest="as_nick", help=_("which saved login to use"))


def _lobby() -> lobby_pb2_grpc.LobbyStub:
    return lobby_pb2_grpc.LobbyStub(sessions.channel("lobby"))


def _login(args: argparse.Namespace) -> int:
    def run() -> None:
        stub = _lobby()
        if args.create:
            reply = stub.Register(
                lobby_pb2.RegisterRequest(nickname=args.nickname, password=args.password)
            )
        else:
            reply = stub.Login(
                lobby_pb2.LoginRequest(nickname=args.nickname, password=args.password)
            )
        sessions.save(
            sessions.SavedSession(
                reply.player_id, reply.nickname, reply.access_token, reply.refresh_token
            )
        )
        print(
            _("logged in as {nick} ({player})").format(nick=reply.nickname, player=reply.player_id)
        )

    return sessions.run_call(run)


def _whoami(args: argparse.Namespace) -> int:
    def run() -> None:
        saved = sessions.load(args.as_nick)
        print(f"{saved.nickname} ({saved.player_id})")

    return sessions.run_call(run)


def _logout(args: argparse.Namespace) -> int:
    def run() -> None:
        saved = sessions.forget(args.as_nick)
        try:
            _lobby().Logout(lobby_pb2.LogoutRequest(refresh_token=saved.refresh_token))
        except grpc.RpcError as exc:
            # Ended already (logged out elsewhere, suspended): nothing left to end.
            if not isinstance(exc, grpc.Call) or exc.code() != grpc.StatusCode.UNAUTHENTICATED:
                raise
        print(_("logged out {nick}: its sessions are over").format(nick=saved.nickname))

    return sessions.run_call(run)


def _room_create(args: argparse.Namespace) -> int:
    try:
        options = options_struct(args.options)
    except ValueError as exc:
        print(exc)
        return 2

    def run() -> None:
        saved = sessions.load(args.as_nick)
        room = _lobby().CreateRoom(
            lobby_pb2.CreateRoomRequest(game=args.game, players=args.players, options=options),
            metadata=saved.metadata(),
        )
        print(
            _("room {room}: {game} for {players}").format(
                room=room.room_id, game=room.game, players=room.players
            )
        )
        print(
            _("options: {options}").format(
                options=describe_options(json_format.MessageToDict(room.options))
            )
        )
        print(
            _("invite a friend: {command}").format(
                command=f"`tavolo room invite {room.room_id} NICK --as {saved.nickname}`"
            )
        )

    return sessions.run_call(run)


def _room_games(args: argparse.Namespace) -> int:
    def run() -> None:
        saved = sessions.load(args.as_nick)
        found = _lobby().ListGames(lobby_pb2.ListGamesRequest(), metadata=saved.metadata())
        for game in found.games:
            print(
                _("{name}: {title}, {low}-{high} players").format(
                    name=game.name, title=game.title, low=game.min_players, high=game.max_players
                )
            )
            for option in game.options:
                print(f"  --option {option_line(option)}")

    return sessions.run_call(run)


def _room_invite(args: argparse.Namespace) -> int:
    def run() -> None:
        saved = sessions.load(args.as_nick)
        _lobby().Invite(
            lobby_pb2.InviteRequest(room_id=args.room_id, nickname=args.nickname),
            metadata=saved.metadata(),
        )
        print(invited_line(args.room_id, args.nickname, saved.nickname))

    return sessions.run_call(run)


def invited_line(room_id: str, guest: str, host: str) -> str:
    """What the host reads after an invite: both next commands name their login, since
    ``room accept`` without ``--as`` would act as whoever logged in last."""
    return _("invited {guest}: they answer with {accept}; start with {start}").format(
        guest=guest,
        accept=f"`tavolo room accept {room_id} --as {guest}`",
        start=f"`tavolo room start {room_id} --as {host}`",
    )


def _room_answer(args: argparse.Namespace) -> int:
    def run() -> None:
        saved = sessions.load(args.as_nick)
        if args.accept and not args.no_wait:
            accept_and_wait(saved, args.room_id)
            return
        _lobby().RespondToInvitation(
            lobby_pb2.RespondToInvitationRequest(room_id=args.room_id, accept=args.accept),
            metadata=saved.metadata(),
        )
        if args.accept:
            print(
                _("accepted; {command} shows the table").format(
                    command=f"`tavolo lobby watch --as {saved.nickname}`"
                )
            )
        else:
            print(_("declined"))

    return sessions.run_call(run)


def _room_start(args: argparse.Namespace) -> int:
    def run() -> None:
        saved = sessions.load(args.as_nick)
        seat = _lobby().StartRoom(
            lobby_pb2.StartRoomRequest(
                room_id=args.room_id,
                fill_with_bots=args.bots is not None,
                bot_level=LEVELS.get(args.bots or "", common_pb2.BOT_LEVEL_UNSPECIFIED),
            ),
            metadata=saved.metadata(),
        )
        print(seated_line(seat, saved.nickname))

    return sessions.run_call(run)


def _balance(args: argparse.Namespace) -> int:
    def run() -> None:
        saved = sessions.load(args.as_nick)
        stub = wallet_pb2_grpc.WalletStub(sessions.channel("wallet"))
        balance = stub.GetBalance(wallet_pb2.GetBalanceRequest(), metadata=saved.metadata())
        frozen = (
            "  " + _("FROZEN: {why}").format(why=balance.frozen_reason) if balance.frozen else ""
        )
        print(
            _("{nick}: {available} coins available, {held} held").format(
                nick=saved.nickname, available=balance.available, held=balance.held
            )
            + frozen
        )

    return sessions.run_call(run)


def _history(args: argparse.Namespace) -> int:
    def run() -> None:
        saved = sessions.load(args.as_nick)
        stub = wallet_pb2_grpc.WalletStub(sessions.channel("wallet"))
        reply = stub.ListTransfers(wallet_pb2.ListTransfersRequest(), metadata=saved.metadata())
        for transfer in reply.transfers:
            row = json_format.MessageToDict(transfer, preserving_proto_field_name=True)
            print(f"{row.get('created_at', ''):<28} {transfer.amount:>7}  {transfer.cause}")

    return sessions.run_call(run)
