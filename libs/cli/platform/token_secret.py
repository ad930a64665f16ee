"""The secrets of one installation of ``tavolo up``: random, private, kept.

The token secret signs every session token, so whoever knows it can sign an operator's
token; the checkpoint key signs the log checkpoints auditors keep, so whoever knows it can
vouch for a rewritten log. ``tavolo up`` makes each at first start (32 random bytes) and
keeps it in its data folder, readable by its owner only, so sessions and checkpoints
survive a restart and no two installations share one. ``TAVOLO_TOKEN_SECRET`` and
``TAVOLO_CHECKPOINT_KEY`` set in the environment win.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

FILE_NAME = "token-secret"
CHECKPOINT_KEY_FILE = "checkpoint-key"
SECRET_BYTES = 32


class SecretFileError(Exception):
    """The kept secret cannot be read or is not fit to sign with; the message says why."""


def installation_secret(folder: Path) -> str:
    """The token secret kept under ``folder``, made on first use (mode 0600)."""
    return _kept(folder / FILE_NAME, secrets.token_urlsafe(SECRET_BYTES))


def installation_checkpoint_key(folder: Path) -> str:
    """The checkpoint signing key's seed (hex) kept under ``folder``, made on first use."""
    key = _kept(folder / CHECKPOINT_KEY_FILE, secrets.token_hex(SECRET_BYTES))
    try:
        seed = bytes.fromhex(key)
    except ValueError:
        seed = b""
    if len(seed) != SECRET_BYTES:
        raise SecretFileError(
            f"{folder / CHECKPOINT_KEY_FILE} does not hold 32 bytes in hex: delete it and a new"
            " key is made (checkpoints kept so far are then checked with the old public key)"
        )
    return key


def _kept(path: Path, fresh: str) -> str:
    """The secret in ``path``, written as ``fresh`` if there is none yet."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        # O_EXCL: two starts racing make one secret, and a file that exists is never
        # overwritten (that would log every player out).
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _read(path)
    with os.fdopen(descriptor, "w") as out:
        out.write(fresh + "\n")
    return _read(path)


def _read(path: Path) -> str:
    if path.stat().st_mode & 0o077:
        raise SecretFileError(
            f"{path} can be read by others: anyone who reads it can sign with it; run"
            f" `chmod 600 {path}`"
        )
    secret = path.read_text().strip()
    if len(secret.encode()) < 32:
        raise SecretFileError(
            f"{path} holds a secret shorter than 32 bytes: delete it and a new one is made"
        )
    return secret
