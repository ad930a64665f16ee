"""``tavolo tournament list|register|unregister|watch|create|cancel``: knock-out
tournaments (PCG-7); ``create`` and ``cancel`` are for operators.

``watch`` follows the tournament (WatchTournament) and draws its bracket in the terminal
after every change, with the command that sits the player at their next table. Following
it is also how a player shows for their matches: a match waits a while for both players
to follow the tournament before a bot takes a missing seat (or it is forfeited).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from google.protobuf import timestamp_pb2

from tavolo.cli import session as sessions
from tavolo.cli.i18n import N_, _
from tavolo.cli.play.table_options import add_option_argument, options_struct
from tavolo.v1 import lobby_pb2, lobby_pb2_grpc

STATUS = {
    lobby_pb2.TOURNAMENT_STATUS_REGISTERING: N_("registering"),
    lobby_pb2.TOURNAMENT_STATUS_PLAYING: N_("playing"),
    lobby_pb2.TOURNAMENT_STATUS_FINISHED: N_("finished"),
    lobby_pb2.TOURNAMENT_STATUS_CANCELLED: N_("cancelled"),
}
HOW = {
    "match": "",
    "tie_break": N_("tie-break hand"),
    "last_capture": N_("last capture"),
    "bye": N_("bye"),
    "no_show": N_("no-show"),
    "aborted": N_("table aborted"),
}
"""How a match was won, said after the winner in brackets (nothing for a plain match)."""


def _how(how: str) -> str:
    said = _(HOW[how]) if how in HOW else how
    return f" ({said})" if said else ""


def register(subparsers: Any) -> None:
    tournament = subparsers.add_parser("tournament", help=_("knock-out tournaments"))
    actions = tournament.add_subparsers(dest="action", required=True)
    listing = actions.add_parser("list", help=_("tournaments open, playing and past"))
    listing.add_argument("--as", dest="as_nick", help=_("which saved login to use"))
    listing.set_defaults(handler=_list)
    for name, helptext, handler in (
        ("register", _("enter a tournament (its entry fee is held)"), _register),
        ("unregister", _("withdraw before the start (the fee is released)"), _unregister),
        ("watch", _("draw the bracket as it changes and show your next table"), _watch),
    ):
        p = actions.add_parser(name, help=helptext)
        p.add_argument("tournament_id")
        p.add_argument("--as", dest="as_nick", help=_("which saved login to use"))
        p.set_defaults(handler=handler)
    _register_operator_commands(actions)


def _register_operator_commands(actions: Any) -> None:
    create = actions.add_parser("create", help=_("operators: create a knock-out tournament"))
    create.add_argument("game", help=_("a game that offers knock-out play (scopa, briscola ...)"))
    add_option_argument(create)
    create.add_argument("--max", dest="max_entrants", type=int, default=8, help=_("4 to 256"))
    create.add_argument("--fee", type=int, default=0, help=_("entry fee: 0 or a stake level"))
    create.add_argument("--split", default="100", help=_("prize shares by place, e.g. 60/30/10"))
    create.add_argument(
        "--starts-in", type=float, default=10.0, help=_("minutes until the draw (default 10)")
    )
    create.add_argument("--no-show", choices=("bot", "forfeit"), default="bot")
    create.add_argument(
        "--show-seconds", type=int, default=0, help=_("how long a match waits for its players")
    )
    create.add_argument("--as", dest="as_nick", help=_("which saved login to use"))
    create.set_defaults(handler=_create)
    cancel = actions.add_parser(
        "cancel", help=_("operators: call a tournament off (every fee comes back once)")
    )
    cancel.add_argument("tournament_id")
    cancel.add_argument("--reason", required=True, help=_("why, shown to the entrants"))
    cancel.add_argument("--as", dest="as_nick", help=_("which saved login to use"))
    cancel.set_defaults(handler=_cancel)


def parse_split(text: str) -> list[int]:
    """``60/30/10`` as shares; the lobby checks them (whole, summing to 100 ...)."""
    try:
        return [int(part) for part in text.replace(",", "/").split("/") if part.strip()]
    except ValueError:
        raise SystemExit(
            _("a split is whole percentages like 60/30/10, not {text}").format(text=repr(text))
        ) from None


def create_request(args: argparse.Namespace, now: datetime) -> lobby_pb2.CreateTournamentRequest:
    starts = timestamp_pb2.Timestamp()
    starts.FromDatetime(now + timedelta(minutes=args.starts_in))
    return lobby_pb2.CreateTournamentRequest(
        game=args.game,
        options=options_struct(args.options),
        max_entrants=args.max_entrants,
        starts_at=starts,
        fee=args.fee,
        split=parse_split(args.split),
        no_show=lobby_pb2.NO_SHOW_BOT if args.no_show == "bot" else lobby_pb2.NO_SHOW_FORFEIT,
        show_seconds=args.show_seconds,
    )


def summary(t: lobby_pb2.Tournament) -> str:
    starts = t.starts_at.ToDatetime().strftime("%Y-%m-%d %H:%M UTC")
    split = "/".join(str(s) for s in t.split)
    status = _(STATUS[t.status]) if t.status in STATUS else "?"
    return _(
        "{tournament}  {game}  {status}  starts {starts}  {entrants}/{most} entrants  "
        "fee {fee}  split {split}"
    ).format(
        tournament=t.tournament_id,
        game=t.game,
        status=status,
        starts=starts,
        entrants=len(t.entrants),
        most=t.max_entrants,
        fee=t.fee,
        split=split,
    )


def bracket_lines(t: lobby_pb2.Tournament, me: str = "") -> list[str]:
    """The bracket, one round after another; ``me``'s matches are marked with ``>``."""
    lines = [summary(t)]
    if t.status == lobby_pb2.TOURNAMENT_STATUS_CANCELLED:
        lines.append(_("cancelled: {why}; every entry fee is released").format(why=t.cancel_reason))
        return lines
    if not t.rounds:
        names = ", ".join(e.nickname for e in t.entrants) or _("nobody yet")
        lines.append(_("registered: {names}").format(names=names))
        lines.append(_("draw seed commitment: {commitment}").format(commitment=t.seed_commitment))
        return lines
    lines.append(
        _("draw seed: {seed} (sha256 {commitment})").format(
            seed=t.seed_hex, commitment=t.seed_commitment
        )
    )
    last = len(t.rounds) - 1
    for row in t.rounds:
        title = _("final") if row.round == last else _("round {n}").format(n=row.round + 1)
        lines.append(f"{title}:")
        for m in row.matches:
            mark = ">" if me and me in (m.a, m.b) else " "
            a = _side(m.a, m.a_nickname, m, first=True)
            b = _side(m.b, m.b_nickname, m, first=False)
            state = ""
            if m.winner:
                won = m.a_nickname if m.winner == m.a else m.b_nickname
                state = f"  -> {won}{_how(m.how)}"
            elif m.table_id:
                state = "  " + _("playing at table {table}").format(table=m.table_id)
            lines.append(f" {mark} {a} v {b}{state}")
    if t.status == lobby_pb2.TOURNAMENT_STATUS_FINISHED:
        champion = next((e.nickname for e in t.entrants if e.player_id == t.champion), "?")
        lines.append(_("champion: {who}").format(who=champion))
        for e in sorted((e for e in t.entrants if e.prize), key=lambda e: e.place):
            lines.append(
                "  "
                + _("place {place}: {who} wins {prize} coins").format(
                    place=e.place, who=e.nickname, prize=e.prize
                )
            )
    return lines


