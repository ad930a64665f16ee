"""The commands the client prints for the next step, and its help texts."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator

from tavolo.cli.lobby.account import invited_line
from tavolo.cli.main import build_parser

REQUIREMENT_ID = re.compile(r"\b[A-Z]{2,}-\d")


def test_the_invite_tells_the_invitee_to_answer_as_themselves() -> None:
    line = invited_line("R1", "Marco", "Giulia")
    assert "`tavolo room accept R1 --as Marco`" in line
    assert "`tavolo room start R1 --as Giulia`" in line


def _texts(parser: argparse.ArgumentParser) -> Iterator[tuple[str, str]]:
    for text in (parser.description, parser.epilog):
        if text:
            yield parser.prog, text
    for action in parser._actions:
        if action.help:
            yield parser.prog, str(action.help)
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                if choice.help:
                    yield parser.prog, str(choice.help)
            for sub in action.choices.values():
                yield from _texts(sub)


def test_help_texts_cite_no_requirement_ids() -> None:
    texts = list(_texts(build_parser()))
    assert len({prog for prog, _ in texts}) > 10  # the walk reached the sub-commands
    cited = [(prog, text) for prog, text in texts if REQUIREMENT_ID.search(text)]
    assert cited == []
