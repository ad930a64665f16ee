"""Bad settings stop a service at start with a clear message, not a traceback (PLAT-6)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tavolo.servicekit.embedded import free_port


def _start(service: str, **overrides: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAVOLO_")}
    env.update(overrides)
    return subprocess.run(
        [sys.executable, "-m", f"tavolo.{service}"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("service", ["engine", "wallet"])
def test_an_unreachable_database_is_named(service: str, nats_url: str) -> None:
    dead = free_port()
    result = _start(
        service,
        TAVOLO_DATABASE_URL=f"postgresql://postgres@127.0.0.1:{dead}/x",
        TAVOLO_NATS_URL=nats_url,
    )
    assert result.returncode == 2
    assert "cannot start" in result.stderr and f"127.0.0.1:{dead}" in result.stderr
    assert "Traceback" not in result.stderr


def test_an_unreachable_nats_is_named(database_url: str) -> None:
    dead = free_port()
    result = _start(
        "leaderboard", TAVOLO_DATABASE_URL=database_url, TAVOLO_NATS_URL=f"nats://127.0.0.1:{dead}"
    )
    assert result.returncode == 2
    assert "cannot start" in result.stderr and f"127.0.0.1:{dead}" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_malformed_url_is_named() -> None:
    result = _start("lobby", TAVOLO_DATABASE_URL="mysql://nope", TAVOLO_NATS_URL="nats://x:1")
    assert result.returncode == 2
    assert "TAVOLO_DATABASE_URL" in result.stderr
    assert "Traceback" not in result.stderr
