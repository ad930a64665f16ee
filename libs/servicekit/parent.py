"""A child service stops when the process that started it is gone.

`tavolo up` runs each service as a child and stops them in order on Ctrl-C or SIGTERM.
If `tavolo up` itself is killed (SIGKILL, an out-of-memory kill, a test harness giving up
on it), its children would otherwise live on as orphans: holding their ports, retrying a
database that was stopped with it, and logging each failure. ``TAVOLO_PARENT_PID`` names
the parent; on Linux the kernel then sends the child SIGTERM when the parent dies
(``PR_SET_PDEATHSIG``), which runs the service's ordinary graceful stop.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
from collections.abc import Mapping

PARENT_PID = "TAVOLO_PARENT_PID"
_PR_SET_PDEATHSIG = 1


def stop_with_parent(env: Mapping[str, str] = os.environ) -> bool:
    """Ask for SIGTERM when the parent named in ``env`` dies; False if it is gone already
    (the caller then does not start at all)."""
    wanted = env.get(PARENT_PID, "")
    if not wanted.isdigit():
        return True
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    # The parent may have died before the request was made: then no signal will come.
    return os.getppid() == int(wanted)
