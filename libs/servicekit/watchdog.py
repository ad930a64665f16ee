"""The embedded PostgreSQL and NATS stop when `tavolo up` is gone, however it went.

`tavolo up` stops its servers itself on Ctrl-C or SIGTERM. Killed outright (SIGKILL, an
out-of-memory kill, a harness giving up on it), it cannot, and the servers would run on
as orphans holding their ports and data folders: its services already stop through the
kernel's parent-death signal (`tavolo.servicekit.parent`), but PostgreSQL cannot ask for
it (``pg_ctl`` detaches the postmaster from whoever started it). So `tavolo up` starts
this small process beside them; it looks every 0.2 s whether its parent is still
`tavolo up` (a signal could arrive between the look and the wait; a look cannot be
missed), and when it is gone stops what is still running: the postmaster found through
its pid file (SIGINT: PostgreSQL's fast shutdown) and nats-server (SIGTERM: its own
graceful stop). After an ordinary stop it finds nothing left to do.

    python -m tavolo.servicekit.watchdog PARENT_PID POSTGRES_DATA|- NATS_PID[,NATS_PID...]|0
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from tavolo.servicekit.embedded import postmaster_pid

LOOK_SECONDS = 0.2


def start(
    parent: int, postgres_data: Path | None, nats_pids: Sequence[int | None]
) -> subprocess.Popen[bytes]:
    """The watchdog of ``parent``'s embedded servers."""
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tavolo.servicekit.watchdog",
            str(parent),
            str(postgres_data) if postgres_data else "-",
            ",".join(str(pid) for pid in nats_pids if pid) or "0",
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # a Ctrl-C at the terminal is for `tavolo up`, not for it
    )


def stop_orphans(postgres_data: Path | None, *nats_pids: int) -> None:
    """Stop the postmaster of ``postgres_data`` and the nats-servers ``nats_pids`` (one, or
    the nodes of a cluster) if running."""
    postmaster = postmaster_pid(postgres_data) if postgres_data is not None else None
    if postmaster is not None:
        _signal_if(postmaster, b"postgres", signal.SIGINT)
    for pid in nats_pids:
        if pid:
            _signal_if(pid, b"nats-server", signal.SIGTERM)


def _signal_if(pid: int, program: bytes, signum: signal.Signals) -> None:
    """Signal ``pid`` only if it still runs ``program`` (a pid is reused once it ends)."""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return
    if program in command:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signum)


def main(argv: list[str]) -> int:
    parent, postgres, nats = argv
    postgres_data = None if postgres == "-" else Path(postgres)
    nats_pids = [int(pid) for pid in nats.split(",")]
    while os.getppid() == int(parent):
        time.sleep(LOOK_SECONDS)
    stop_orphans(postgres_data, *nats_pids)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
