"""The token secret of one installation of ``tavolo up``: random, private, kept.

The secret signs every session token, so whoever knows it can sign an operator's token.
``tavolo up`` makes one at first start (32 random bytes, URL-safe text) and keeps it in
its data folder, readable by its owner only, so sessions survive a restart and no two
installations share a secret. ``TAVOLO_TOKEN_SECRET`` set in the environment wins.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

FILE_NAME = "token-secret"
SECRET_BYTES = 32


class SecretFileError(Exception):
    """The kept secret cannot be read or is not fit to sign with; the message says why."""


def installation_secret(folder: Path) -> str:
    """The secret kept under ``folder``, made on first use (mode 0600)."""
    path = folder / FILE_NAME
    folder.mkdir(parents=True, exist_ok=True)
    try:
        # O_EXCL: two starts racing make one secret, and a file that exists is never
        # overwritten (that would log every player out).
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _read(path)
    with os.fdopen(descriptor, "w") as out:
        out.write(secrets.token_urlsafe(SECRET_BYTES) + "\n")
    return _read(path)


def _read(path: Path) -> str:
    if path.stat().st_mode & 0o077:
        raise SecretFileError(
            f"{path} can be read by others: anyone who reads it can sign tokens; run"
            f" `chmod 600 {path}`"
        )
    secret = path.read_text().strip()
    if len(secret.encode()) < 32:
        raise SecretFileError(
            f"{path} holds a secret shorter than 32 bytes: delete it and a new one is made"
        )
    return secret
