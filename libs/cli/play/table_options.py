"""``--option NAME=VALUE`` on the command line: a table's game options (PCG-6).

A value that reads as JSON (``3``, ``1.5``, ``true``) is taken as such, anything else as
text, so ``--option match_length=hands:3 --option blind_nil=true`` says what it means.
The lobby checks the options against the game's rules and names what it allows.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from google.protobuf import json_format, struct_pb2

from tavolo.cli.i18n import _, pgettext


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--option",
        dest="options",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=_("a game option, e.g. match_length=hands:3 (repeat for more)"),
    )


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    """``["match_length=hands:3", "target=300"]`` gives
    ``{"match_length": "hands:3", "target": 300}``."""
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or not name.strip():
            raise ValueError(_("an option is NAME=VALUE, not {pair}").format(pair=repr(pair)))
        try:
            value: Any = json.loads(text)
        except json.JSONDecodeError:
            value = text
        options[name.strip()] = value
    return options


def options_struct(pairs: Sequence[str]) -> struct_pb2.Struct:
    struct = struct_pb2.Struct()
    struct.update(parse_options(pairs))
    return struct


def describe_options(options: dict[str, Any]) -> str:
    """``match_length=hands:3, pika_window=3`` for a room or table line."""
    return ", ".join(f"{k}={_text(v)}" for k, v in sorted(options.items())) or _("none")


def _text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return value if isinstance(value, str) else json.dumps(value)


def option_line(option: Any) -> str:
    """One ``GameOption`` for ``tavolo room games``: name, default, values allowed, meaning."""
    default = _text(json_format.MessageToDict(option.default))
    choices = [_text(json_format.MessageToDict(c)) for c in option.choices]
    allowed = " " + _("(one of {values})").format(values=", ".join(choices)) if choices else ""
    return f"{option.name}={default}{allowed}: {pgettext('option', option.doc)}"
