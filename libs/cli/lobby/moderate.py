"""``tavolo moderate``: the report queue, decisions, sanctions and finding players (PCG-3,
PCG-4), for moderators and operators.

- ``reports [--all] [--chat]``: the open cases (every case with ``--all``), each with how
  many reports it merges, who reported whom (nickname beside id) and, with ``--chat``,
  the chat lines kept as evidence;
- ``resolve ID... (--sanction SANCTION_ID | --note TEXT)``: decide one or many cases at
  once, all of them or none;
- ``find NICK``: a player's id, roles and sanctions in force;
- ``sanctions NICK``: the player's whole sanction history, warnings and lifted ones too;
- ``sanction NICK KIND LENGTH --reason TEXT``: apply one (``chat``, ``lobby``,
  ``all_accounts``, ``freeze``; ``warning``, ``1d``, ``1w``, ``1m``, ``3m``, ``6m``,
  ``1y``, ``permanent``);
- ``lift SANCTION_ID``.
"""

from __future__ import annotations

import argparse
from datetime import datetime
from typing import Any

from google.protobuf.timestamp_pb2 import Timestamp

from tavolo.cli import session as sessions
from tavolo.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc

KINDS = {
    "chat": lobby_pb2.SANCTION_KIND_CHAT,
    "lobby": lobby_pb2.SANCTION_KIND_LOBBY,
    "all_accounts": lobby_pb2.SANCTION_KIND_ALL_ACCOUNTS,
    "freeze": lobby_pb2.SANCTION_KIND_FREEZE,
}
LENGTHS = {
    "warning": lobby_pb2.SANCTION_DURATION_WARNING,
    "1d": lobby_pb2.SANCTION_DURATION_ONE_DAY,
    "1w": lobby_pb2.SANCTION_DURATION_ONE_WEEK,
    "1m": lobby_pb2.SANCTION_DURATION_ONE_MONTH,
    "3m": lobby_pb2.SANCTION_DURATION_THREE_MONTHS,
    "6m": lobby_pb2.SANCTION_DURATION_SIX_MONTHS,
    "1y": lobby_pb2.SANCTION_DURATION_ONE_YEAR,
    "permanent": lobby_pb2.SANCTION_DURATION_PERMANENT,
}
KIND_NAMES = {v: k for k, v in KINDS.items()}
LENGTH_NAMES = {v: k for k, v in LENGTHS.items()}


def register(subparsers: Any) -> None:
    moderate = subparsers.add_parser("moderate", help="reports, sanctions, players (staff)")
    acts = moderate.add_subparsers(dest="action", required=True)
    reports = acts.add_parser("reports", help="the report queue, one line per case")
    reports.add_argument("--all", action="store_true", help="decided cases too")
    reports.add_argument("--chat", action="store_true", help="show the chat kept as evidence")
    reports.set_defaults(handler=_reports)
    resolve = acts.add_parser("resolve", help="decide one or many cases at once")
    resolve.add_argument("report_ids", nargs="+", metavar="REPORT_ID")
    how = resolve.add_mutually_exclusive_group(required=True)
    how.add_argument("--sanction", default="", help="the sanction applied for them")
    how.add_argument("--note", default="", help="dismiss, saying why")
    resolve.set_defaults(handler=_resolve)
    find = acts.add_parser("find", help="a player by nickname")
    find.add_argument("nickname")
    find.set_defaults(handler=_find)
    history = acts.add_parser("sanctions", help="a player's sanction history")
    history.add_argument("nickname")
    history.set_defaults(handler=_history)
    apply = acts.add_parser("sanction", help="apply a sanction")
    apply.add_argument("nickname")
    apply.add_argument("kind", choices=sorted(KINDS))
    apply.add_argument("length", choices=list(LENGTHS))
    apply.add_argument("--reason", required=True, help="why (recorded with it)")
    apply.set_defaults(handler=_apply)
    lift = acts.add_parser("lift", help="lift a sanction")
    lift.add_argument("sanction_id")
    lift.set_defaults(handler=_lift)
    for parser in acts.choices.values():
        parser.add_argument("--as", dest="as_nick", help="which saved login to use")


def _stub() -> lobby_pb2_grpc.LobbyStub:
    return lobby_pb2_grpc.LobbyStub(sessions.channel("lobby"))


def _when(stamp: Timestamp) -> str:
    if not stamp.seconds and not stamp.nanos:
        return "-"
    moment: datetime = stamp.ToDatetime()
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def _who(player_id: str, nickname: str) -> str:
    return f"{nickname or '?'} ({player_id})" if player_id else "nobody named"


