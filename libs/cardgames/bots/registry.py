"""Bots by game and level: ``make_bot("pika", "hard", seed)``.

A game's bots live in ``tavolo.cardgames.bots.<family>.<game name>``, which exposes
``BOTS``: a mapping from level (easy, medium, hard) to a factory taking no argument.
Adding a game's bots is writing that module and naming its family in ``FAMILIES``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import cast

from tavolo.cardgames.bots.base import LEVELS, Bot, SeatedBot, seed_bytes
from tavolo.cardgames.errors import InvalidOptions
from tavolo.cardgames.rng import SeededRandom

FAMILIES: dict[str, str] = {
    "scopa": "fishing",
    "scopone": "fishing",
    "asso": "fishing",
    "cirulla": "fishing",
    "briscola": "tricks",
    "tresette": "tricks",
    "ciapano": "tricks",
    "bestia": "tricks",
    "hearts": "tricks",
    "spades": "tricks",
    "pika": "shedding",
    "uno": "shedding",
    "burraco": "rummy",
    "scala40": "rummy",
    "poker": "betting",
    "settemezzo": "betting",
    "solitario": "solitario",
}
"""The family package that holds each game's bots (the games' own families)."""


def bot_levels(game_name: str) -> tuple[str, ...]:
    """The levels offered for ``game_name`` (empty when the game has no bots)."""
    try:
        return tuple(_factories(game_name))
    except InvalidOptions:
        return ()


def make_bot(game_name: str, level: str, seed: bytes | str | int) -> SeatedBot:
    """A fresh bot for one seat; the same seed gives the same choices."""
    factories = _factories(game_name)
    if level not in factories:
        offered = ", ".join(factories)
        raise InvalidOptions(
            f"no {level!r} bot for {game_name}; levels: {offered}",
            reason="BOT_LEVEL_UNKNOWN",
            metadata={"allowed": offered},
        )
    return SeatedBot(game_name, level, factories[level](), SeededRandom(seed_bytes(seed)))


def _factories(game_name: str) -> Mapping[str, Callable[[], Bot]]:
    family = FAMILIES.get(game_name)
    if family is None:
        raise InvalidOptions(f"no bots for game {game_name!r}", reason="BOT_LEVEL_UNKNOWN")
    module = importlib.import_module(f"tavolo.cardgames.bots.{family}.{game_name}")
    bots = getattr(module, "BOTS", None)
    if not isinstance(bots, Mapping):
        raise InvalidOptions(f"no bots for game {game_name!r}", reason="BOT_LEVEL_UNKNOWN")
    found = cast(Mapping[str, Callable[[], Bot]], bots)
    return {level: found[level] for level in LEVELS if level in found}
