"""How big fault and load tests run: modest inside `make test`, full in `make soak`."""

from __future__ import annotations

import os

FULL = os.environ.get("TAVOLO_SOAK") == "full"


def scaled(modest: int, full: int) -> int:
    """``full`` under `make soak` (TAVOLO_SOAK=full), else ``modest``."""
    return full if FULL else modest