def case_lines(report: lobby_pb2.Report, *, chat: bool) -> list[str]:
    """One case as a moderator reads it: the count, who reported whom, where, why."""
    state = "open" if not report.resolved_by else f"decided by {report.resolved_by}"
    lines = [
        f"{report.report_id}  {report.case_count} report(s)  {state}  filed"
        f" {_when(report.filed_at)}",
        f"  about {_who(report.player_id, report.player_nickname)}, first reported by"
        f" {_who(report.reporter_id, report.reporter_nickname)}: {report.reason}",
    ]
    if report.table_id:
        lines.append(f"  table {report.table_id}: tavolo audit --table {report.table_id}")
    if report.message_id:
        lines.append(f"  message {report.message_id}")
    if report.sanction_id or report.note:
        lines.append(f"  decision: sanction {report.sanction_id or '-'}; {report.note}")
    if chat:
        for line in report.chat:
            original = f"  [wrote: {line.original_text}]" if line.original_text else ""
            lines.append(f"    {_when(line.sent_at)} {line.sender_nickname}: {line.text}{original}")
    return lines


def sanction_line(s: lobby_pb2.Sanction) -> str:
    length = LENGTH_NAMES.get(s.duration, "-")
    until = _when(s.until) if s.HasField("until") else "never"
    lifted = f", lifted {_when(s.lifted_at)} by {s.lifted_by}" if s.HasField("lifted_at") else ""
    return (
        f"{s.sanction_id}  {KIND_NAMES.get(s.kind, '?')} {length}  applied"
        f" {_when(s.applied_at)} by {s.applied_by}, ends {until}{lifted}: {s.reason}"
    )


def _reports(args: argparse.Namespace) -> int:
    def run() -> None:
        saved = sessions.load(args.as_nick)
        stub, token, shown = _stub(), "", 0
        while True:
            page = stub.ListReports(
                lobby_pb2.ListReportsRequest(
                    open_only=not args.all, page=common_pb2.PageRequest(page_token=token)
                ),
                metadata=saved.metadata(),
            )
            for report in page.reports:
                print("\n".join(case_lines(report, chat=args.chat)))
                shown += 1
            token = page.page.next_page_token
            if not token:
                break
        if not shown:
            print("no open reports" if not args.all else "no reports")

    return sessions.run_call(run)


def _resolve(args: argparse.Namespace) -> int:
    def run() -> None:
        saved = sessions.load(args.as_nick)
        decided = _stub().ResolveReports(
            lobby_pb2.ResolveReportsRequest(
                report_ids=args.report_ids, sanction_id=args.sanction, note=args.note
            ),
            metadata=saved.metadata(),
        )
        heads = [r for r in decided.reports if r.report_id == r.case_id]
        merged = sum(r.case_count for r in heads)
        print(f"decided {len(heads)} case(s), {merged} report(s); every reporter is told")

    return sessions.run_call(run)


def _found(stub: lobby_pb2_grpc.LobbyStub, saved: sessions.SavedSession, nick: str) -> Any:
    return stub.FindPlayer(lobby_pb2.FindPlayerRequest(nickname=nick), metadata=saved.metadata())


def _find(args: argparse.Namespace) -> int:
    def run() -> None:
        saved = sessions.load(args.as_nick)
        profile = _found(_stub(), saved, args.nickname)
        roles = ", ".join(
            lobby_pb2.Role.Name(r).removeprefix("ROLE_").lower() for r in profile.roles
        )
        print(f"{profile.nickname} ({profile.player_id})  roles: {roles}")
        for s in profile.sanctions:
            print(f"  in force: {sanction_line(s)}")
        if not profile.sanctions:
            print("  no sanction in force")

    return sessions.run_call(run)


def _history(args: argparse.Namespace) -> int:
    def run() -> None:
        saved = sessions.load(args.as_nick)
        stub = _stub()
        profile = _found(stub, saved, args.nickname)
        found = stub.ListSanctions(
            lobby_pb2.ListSanctionsRequest(player_id=profile.player_id), metadata=saved.metadata()
        )
        print(f"{profile.nickname} ({profile.player_id}): {len(found.sanctions)} sanction(s)")
        for s in found.sanctions:
            print(f"  {sanction_line(s)}")

    return sessions.run_call(run)


def _apply(args: argparse.Namespace) -> int:
    def run() -> None:
        saved = sessions.load(args.as_nick)
        stub = _stub()
        profile = _found(stub, saved, args.nickname)
        applied = stub.ApplySanction(
            lobby_pb2.ApplySanctionRequest(
                player_id=profile.player_id,
                kind=KINDS[args.kind],
                duration=LENGTHS[args.length],
                reason=args.reason,
            ),
            metadata=saved.metadata(),
        )
        print(f"applied to {profile.nickname}: {sanction_line(applied)}")

    return sessions.run_call(run)


def _lift(args: argparse.Namespace) -> int:
    def run() -> None:
        saved = sessions.load(args.as_nick)
        lifted = _stub().LiftSanction(
            lobby_pb2.LiftSanctionRequest(sanction_id=args.sanction_id), metadata=saved.metadata()
        )
        print(f"lifted: {sanction_line(lifted)}")

    return sessions.run_call(run)
