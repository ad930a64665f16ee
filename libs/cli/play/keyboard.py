"""Lines typed by the player, read without stopping the event loop.

A seat at the engine must go on showing the table while its player thinks, so a line is
a future: :meth:`Keyboard.line` starts one read (or returns the one under way) and the
client awaits it beside the table's stream. Two kinds:

- :class:`TerminalKeyboard`, the real one: the event loop watches standard input and
  reads it with ``os.read`` when it is readable, so no thread is ever left blocked in
  ``input()`` (a daemon thread stuck there aborts the interpreter at exit);
- :class:`ThreadKeyboard`, for a function standing in for the keyboard (tests, scripts):
  it calls the function on a daemon thread, one line at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import Callable
from typing import Protocol


class Keyboard(Protocol):
    pending: asyncio.Future[str | None] | None
    """The read under way, or done and not yet taken."""

    def line(self) -> asyncio.Future[str | None]:
        """The next line (``None`` at end of input): the read under way, or a new one."""

    def take(self) -> str | None:
        """The line that arrived; the next :meth:`line` starts a new read."""

    def close(self) -> None:
        """Stop reading."""


class TerminalKeyboard:
    """Standard input, read by the event loop as it becomes readable.

    Bytes past the first newline wait in a buffer for the next line. A regular file or
    ``/dev/null`` cannot be watched by the loop, but never blocks either: it is read at
    once."""

    def __init__(self, fd: int = 0) -> None:
        self.fd = fd
        self.pending: asyncio.Future[str | None] | None = None
        self._buffer = b""
        self._eof = False
        self._watched: asyncio.AbstractEventLoop | None = None

    def line(self) -> asyncio.Future[str | None]:
        if self.pending is not None:
            return self.pending
        loop = asyncio.get_running_loop()
        self.pending = loop.create_future()
        if self._deliver():
            return self.pending
        try:
            loop.add_reader(self.fd, self._readable)
            self._watched = loop
        except (PermissionError, ValueError, OSError):  # a file: it never blocks
            while not self._deliver():
                self._read()
        return self.pending

    def take(self) -> str | None:
        assert self.pending is not None and self.pending.done()
        line = self.pending.result()
        self.pending = None
        return line

    def close(self) -> None:
        self._unwatch()

    def _readable(self) -> None:
        self._read()
        if self._deliver():
            self._unwatch()

    def _read(self) -> None:
        chunk = os.read(self.fd, 4096)
        if chunk:
            self._buffer += chunk
        else:
            self._eof = True

    def _deliver(self) -> bool:
        """Complete the pending read if a whole line (or the end) is there."""
        assert self.pending is not None
        if b"\n" in self._buffer:
            line, self._buffer = self._buffer.split(b"\n", 1)
            self.pending.set_result(line.decode(errors="replace").rstrip("\r"))
            return True
        if self._eof:
            rest, self._buffer = self._buffer, b""
            self.pending.set_result(rest.decode(errors="replace") if rest else None)
            return True
        return False

    def _unwatch(self) -> None:
        if self._watched is not None:
            self._watched.remove_reader(self.fd)
            self._watched = None


class ThreadKeyboard:
    """A function standing in for the keyboard, called on a daemon thread per line.

    A call under way cannot be called back, so the line it returns answers whatever
    prompt is on screen when it arrives."""

    def __init__(self, input_line: Callable[[str], str | None]) -> None:
        self.input_line = input_line
        self.pending: asyncio.Future[str | None] | None = None

    def line(self) -> asyncio.Future[str | None]:
        if self.pending is not None:
            return self.pending
        loop = asyncio.get_running_loop()
        future: asyncio.Future[str | None] = loop.create_future()

        def deliver(line: str | None) -> None:
            if not future.done():
                future.set_result(line)

        def read() -> None:
            try:
                line = self.input_line("")
            except EOFError:
                line = None
            with contextlib.suppress(RuntimeError):  # the loop ended: nobody waits for it
                loop.call_soon_threadsafe(deliver, line)

        threading.Thread(target=read, name="tavolo-keyboard", daemon=True).start()
        self.pending = future
        return future

    def take(self) -> str | None:
        assert self.pending is not None and self.pending.done()
        line = self.pending.result()
        self.pending = None
        return line

    def close(self) -> None:
        """Nothing to stop: a call under way ends with the function."""