def next_table(t: lobby_pb2.Tournament, me: str) -> lobby_pb2.TournamentMatch | None:
    """The player's match being played now, if any."""
    for row in t.rounds:
        for m in row.matches:
            if me in (m.a, m.b) and m.table_id and not m.winner and me not in m.bots:
                return m
    return None


def _side(player: str, nickname: str, m: lobby_pb2.TournamentMatch, *, first: bool) -> str:
    if not player:
        return "(" + _("bye") + ")" if m.round == 0 and not first else "?"
    return f"{nickname} (bot)" if player in m.bots else nickname


def _lobby() -> lobby_pb2_grpc.LobbyStub:
    return lobby_pb2_grpc.LobbyStub(sessions.channel("lobby"))


def _list(args: argparse.Namespace) -> int:
    def run() -> None:
        saved = sessions.load(args.as_nick)
        found = _lobby().ListTournaments(
            lobby_pb2.ListTournamentsRequest(), metadata=saved.metadata()
        )
        if not found.tournaments:
            print(_("no tournaments yet"))
        for t in found.tournaments:
            print(summary(t))

    return sessions.run_call(run)


def _create(args: argparse.Namespace) -> int:
    def run() -> None:
        saved = sessions.load(args.as_nick)
        request = create_request(args, datetime.now(UTC))
        t = _lobby().CreateTournament(request, metadata=saved.metadata())
        print(_("created: {summary}").format(summary=summary(t)))
        print(
            _("seed commitment {commitment} (the seed is revealed at the draw)").format(
                commitment=t.seed_commitment
            )
        )
        print(
            _("players enter with {command}").format(
                command=f"`tavolo tournament register {t.tournament_id}`"
            )
        )

    return sessions.run_call(run)


