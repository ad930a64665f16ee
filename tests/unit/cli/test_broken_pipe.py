"""`tavolo ... | head`: a reader that goes away stops the command quietly."""

from __future__ import annotations

import os
import subprocess
import sys


def test_a_closed_pipe_prints_no_traceback() -> None:
    argv = ["play", "pika", "--players", "2", "--seed", "pipe"]  # its opening lines, then EOF
    reader, writer = os.pipe()
    os.close(reader)  # the reader is gone before the command writes a byte
    try:
        done = subprocess.run(
            [sys.executable, "-m", "tavolo.cli", *argv],
            stdin=subprocess.DEVNULL,
            stdout=writer,
            stderr=subprocess.PIPE,
            timeout=60,
        )
    finally:
        os.close(writer)
    assert done.stderr.decode() == ""
    assert done.returncode == 141
