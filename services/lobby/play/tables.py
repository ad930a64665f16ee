"""What a table is made of before the engine plays it: game, seats, options, mode, bots.

Pure. The lobby checks a requested table against the rules engines' own contract
(``tavolo.cardgames``) so that a bad game name, seat count or option is refused when the
player asks, with the game's own message, and not later by the engine.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from tavolo.cardgames.errors import InvalidOptions
from tavolo.cardgames.registry import get_game
from tavolo.servicekit.errors import InvalidArgument

STAKES = (100, 250, 500, 1000)  # MODE-4


class Mode(StrEnum):
    VERSUS_COMPUTER = "versus_computer"
    VERSUS_FRIENDS = "versus_friends"
    ONLINE = "online"
    STAKE = "stake"
    TOURNAMENT = "tournament"


class BotLevel(StrEnum):
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


@dataclass(frozen=True, slots=True)
class TableSpec:
    """A game, its seat count and its options, all checked; ``options`` are JSON-safe."""

    game: str
    players: int
    options: Mapping[str, Any]

    @property
    def options_json(self) -> str:
        """Canonical text of the options: equal options give equal text."""
        return json.dumps(self.options, sort_keys=True, separators=(",", ":"))

    def pool(self, stake: int) -> str:
        """The matchmaking pool: tickets wanting exactly the same table meet here."""
        return f"{self.game}|{self.players}|{stake}|{self.options_json}"


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat; a bot seat has no player id."""

    seat: int
    player_id: str | None
    nickname: str
    bot_level: BotLevel | None = None

    @property
    def bot(self) -> bool:
        return self.player_id is None


def _plain(value: Any) -> Any:
    """A protobuf Struct carries every number as a float: give whole numbers back as ints."""
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def table_spec(game: str, players: int, options: Mapping[str, Any] | None) -> TableSpec:
    """Check a requested table against the game's rules; refuse with the game's reason."""
    name = game.strip().lower()
    if not name:
        raise InvalidArgument(
            "choose a game, e.g. 'pika'", reason="FIELD_REQUIRED", metadata={"field": "game"}
        )
    try:
        rules = get_game(name)
    except InvalidOptions as exc:
        raise InvalidArgument(str(exc), reason=exc.reason, metadata=exc.metadata) from None
    if not rules.min_players <= players <= rules.max_players:
        raise InvalidArgument(
            f"{rules.title} is for {rules.min_players} to {rules.max_players} players,"
            f" not {players}",
            reason="PLAYER_COUNT_INVALID",
            metadata={"game": rules.name, "min": rules.min_players, "max": rules.max_players},
        )
    given = {str(k): _plain(v) for k, v in dict(options or {}).items()}
    names = {spec.name for spec in rules.option_specs}
    if "players" in names:
        # The seat count decides the 'players' option; an explicit one must agree.
        if given.get("players", players) != players:
            raise InvalidArgument(
                f"option 'players' is {given['players']!r} but the table has {players} seats",
                reason="OPTION_INVALID",
                metadata={"option": "players", "allowed": players},
            )
        given["players"] = players
    try:
        merged = rules.options(given)
    except InvalidOptions as exc:
        raise InvalidArgument(str(exc), reason=exc.reason, metadata=exc.metadata) from None
    return TableSpec(name, players, merged)


def check_stake(stake: int) -> int:
    """0 for an online table, or one of the stake levels (MODE-4)."""
    if stake != 0 and stake not in STAKES:
        levels = ", ".join(str(s) for s in STAKES)
        raise InvalidArgument(
            f"a stake is one of {levels} coins (or 0 for no stake), not {stake}",
            reason="STAKE_INVALID",
            metadata={"allowed": levels},
        )
    return stake


def bot_seats(first_seat: int, count: int, level: BotLevel) -> list[Seat]:
    """``count`` bot seats numbered from ``first_seat``."""
    return [
        Seat(
            seat=first_seat + i,
            player_id=None,
            nickname=f"Bot {first_seat + i + 1}",
            bot_level=level,
        )
        for i in range(count)
    ]
