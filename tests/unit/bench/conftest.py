"""The bench's own modules (``bench/league``, ``bench/spiel``) import as the scripts
import them: from the ``bench`` directory."""

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[3] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))
