"""``python -m tavolo.leaderboard``: serve the leaderboard until SIGTERM."""

from __future__ import annotations

import sys

from tavolo.leaderboard.bootstrap import assemble
from tavolo.servicekit.runtime import run_service

if __name__ == "__main__":
    sys.exit(run_service("leaderboard", assemble))
