"""Every game the platform offers, by its stable name (the name used in options and events)."""

from __future__ import annotations

from typing import Any

from tavolo.cardgames.contract import Game
from tavolo.cardgames.errors import InvalidOptions


def all_games() -> dict[str, Game[Any]]:
    """Name → engine. Imported lazily so that loading one game does not load them all."""
    from tavolo.cardgames.games.asso import AssoPigliatutto
    from tavolo.cardgames.games.bestia import Bestia
    from tavolo.cardgames.games.briscola import Briscola
    from tavolo.cardgames.games.burraco import Burraco
    from tavolo.cardgames.games.ciapano import Ciapano
    from tavolo.cardgames.games.cirulla import Cirulla
    from tavolo.cardgames.games.hearts import Hearts
    from tavolo.cardgames.games.pika import Pika
    from tavolo.cardgames.games.poker import Poker
    from tavolo.cardgames.games.scala40 import Scala40
    from tavolo.cardgames.games.scopa import Scopa
    from tavolo.cardgames.games.scopone import Scopone
    from tavolo.cardgames.games.settemezzo import SetteMezzo
    from tavolo.cardgames.games.solitario import Solitario
    from tavolo.cardgames.games.spades import Spades
    from tavolo.cardgames.games.tresette import Tresette
    from tavolo.cardgames.games.uno import Uno

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
            f"unknown game {name[:40]!r}; games offered: {', '.join(sorted(games))}"
        ) from None
