"""Small pieces of wording every game's screen needs alike, in the client's language
(:mod:`tavolo.cli.i18n`)."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence

from tavolo.cli.i18n import _, ngettext


def you() -> str:
    """The human seat's name in the client's language: ``You``, ``Tu``."""
    return _("You")


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` … ``11th``, ``21st`` (``1º`` … in Italian): a
    place in words."""
    if 10 <= n % 100 <= 20:
        return _("{n}th").format(n=n)
    suffix = n % 10
    if suffix == 1:
        return _("{n}st").format(n=n)
    if suffix == 2:
        return _("{n}nd").format(n=n)
    if suffix == 3:
        return _("{n}rd").format(n=n)
    return _("{n}th").format(n=n)


def count(n: int, noun: str, plural: str) -> str:
    """``1 trick``, ``2 tricks``, ``1 asso``, ``0 assi``: a number of things in words; the
    catalogue holds ``noun``/``plural`` as one counted entry (``make i18n`` extracts
    ``count``'s second and third arguments as ngettext's)."""
    return f"{n} {ngettext(noun, plural, n)}"


def does(name: str, verb: str, you_verb: str) -> str:
    """``Bot 1 scores`` but ``You score`` (``Tu segni``): the verb agreeing with the
    seat's name. Both forms come translated: ``verb`` the third person, ``you_verb`` the
    form for the human's own seat."""
    return f"{name} {agree(name, verb, you_verb)}"


def agree(name: str, verb: str, you_verb: str) -> str:
    """The verb alone, as :func:`does` makes it agree: ``goes`` or, for You, ``go``."""
    return you_verb if name == you() else verb


def side_places(places: Sequence[int]) -> list[int]:
    """Each side's place among the sides, from the place of one of its seats: two
    partnerships read 1st and 2nd, not 1st and 3rd (seats' places count seats)."""
    return [1 + sum(1 for other in places if other < mine) for mine in places]


def match_words(match_length: str) -> str:
    """A table's ``match_length`` option as a player says it: ``points:51`` is "first to
    51 points", ``hands:3`` is "3 hands"; other values stand as they are."""
    kind, _sep, n = match_length.partition(":")
    if kind == "points" and n.isdigit():
        return _("first to {n} points").format(n=n)
    if kind == "hands" and n.isdigit():
        return count(int(n), "hand", "hands")
    return match_length


SCREEN_WIDTH = 80
"""Every line a game prints fits this many columns."""


def fit(text: str, width: int = SCREEN_WIDTH) -> str:
    """``text`` with every line longer than ``width`` wrapped, the rest of it indented
    under the line's start, so a long trick or list still reads in an 80-column
    terminal. Items set apart by two spaces or more (the cards of a hand, ``[6] yellow
    6``, a player and their score) stay whole; so do the parts of a list (a trick's
    plays, ``Bot 1 (easy) 7 coppe``), which break after a comma or before a bar or a
    dash; other lines break between words."""
    lines: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width:
            lines.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip()) + 4)
        filled = _fill_items(line, width, indent)
        if filled is not None:
            lines.extend(filled)
            continue
        lines.extend(
            textwrap.wrap(
                line,
                width,
                subsequent_indent=indent,
                break_long_words=False,
                break_on_hyphens=False,
            )
        )
    return "\n".join(lines)


def _fill_items(line: str, width: int, indent: str) -> list[str] | None:
    """The line filled item by item: items set apart by wide gaps, else the parts of a
    list (after a comma or a semicolon, before a bar or a dash); ``None`` when an item
    alone would not fit."""
    parts = re.split(r"(?<=\S)( {2,})(?=\S)", line)
    wide = (parts[::2], parts[1::2])
    pieces = [part for part in re.split(r"(?<=, )|(?<=; )|(?= \| )|(?= - )", line) if part]
    for items, gaps in (wide, (pieces, [""] * (len(pieces) - 1))):
        if len(items) > 1 and all(len(indent) + len(item.strip()) <= width for item in items):
            return _fill(items, gaps, width, indent)
    return None


def _fill(items: Sequence[str], gaps: Sequence[str], width: int, indent: str) -> list[str]:
    """Items with their gaps between them, as many to a line as fit."""
    lines = [items[0]]
    for gap, item in zip(gaps, items[1:], strict=True):
        if len((lines[-1] + gap + item).rstrip()) <= width:
            lines[-1] += gap + item
        else:
            lines.append(indent + item.lstrip())
    return [line.rstrip() for line in lines]
