"""What ``tavolo play GAME --help`` says about the game itself: the table sizes it takes,
the bots' default level, a partner's level, and every table option with its default and
the values allowed (the same options ``--option NAME=VALUE`` sets)."""

from __future__ import annotations

import argparse
import json
import textwrap
from typing import Any

from tavolo.cardgames.registry import get_game
from tavolo.cli.i18n import _, pgettext
from tavolo.cli.play.renderers import PARTNER_LEVEL, RENDERERS, game_title, partnerships

DEFAULT_PLAYERS: dict[str, int] = {
    "solitario": 1,
}
"""Games whose table is not four seats unless ``--players`` says so."""
DEFAULT_LEVEL = "medium"
"""The opponents' level unless ``--level`` says otherwise."""


class GameHelp(argparse.Action):
    """``--help``: the command's help, then the named game's own (options with defaults
    and allowed values, the seat counts, the bots)."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        parser.print_help()
        game = getattr(namespace, "game", None)
        if game in RENDERERS:
            print()
            print(game_help(game))
        parser.exit()


def seat_counts_text(game_name: str) -> str:
    """``4``, ``2 or 4``, ``2 to 6``: the table sizes a game takes, as a player says them."""
    counts = get_game(game_name).seat_counts()
    if len(counts) == 1:
        return str(counts[0])
    if list(counts) == list(range(counts[0], counts[-1] + 1)) and len(counts) > 2:
        return _("{low} to {high}").format(low=counts[0], high=counts[-1])
    return _(" or ").join(str(n) for n in counts)


def game_help(game_name: str) -> str:
    """What ``tavolo play GAME --help`` adds about the game itself."""
    game = get_game(game_name)
    players = DEFAULT_PLAYERS.get(game_name, 4)
    lines = [
        _("{title} is for {counts} players (--players, default {players}).").format(
            title=game_title(game_name), counts=seat_counts_text(game_name), players=players
        ),
        _("Bots play at --level {level} unless you choose another level.").format(
            level=DEFAULT_LEVEL
        ),
    ]
    if partnerships(game_name, players):
        lines.append(
            _("Partnerships: your partner plays at --partner {level} unless you choose.").format(
                level=PARTNER_LEVEL
            )
        )
    if not game.option_specs:
        lines.append(_("Options: none."))
        return "\n".join(lines)
    lines.append(_("Options (--option NAME=VALUE; the default first):"))
    for spec in game.option_specs:
        allowed = ""
        if spec.choices is not None:
            allowed = " " + _("(one of {values})").format(
                values=", ".join(_option_text(c) for c in spec.choices)
            )
        lines.append(f"  {spec.name}={_option_text(spec.default)}{allowed}")
        doc = pgettext("option", spec.doc)  # the rules' words, in the client's language
        lines.extend(f"      {part}" for part in textwrap.wrap(doc, 72))
    return "\n".join(lines)


def _option_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)
