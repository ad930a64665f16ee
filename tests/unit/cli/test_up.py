"""``tavolo up`` says why a service did not start, not only that it did not."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tavolo.cli.platform.up import _wait_ready
from tavolo.servicekit.settings import Settings

REFUSAL = "tavolo wallet: cannot start: NATS is too old"


def _exited_at_start(log: Path) -> subprocess.Popen[bytes]:
    """A child that logs as a refusing service does and exits with code 2."""
    script = f"import sys; print('starting'); print({REFUSAL!r}); sys.exit(2)"
    with log.open("ab") as output:
        child = subprocess.Popen([sys.executable, "-c", script], stdout=output)
    child.wait(30)
    return child


async def test_a_service_that_exits_at_start_is_reported_with_its_reason(tmp_path: Path) -> None:
    log = tmp_path / "wallet.log"
    child = _exited_at_start(log)
    settings = Settings(database_url="postgresql:///unused", nats_url="nats://unused")

    problem = await _wait_ready(settings, [("wallet", child)], tmp_path, limit=30)

    assert problem == f"wallet exited at start with code 2; log {log}\n  {REFUSAL}"