def _cancel(args: argparse.Namespace) -> int:
    def run() -> None:
        saved = sessions.load(args.as_nick)
        t = _lobby().CancelTournament(
            lobby_pb2.CancelTournamentRequest(tournament_id=args.tournament_id, reason=args.reason),
            metadata=saved.metadata(),
        )
        print(
            _("cancelled ({why}); every entry fee goes back: {summary}").format(
                why=t.cancel_reason, summary=summary(t)
            )
        )

    return sessions.run_call(run)


def _register(args: argparse.Namespace) -> int:
    def run() -> None:
        saved = sessions.load(args.as_nick)
        t = _lobby().RegisterTournament(
            lobby_pb2.RegisterTournamentRequest(tournament_id=args.tournament_id),
            metadata=saved.metadata(),
        )
        print(_("registered: {names}").format(names=summary(t)))
        print(
            _("follow it (and show for your matches): {command}").format(
                command=f"`{_watch_command(t, saved.nickname)}`"
            )
        )

    return sessions.run_call(run)


def _unregister(args: argparse.Namespace) -> int:
    def run() -> None:
        saved = sessions.load(args.as_nick)
        t = _lobby().UnregisterTournament(
            lobby_pb2.UnregisterTournamentRequest(tournament_id=args.tournament_id),
            metadata=saved.metadata(),
        )
        print(_("withdrawn; your entry fee is released: {summary}").format(summary=summary(t)))

    return sessions.run_call(run)


def _watch(args: argparse.Namespace) -> int:
    def run() -> None:
        saved = sessions.load(args.as_nick)
        stream: Iterator[lobby_pb2.Tournament] = _lobby().WatchTournament(
            lobby_pb2.WatchTournamentRequest(tournament_id=args.tournament_id),
            metadata=saved.metadata(),
        )
        for t in stream:
            print("\n".join(bracket_lines(t, saved.player_id)), flush=True)
            match = next_table(t, saved.player_id)
            if match is not None:
                command = (
                    f"`tavolo play {t.game} --server --table {match.table_id}"
                    f" --as {saved.nickname}`"
                )
                print(_("your table: {command}").format(command=command), flush=True)
            print(flush=True)

    return sessions.run_call(run)


def _watch_command(t: lobby_pb2.Tournament, nickname: str) -> str:
    return f"tavolo tournament watch {t.tournament_id} --as {nickname}"
