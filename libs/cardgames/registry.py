"""Every game the platform offers, by its stable name (the name used in options and events)."""

from __future__ import annotations

from typing import Any

from tavolo.cardgames.contract import Game
from tavolo.cardgames.errors import InvalidOptions


def all_games() -> dict[str, Game[Any]]:
    """Name → engine. Imported lazily so that loading one game does not load them all."""
    from tavolo.cardgames.games.betting.poker import Poker
    from tavolo.cardgames.games.betting.settemezzo import SetteMezzo
    from tavolo.cardgames.games.fishing.asso import AssoPigliatutto
    from tavolo.cardgames.games.fishing.cirulla import Cirulla
    from tavolo.cardgames.games.fishing.scopa import Scopa
    from tavolo.cardgames.games.fishing.scopone import Scopone
    from tavolo.cardgames.games.rummy.burraco import Burraco
    from tavolo.cardgames.games.rummy.scala40 import Scala40
    from tavolo.cardgames.games.shedding.pika import Pika
    from tavolo.cardgames.games.shedding.uno import Uno
    from tavolo.cardgames.games.solitario.solitario import Solitario
    from tavolo.cardgames.games.tricks.bestia import Bestia
    from tavolo.cardgames.games.tricks.briscola import Briscola
    from tavolo.cardgames.games.tricks.ciapano import Ciapano
    from tavolo.cardgames.games.tricks.hearts import Hearts
    from tavolo.cardgames.games.tricks.spades import Spades
    from tavolo.cardgames.games.tricks.tresette import Tresette

    games: list[Game[Any]] = [
        Pika(),
        Spades(),
        Uno(),
        Hearts(),
        Briscola(),
        Tresette(),
        Ciapano(),
        Bestia(),
        Scopa(),
        Scopone(),
        AssoPigliatutto(),
        Cirulla(),
        Burraco(),
        Scala40(),
        Solitario(),
        Poker(),
        SetteMezzo(),
    ]
    return {g.name: g for g in games}


def get_game(name: str) -> Game[Any]:
    games = all_games()
    try:
        return games[name]
    except KeyError:
        raise InvalidOptions(
            f"unknown game {name[:40]!r}; games offered: {', '.join(sorted(games))}",
            reason="GAME_UNKNOWN",
            metadata={"game": name[:40], "allowed": sorted(games)},
        ) from None
