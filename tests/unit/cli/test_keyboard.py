"""The terminal keyboard: lines as futures, read by the event loop, never a blocked thread."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from tavolo.cli.play.keyboard import TerminalKeyboard


async def test_lines_come_whole_from_a_pipe_and_end_with_none() -> None:
    reader, writer = os.pipe()
    keyboard = TerminalKeyboard(reader)
    try:
        first = keyboard.line()
        os.write(writer, b"1\nmo")
        assert await asyncio.wait_for(first, 10) == "1"
        assert keyboard.take() == "1"
        second = keyboard.line()
        await asyncio.sleep(0.05)
        assert not second.done()  # half a line is not a line
        os.write(writer, b"ve 1 2\nquit\n")
        assert await asyncio.wait_for(second, 10) == "move 1 2"
        keyboard.take()
        assert await asyncio.wait_for(keyboard.line(), 10) == "quit"  # from the buffer
        keyboard.take()
        os.close(writer)
        assert await asyncio.wait_for(keyboard.line(), 10) is None
    finally:
        keyboard.close()
        os.close(reader)


async def test_a_file_is_read_at_once(tmp_path: Path) -> None:
    script = tmp_path / "answers"
    script.write_text("2\n1")
    with script.open("rb") as answers:
        keyboard = TerminalKeyboard(answers.fileno())
        lines = []
        for _ in range(3):
            lines.append(await asyncio.wait_for(keyboard.line(), 10))
            keyboard.take()
        keyboard.close()
    assert lines == ["2", "1", None]


def test_a_read_under_way_does_not_stop_the_program_from_ending() -> None:
    program = textwrap.dedent(
        """
        import asyncio
        from tavolo.cli.play.keyboard import TerminalKeyboard

        async def main() -> None:
            keyboard = TerminalKeyboard()
            keyboard.line()  # the player never answers: the game ends meanwhile
            await asyncio.sleep(0.2)
            keyboard.close()
            print("game over")

        asyncio.run(main())
        """
    )
    reader, writer = os.pipe()  # stdin stays open and silent
    try:
        done = subprocess.run(
            [sys.executable, "-c", program], stdin=reader, capture_output=True, timeout=60
        )
    finally:
        os.close(reader)
        os.close(writer)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"game over\n", b"")
