"""Bad settings stop a service at start with a clear message, not a traceback (PLAT-6)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tavolo.servicekit.embedded import free_port
from tests.secret import TEST_CHECKPOINT_KEY, TEST_TOKEN_SECRET


def _start(service: str, **overrides: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAVOLO_")}
    env["TAVOLO_TOKEN_SECRET"] = TEST_TOKEN_SECRET
    env["TAVOLO_CHECKPOINT_KEY"] = TEST_CHECKPOINT_KEY
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


@pytest.mark.parametrize("service", ["lobby", "engine", "wallet", "leaderboard"])
def test_the_public_development_secret_is_refused_outside_development(
    service: str, database_url: str, nats_url: str
) -> None:
    """Anyone can read the development secret in the source and sign an operator's token
    with it, so no service signs or accepts tokens with it unless told it is in
    development."""
    result = _start(
        service, TAVOLO_DATABASE_URL=database_url, TAVOLO_NATS_URL=nats_url, TAVOLO_TOKEN_SECRET=""
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert lines[-1].startswith(f"tavolo {service}: cannot start: TAVOLO_TOKEN_SECRET is not set")
    assert "Traceback" not in result.stderr


def test_development_must_be_said_to_use_the_development_secret(nats_url: str) -> None:
    dead = free_port()
    result = _start(
        "wallet",
        TAVOLO_DATABASE_URL=f"postgresql://postgres@127.0.0.1:{dead}/x",
        TAVOLO_NATS_URL=nats_url,
        TAVOLO_TOKEN_SECRET="",
        TAVOLO_DEVELOPMENT="1",
    )
    assert result.returncode == 2  # past the secret, stopped by the database
    assert f"127.0.0.1:{dead}" in result.stderr and "TAVOLO_TOKEN_SECRET" not in result.stderr


@pytest.mark.parametrize("service", ["lobby", "engine", "wallet", "leaderboard"])
def test_the_development_checkpoint_key_is_refused_outside_development(
    service: str, database_url: str, nats_url: str
) -> None:
    """The development checkpoint key is in the source: a checkpoint signed with it would
    vouch for a rewritten log, so no service signs with it unless told it is in
    development (AUDIT-3)."""
    result = _start(
        service,
        TAVOLO_DATABASE_URL=database_url,
        TAVOLO_NATS_URL=nats_url,
        TAVOLO_CHECKPOINT_KEY="",
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert lines[-1].startswith(f"tavolo {service}: cannot start: TAVOLO_CHECKPOINT_KEY is not set")
    assert "Traceback" not in result.stderr
