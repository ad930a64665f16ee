"""``tavolo audit``: check a table's log yourself (PLAT-3, AUDIT-1..4).

- ``tavolo audit verify TABLE``: the hash chain, the seed commitment, a re-execution of
  every recorded action, a cut tail, and a gap anywhere in the engine's log; each finding
  names the table, the event and what is wrong. ``--receipt HASH`` (the last hash every
  seat was handed when the table ended) shows the stored log is the one they were given;
  ``--checkpoints FILE`` holds the engine's log to the signed checkpoints it published
  (JSON lines, as ``tavolo audit checkpoints`` collects them).
  Exit 0 only if all pass.
- ``tavolo audit show TABLE --seat N --at K``: what seat N saw right after event K
  (without ``--seat``: every seat, and the event itself — the full table).
- ``tavolo audit dispute TABLE --seat N --at K``: what seat N saw just before event K,
  what it could legally do, and what it did.
- ``tavolo audit export TABLE``: the log as JSON lines, one event per line, with every
  field the hash covers, so anyone can audit it offline (``--file`` reads it back);
  ``--html PAGE`` writes the replay page instead, which checks the seed in the browser
  and shows the table's chat (from the lobby) and coin movements (from the wallet).

The log comes from the engine's ``GetTableLog`` (``--server``, default the local engine)
or from an exported file. Nothing is taken on trust from the server: the checks run here,
on the events as received. The engine serves any table to an auditor or an operator, and
a table that has ended to the players who sat at it. The session is ``--token``, else the
saved login named by ``--as NICK``, else ``$TAVOLO_TOKEN``, else the last login (``tavolo
account login``); the client never signs a token of its own.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import uuid
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

import grpc

from tavolo.cli import session
from tavolo.cli.audit import collect as audit_collect
from tavolo.cli.audit.checks import EngineFacts, check_table
from tavolo.cli.audit.context import fetch_context
from tavolo.cli.audit.dispute import dispute_lines
from tavolo.cli.audit.page import render_page
from tavolo.cli.platform.token_secret import CHECKPOINT_KEY_FILE
from tavolo.eventlog import RecordedEvent
from tavolo.eventlog.canonical import format_timestamp
from tavolo.eventlog.checkpoint import Checkpoint, public_hex, signing_key
from tavolo.eventlog.integrity import IndexEntry
from tavolo.servicekit.settings import DEFAULT_GRPC_PORTS, data_dir
from tavolo.tablelog.convert import STATUS_VALUES, index_from_proto, recorded_from_proto
from tavolo.tablelog.replay import AuditError, revealed_seed, table_at
from tavolo.tablelog.views import seat_view
from tavolo.v1 import engine_pb2, engine_pb2_grpc

DEFAULT_SERVER = f"127.0.0.1:{DEFAULT_GRPC_PORTS['engine']}"
DESCRIPTION = (
    "Check a table's event log yourself: the hash chain, the seed commitment and every "
    "recorded action are checked here, on the events as received, so nothing is taken on "
    "trust from the server. `verify` exits 0 only if all pass; `show` prints what a seat "
    "saw after an event; `export` writes the log as JSON lines that `--file` reads back."
)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "audit", help="verify, inspect or export a table's event log", description=DESCRIPTION
    )
    commands = parser.add_subparsers(dest="audit_command", required=True, metavar="ACTION")
    for name, text in (
        ("verify", "check the hash chain, the seed commitment and re-execute every action"),
        ("show", "print what a seat saw after an event"),
        ("export", "write the log as JSON lines"),
        ("dispute", "what a seat saw, could do and did at an event"),
    ):
        sub = commands.add_parser(name, help=text, description=text)
        sub.add_argument("table", help="the table id")
        sub.add_argument(
            "--server",
            default=os.environ.get("TAVOLO_ENGINE_ADDRESS", DEFAULT_SERVER),
            help=f"engine address (default {DEFAULT_SERVER} or $TAVOLO_ENGINE_ADDRESS)",
        )
        sub.add_argument(
            "--token",
            default=None,
            help="a session token (default: --as, else $TAVOLO_TOKEN, else the last login)",
        )
        sub.add_argument(
            "--as",
            dest="as_nick",
            metavar="NICK",
            help="use this saved login: an auditor, an operator, or a player of the table",
        )
        sub.add_argument("--file", type=Path, help="read the log from an exported file")
        sub.set_defaults(handler=_handlers[name])
        if name == "show":
            sub.add_argument("--seat", type=int, help="the seat (default: the full table)")
            sub.add_argument("--at", type=int, help="the event number (default: the last)")
        if name == "dispute":
            sub.add_argument("--seat", type=int, required=True, help="the seat")
            sub.add_argument("--at", type=int, required=True, help="the disputed event")
        if name == "verify":
            sub.add_argument(
                "--receipt", metavar="HASH", help="the log hash a seat was given at the end"
            )
            sub.add_argument(
                "--checkpoints", type=Path, help="signed checkpoints to hold the log to"
            )
            sub.add_argument(
                "--checkpoint-key",
                default=os.environ.get("TAVOLO_CHECKPOINT_PUBLIC_KEY", ""),
                help="the public key the checkpoints are signed with, hex"
                " (default $TAVOLO_CHECKPOINT_PUBLIC_KEY, else that of the key `tavolo up`"
                " keeps in its data folder, else the development key)",
            )
        if name == "export":
            sub.add_argument("-o", "--output", type=Path, help="file to write (default stdout)")
            sub.add_argument("--html", type=Path, help="write the replay page (one HTML file)")
            for service in ("lobby", "wallet"):
                sub.add_argument(
                    f"--{service}",
                    default=None,
                    metavar="ADDRESS",
                    help=f"the page's {'chat' if service == 'lobby' else 'coin movements'} come"
                    f" from this {service} (default ${f'TAVOLO_{service.upper()}_ADDRESS'} or"
                    " the local one; with --file, only when given)",
                )
    audit_collect.register(commands)


# -- getting the log ---------------------------------------------------------------------


async def fetch_log(server: str, token: str, table_id: str) -> list[RecordedEvent]:
    async with session.aio_channel(server) as channel:
        stub = engine_pb2_grpc.EngineStub(channel)
        response = await stub.GetTableLog(
            engine_pb2.GetTableLogRequest(table_id=table_id),
            metadata=(("authorization", f"Bearer {token}"),),
            timeout=30,
        )
    return [recorded_from_proto(e) for e in response.events]


async def fetch_with_facts(
    server: str, token: str, table_id: str
) -> tuple[list[RecordedEvent], EngineFacts]:
    """The table's log, its head row, and the whole engine log's index (page by page)."""
    metadata = (("authorization", f"Bearer {token}"),)
    async with session.aio_channel(server, INDEX_CHANNEL_OPTIONS) as channel:
        stub = engine_pb2_grpc.EngineStub(channel)
        log = await stub.GetTableLog(
            engine_pb2.GetTableLogRequest(table_id=table_id), metadata=metadata, timeout=30
        )
        try:
            index, head_position = await fetch_index(stub, metadata)
        except grpc.aio.AioRpcError as exc:
            if exc.code() != grpc.StatusCode.PERMISSION_DENIED:
                raise
            index, head_position = None, 0  # a player's session: the index is for auditors
    statuses = {value: name for name, value in STATUS_VALUES.items()}
    facts = EngineFacts(
        log.head_version, statuses.get(log.status), index, head_position, log.replay_problem
    )
    return [recorded_from_proto(e) for e in log.events], facts


#: Index entries per page, and pages fetched at once.
INDEX_PAGE = 10_000
INDEX_PAGES_IN_FLIGHT = 4
INDEX_CHANNEL_OPTIONS = [("grpc.max_receive_message_length", 16 * 1024 * 1024)]


async def fetch_index(
    stub: Any, metadata: tuple[tuple[str, str], ...], *, columnar: bool = True
) -> tuple[list[IndexEntry], int]:
    """The whole index and the highest head position seen (``columnar=False`` asks for
    one message per entry, as engines before columns sent it).

    Positions are handed out without gaps, so page k is positions k*P+1 .. (k+1)*P and
    pages up to the first head seen can be fetched several at once; a page holds at most
    P entries of its range even where rows were deleted (its extra entries, beyond the
    range, are left to the next page). Then pages follow one by one until one is empty.
    """

    async def page(after: int) -> engine_pb2.GetLogIndexResponse:
        request = engine_pb2.GetLogIndexRequest(
            after_position=after, limit=INDEX_PAGE, columnar=columnar
        )
        response: engine_pb2.GetLogIndexResponse = await stub.GetLogIndex(
            request, metadata=metadata, timeout=60
        )
        return response

    def entries(response: engine_pb2.GetLogIndexResponse, up_to: int) -> list[IndexEntry]:
        found = index_from_proto(response)
        return [e for e in found if e.position <= up_to]

    first = await page(0)
    head_position = first.head_position
    index = entries(first, INDEX_PAGE)
    starts = list(range(INDEX_PAGE, head_position, INDEX_PAGE))
    for at in range(0, len(starts), INDEX_PAGES_IN_FLIGHT):
        window = starts[at : at + INDEX_PAGES_IN_FLIGHT]
        responses = await asyncio.gather(*(page(a) for a in window))
        for after, response in zip(window, responses, strict=True):
            head_position = max(head_position, response.head_position)
            index += entries(response, after + INDEX_PAGE)
    after = index[-1].position if index else 0
    while True:
        response = await page(after)
        head_position = max(head_position, response.head_position)
        found = index_from_proto(response)
        if not found:
            return index, head_position
        index += found
        after = found[-1].position


def event_to_json(event: RecordedEvent) -> dict[str, Any]:
    return {
        "stream_id": event.stream_id,
        "version": event.version,
        "event_id": str(event.event_id),
        "type": event.type,
        "data": event.data,
        "metadata": event.metadata,
        "recorded_at": format_timestamp(event.recorded_at),
        "prev_hash": event.prev_hash.hex(),
        "hash": event.hash.hex(),
    }


def event_from_json(item: dict[str, Any]) -> RecordedEvent:
    return RecordedEvent(
        stream_id=item["stream_id"],
        version=int(item["version"]),
        position=0,
        event_id=uuid.UUID(item["event_id"]),
        type=item["type"],
        data=item["data"],
        metadata=item["metadata"],
        recorded_at=datetime.fromisoformat(item["recorded_at"].replace("Z", "+00:00")),
        prev_hash=bytes.fromhex(item["prev_hash"]),
        hash=bytes.fromhex(item["hash"]),
    )


def write_jsonl(events: Sequence[RecordedEvent], out: TextIO) -> None:
    for event in events:
        out.write(json.dumps(event_to_json(event), sort_keys=True, ensure_ascii=False) + "\n")


def read_jsonl(path: Path) -> list[RecordedEvent]:
    with path.open(encoding="utf-8") as source:
        return [event_from_json(json.loads(line)) for line in source if line.strip()]


def _load(args: argparse.Namespace) -> list[RecordedEvent]:
    path: Path | None = getattr(args, "file", None)
    if path is not None:
        events = read_jsonl(path)
        wanted = f"table-{args.table}"
        if events and events[0].stream_id != wanted:
            raise AuditError(f"{path} holds {events[0].stream_id}, not {wanted}")
        return events
    return asyncio.run(fetch_log(args.server, _token(args), args.table))


def _token(args: argparse.Namespace) -> str:
    """What the command line names first: ``--token``, ``--as``, the environment, then the
    last login (NoSession, saying how to log in, when there is none)."""
    if args.token:
        return str(args.token)
    if args.as_nick:
        return session.load(args.as_nick).access_token
    return os.environ.get("TAVOLO_TOKEN") or session.load(None).access_token


# -- the sub-commands --------------------------------------------------------------------


def _guarded(run: Any) -> Any:
    def handler(args: argparse.Namespace) -> int:
        try:
            code: int = run(args)
            return code
        except grpc.RpcError as exc:
            print(f"tavolo audit: {session.rpc_error_text(exc)}", file=sys.stderr)
        except (AuditError, session.NoSession, OSError, ValueError, KeyError) as exc:
            print(f"tavolo audit: {exc}", file=sys.stderr)
        return 2

    return handler


def _verify(args: argparse.Namespace) -> int:
    if args.file is not None:
        events, facts = _load(args), None
    else:
        events, facts = asyncio.run(fetch_with_facts(args.server, _token(args), args.table))
    checkpoints: list[Checkpoint] = []
    if args.checkpoints is not None:
        lines = args.checkpoints.read_text(encoding="utf-8").splitlines()
        checkpoints = [Checkpoint.from_json(line) for line in lines if line.strip()]
    key = args.checkpoint_key or installation_public_key()
    verdict = check_table(args.table, events, facts, args.receipt, checkpoints, key)
    for line in verdict.lines():
        print(line)
    return 0 if verdict.ok else 1


def installation_public_key() -> str:
    """The public half of the checkpoint key `tavolo up` keeps on this machine, else of
    the development key (a development platform's)."""
    kept = data_dir() / CHECKPOINT_KEY_FILE
    try:
        return public_hex(signing_key(kept.read_text().strip()))
    except (OSError, ValueError):
        return public_hex(signing_key())


def _show(args: argparse.Namespace) -> int:
    events = _load(args)
    seed = revealed_seed(events)
    if seed is None:
        raise AuditError(
            "the table is still in play: its seed, needed to rebuild it, is revealed when it ends"
        )
    at = args.at if args.at is not None else len(events)
    table = table_at(events, seed, at)
    event = events[at - 1]
    print(f"table {table.table_id} after event {at} ({event.type}), status {table.status}")
    seats = [args.seat] if args.seat is not None else list(range(len(table.seats)))
    for seat in seats:
        if not 0 <= seat < len(table.seats):
            raise AuditError(f"the table has seats 0 to {len(table.seats) - 1}")
        view = seat_view(table, seat)
        shown = {
            "seat": seat,
            "hand": list(view.hand),
            "public": dict(view.public),
            "private": dict(view.private),
            "to_act": list(view.to_act),
            "legal_actions": [a.to_dict() for a in view.legal_actions],
            "deadlines": [d.to_dict() for d in view.deadlines],
        }
        print(json.dumps(shown, indent=2, sort_keys=True))
    if args.seat is None:
        print("the event itself (the full truth, as recorded):")
        print(json.dumps(event.data, indent=2, sort_keys=True))
    return 0


def _export(args: argparse.Namespace) -> int:
    """Write the log (or its page) even when it was tampered with, the evidence an auditor
    keeps; then print the findings, as `verify` words them, and exit 1 if there are any."""
    if args.file is not None:
        events, facts = _load(args), None
    else:
        events, facts = asyncio.run(fetch_with_facts(args.server, _token(args), args.table))
    verdict = check_table(args.table, events, facts)
    if args.html is not None:
        context = None
        if args.file is None or args.lobby or args.wallet:
            context = asyncio.run(
                fetch_context(
                    args.table,
                    _token(args),
                    lobby=args.lobby or (session.address("lobby") if args.file is None else None),
                    wallet=args.wallet
                    or (session.address("wallet") if args.file is None else None),
                )
            )
            for why in context.missing:
                print(f"tavolo audit: the page leaves out {why}", file=sys.stderr)
        args.html.write_text(render_page(events, context, facts, verdict), encoding="utf-8")
        print(f"wrote the replay page of {len(events)} events to {args.html}", file=sys.stderr)
    elif args.output is None:
        write_jsonl(events, sys.stdout)
    else:
        with args.output.open("w", encoding="utf-8") as out:
            write_jsonl(events, out)
        print(f"wrote {len(events)} events to {args.output}", file=sys.stderr)
    for line in verdict.findings:
        print(f"tavolo audit: FINDING: {line}", file=sys.stderr)
    for line in verdict.platform:
        print(f"tavolo audit: ENGINE LOG FINDING: {line}", file=sys.stderr)
    if verdict.ok:
        return 0
    print(
        f"tavolo audit: table {args.table} does not verify: the export above holds the log"
        " as stored; `tavolo audit verify` says the same",
        file=sys.stderr,
    )
    return 1


def _dispute(args: argparse.Namespace) -> int:
    for line in dispute_lines(_load(args), args.seat, args.at):
        print(line)
    return 0


_handlers = {
    "verify": _guarded(_verify),
    "show": _guarded(_show),
    "export": _guarded(_export),
    "dispute": _guarded(_dispute),
}
