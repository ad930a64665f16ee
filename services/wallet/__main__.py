"""``python -m tavolo.wallet``: serve the wallet until SIGTERM."""

from __future__ import annotations

import sys

from tavolo.servicekit.runtime import run_service
from tavolo.wallet.bootstrap import assemble

if __name__ == "__main__":
    sys.exit(run_service("wallet", assemble))
