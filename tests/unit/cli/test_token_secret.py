"""``tavolo up`` signs with a random secret of its own installation, kept private."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from tavolo.cli.platform.token_secret import (
    CHECKPOINT_KEY_FILE,
    FILE_NAME,
    SecretFileError,
    installation_checkpoint_key,
    installation_secret,
)
from tavolo.eventlog.checkpoint import DEV_CHECKPOINT_SEED, signing_key
from tavolo.servicekit.settings import DEV_TOKEN_SECRET, Settings, checkpoint_key_problem


def test_a_new_installation_makes_a_private_secret_and_keeps_it(tmp_path: Path) -> None:
    first = installation_secret(tmp_path / "data")
    path = tmp_path / "data" / FILE_NAME
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(first.encode()) >= 32 and first != DEV_TOKEN_SECRET
    assert installation_secret(tmp_path / "data") == first  # a restart keeps sessions valid


def test_two_installations_do_not_share_a_secret(tmp_path: Path) -> None:
    assert installation_secret(tmp_path / "a") != installation_secret(tmp_path / "b")


def test_a_secret_file_others_can_read_is_refused(tmp_path: Path) -> None:
    installation_secret(tmp_path)
    (tmp_path / FILE_NAME).chmod(0o644)
    with pytest.raises(SecretFileError, match="can be read by others"):
        installation_secret(tmp_path)


def test_a_new_installation_makes_a_private_checkpoint_key_and_keeps_it(tmp_path: Path) -> None:
    """AUDIT-3: `tavolo up` signs checkpoints with a key of its own installation, never the
    development key in the source."""
    first = installation_checkpoint_key(tmp_path / "data")
    path = tmp_path / "data" / CHECKPOINT_KEY_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert bytes.fromhex(first) != DEV_CHECKPOINT_SEED
    signing_key(first)  # a valid Ed25519 seed
    assert (
        checkpoint_key_problem(Settings("postgresql://x", "nats://x", checkpoint_key=first)) is None
    )
    assert installation_checkpoint_key(tmp_path / "data") == first  # kept across restarts
    assert installation_checkpoint_key(tmp_path / "other") != first
    (tmp_path / "data" / CHECKPOINT_KEY_FILE).chmod(0o644)
    with pytest.raises(SecretFileError, match="can be read by others"):
        installation_checkpoint_key(tmp_path / "data")
