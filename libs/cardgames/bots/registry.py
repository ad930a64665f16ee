"""Bots by game and level: ``make_bot("pika", "hard", seed)``.

A game's bots live in ``tavolo.cardgames.bots.<game name>``, which exposes ``BOTS``: a
mapping from level (easy, medium, hard) to a factory taking no argument. Adding a game's
bots is writing that module; nothing here changes.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import cast

from tavolo.cardgames.bots.base import LEVELS, Bot, SeatedBot, seed_bytes
from tavolo.cardgames.errors import InvalidOptions
from tavolo.cardgames.rng import SeededRandom


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
        raise InvalidOptions(f"no {level!r} bot for {game_name}; levels: {offered}")
    return SeatedBot(game_name, level, factories[level](), SeededRandom(seed_bytes(seed)))


def _factories(game_name: str) -> Mapping[str, Callable[[], Bot]]:
    if not game_name.isidentifier():
        raise InvalidOptions(f"no bots for game {game_name!r}")
    try:
        module = importlib.import_module(f"tavolo.cardgames.bots.{game_name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"tavolo.cardgames.bots.{game_name}":
            raise
        raise InvalidOptions(f"no bots for game {game_name!r}") from None
    bots = getattr(module, "BOTS", None)
    if not isinstance(bots, Mapping):
        raise InvalidOptions(f"no bots for game {game_name!r}")
    found = cast(Mapping[str, Callable[[], Bot]], bots)
    return {level: found[level] for level in LEVELS if level in found}
