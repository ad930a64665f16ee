"""``python -m tavolo.leaderboard``: serve the leaderboard until SIGTERM."""

from __future__ import annotations

import sys

from tavolo.leaderboard.bootstrap import make_assemble
from tavolo.leaderboard.config import LeaderboardConfig
from tavolo.servicekit.runtime import run_service
from tavolo.servicekit.settings import SettingsError


def main() -> int:
    # Read here, before anything starts, so a bad value stops the process with one line.
    try:
        config = LeaderboardConfig.from_env()
    except SettingsError as exc:
        print(f"tavolo leaderboard: bad settings: {exc}", file=sys.stderr)
        return 2
    return run_service("leaderboard", make_assemble(config))


if __name__ == "__main__":
    sys.exit(main())
