"""``tavolo audit checkpoints``: keep the signed checkpoints a service publishes on NATS.

An auditor runs it beside the platform and keeps the file: ``tavolo audit verify TABLE
--checkpoints FILE`` later holds the engine's log to every checkpoint in it. The
checkpoints' worth is that someone other than the operator kept them, so each is written
to the file as it arrives: a collector stopped early keeps what it heard.
"""

from __future__ import annotations

import argparse
import asyncio
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

import nats

from tavolo.cli.platform.up import EMBEDDED_NATS_PORT
from tavolo.eventlog.checkpoint import Checkpoint, checkpoint_subject

DEFAULT_NATS = f"nats://127.0.0.1:{EMBEDDED_NATS_PORT}"


def register(commands: Any) -> None:
    text = "append the signed log checkpoints a service publishes to a file"
    sub = commands.add_parser("checkpoints", help=text, description=__doc__)
    sub.add_argument("-o", "--output", type=Path, required=True, help="file to append to")
    sub.add_argument("--service", default="engine", help="whose checkpoints (default engine)")
    sub.add_argument("--seconds", type=float, default=60.0, help="how long to listen")
    sub.add_argument(
        "--nats",
        default=os.environ.get("TAVOLO_NATS_URL", DEFAULT_NATS),
        help=f"NATS address (default $TAVOLO_NATS_URL, else {DEFAULT_NATS}, where `tavolo up`"
        " runs its own)",
    )
    sub.add_argument(
        "--namespace", default=os.environ.get("TAVOLO_NAMESPACE", "tavolo"), help="namespace"
    )
    sub.set_defaults(handler=_collect)


def _collect(args: argparse.Namespace) -> int:
    with args.output.open("a", encoding="utf-8") as out:
        kept = asyncio.run(
            collect(
                args.nats,
                checkpoint_subject(args.namespace, args.service),
                args.seconds,
                lambda checkpoint: _append(out, checkpoint),
            )
        )
    print(f"kept {len(kept)} checkpoints in {args.output}")
    return 0 if kept else 1


def _append(out: TextIO, checkpoint: Checkpoint) -> None:
    out.write(checkpoint.to_json() + "\n")
    out.flush()


async def collect(
    url: str,
    subject: str,
    seconds: float,
    on_each: Callable[[Checkpoint], None] = lambda checkpoint: None,
) -> list[Checkpoint]:
    """The checkpoints published on ``subject`` during ``seconds``, each handed to
    ``on_each`` as it arrives."""
    kept: list[Checkpoint] = []
    client = await nats.connect(url)
    try:

        async def keep(message: Any) -> None:
            checkpoint = Checkpoint.from_json(message.data)
            kept.append(checkpoint)
            on_each(checkpoint)

        await client.subscribe(subject, cb=keep)
        await asyncio.sleep(seconds)
    finally:
        await client.drain()
    return kept
