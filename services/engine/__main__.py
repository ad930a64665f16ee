"""``python -m tavolo.engine``: run the game engine service until SIGTERM."""

import sys

from tavolo.engine.bootstrap import assemble
from tavolo.servicekit.runtime import run_service

sys.exit(run_service("engine", assemble))
