"""``python -m tavolo.lobby``: run the lobby until SIGTERM or SIGINT."""

from __future__ import annotations

import sys

from tavolo.lobby.bootstrap import assemble
from tavolo.servicekit.runtime import run_service

if __name__ == "__main__":
    sys.exit(run_service("lobby", assemble))
