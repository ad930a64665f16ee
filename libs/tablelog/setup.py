"""How a table is set up: its game, options, seats, mode, stake and timers.

Pure data, checked once when the table opens and written into its first event
(``table_opened``), so replay and every later reader see exactly what the table was
opened with. Refusals are :class:`~tavolo.servicekit.errors.InvalidArgument` with a
message that says what to change.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from tavolo.cardgames import Game, InvalidOptions
from tavolo.cardgames.knockout import knock_out
from tavolo.cardgames.registry import get_game
from tavolo.servicekit.errors import InvalidArgument

MODES = ("versus_computer", "versus_friends", "online", "stake", "tournament")
BOT_LEVELS = ("easy", "medium", "hard")
STAKES = (100, 250, 500, 1000)  # MODE-4
MAX_TURN_SECONDS = 600
MAX_BOT_THINK_MILLIS = 30_000
# Engine settings a lobby may pass among a MatchFormed's options; the game never sees them.
ENGINE_OPTIONS = ("turn_seconds", "bot_think_millis")
DEFAULT_TURN_SECONDS = 30
DEFAULT_BOT_THINK_MILLIS = 800


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sits at a seat. A bot seat has no player id unless a player left it to a bot."""

    seat: int
    player_id: str = ""
    nickname: str = ""
    bot: bool = False
    bot_level: str = ""
    booster: bool = False
    vip: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "player_id": self.player_id,
            "nickname": self.nickname,
            "bot": self.bot,
            "bot_level": self.bot_level,
            "booster": self.booster,
            "vip": self.vip,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeatInfo:
        return cls(
            seat=int(data["seat"]),
            player_id=str(data.get("player_id", "")),
            nickname=str(data.get("nickname", "")),
            bot=bool(data.get("bot", False)),
            bot_level=str(data.get("bot_level", "")),
            booster=bool(data.get("booster", False)),
            vip=bool(data.get("vip", False)),
        )

    def taken_by_bot(self, level: str) -> SeatInfo:
        """The seat after its player left: a bot plays it; the player id stays on record."""
        return replace(self, bot=True, bot_level=level)


@dataclass(frozen=True, slots=True)
class TableSetup:
    """Everything a table is opened with (the seed aside, which stays private)."""

    table_id: str
    game: str
    options: Mapping[str, Any]
    seats: tuple[SeatInfo, ...]
    mode: str
    stake: int = 0
    bot_filled: bool = False
    turn_seconds: int = 0
    bot_think_millis: int = 0
    ko: bool = False
    sealed_until: str = ""
    """ISO time before which the table's players may not read its log (a Duplicate
    Solitario table: the seed it reveals is every entrant's deal until the competition
    closes); empty: the log opens to them when the table ends."""

    def to_dict(self) -> dict[str, Any]:
        # ``ko`` and ``sealed_until`` are written only when set, so tables opened before
        # them read as they were.
        sealed = {"sealed_until": self.sealed_until} if self.sealed_until else {}
        return (
            ({"ko": True} if self.ko else {})
            | sealed
            | {
                "table_id": self.table_id,
                "game": self.game,
                "options": dict(self.options),
                "seats": [s.to_dict() for s in self.seats],
                "mode": self.mode,
                "stake": self.stake,
                "bot_filled": self.bot_filled,
                "turn_seconds": self.turn_seconds,
                "bot_think_millis": self.bot_think_millis,
            }
        )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableSetup:
        return cls(
            table_id=str(data["table_id"]),
            game=str(data["game"]),
            options=dict(data.get("options", {})),
            seats=tuple(SeatInfo.from_dict(s) for s in data["seats"]),
            mode=str(data["mode"]),
            stake=int(data.get("stake", 0)),
            bot_filled=bool(data.get("bot_filled", False)),
            turn_seconds=int(data.get("turn_seconds", 0)),
            bot_think_millis=int(data.get("bot_think_millis", 0)),
            ko=bool(data.get("ko", False)),
            sealed_until=str(data.get("sealed_until", "")),
        )

    def rules(self) -> Game[Any]:
        """The game this table plays: its own rules, or their knock-out form (PCG-7)."""
        game = get_game(self.game)
        return knock_out(game) if self.ko else game

    def seat_of(self, player_id: str) -> int | None:
        """The seat ``player_id`` holds, bot-played or not; None if they hold none."""
        for info in self.seats:
            if info.player_id and info.player_id == player_id:
                return info.seat
        return None


def normalise_json(value: Any, where: str) -> Any:
    """JSON from the wire (protobuf Struct numbers are doubles) as the event log takes it:
    whole numbers become ints; fractions are refused, since events hold integers only."""
    if isinstance(value, bool) or value is None or isinstance(value, str | int):
        return value
    if isinstance(value, float):
        if value.is_integer() and abs(value) <= 2**53 - 1:
            return int(value)
        raise InvalidArgument(
            f"{where} is {value}: use a whole number",
            reason="OPTION_INVALID",
            metadata={"option": where},
        )
    if isinstance(value, Mapping):
        return {str(k): normalise_json(v, f"{where}.{k}") for k, v in value.items()}
    if isinstance(value, Sequence):
        return [normalise_json(v, f"{where}[{i}]") for i, v in enumerate(value)]
    raise InvalidArgument(
        f"{where} has a value of unsupported type {type(value).__name__}",
        reason="OPTION_INVALID",
        metadata={"option": where},
    )


def build_setup(
    *,
    table_id: str,
    game: str,
    options: Mapping[str, Any],
    seats: Sequence[SeatInfo],
    mode: str,
    stake: int = 0,
    bot_filled: bool = False,
    turn_seconds: int = 0,
    bot_think_millis: int = 0,
    ko: bool = False,
    sealed_until: str = "",
) -> TableSetup:
    """A checked setup, or InvalidArgument saying what is wrong. The game's own option
    check runs when the table is dealt (``new_game``), which raises InvalidOptions."""
    if not table_id or len(table_id) > 100 or not table_id.replace("-", "").isalnum():
        raise InvalidArgument(
            "a table id is 1 to 100 letters, digits and '-'",
            reason="TABLE_SETUP_INVALID",
            metadata={"field": "table_id"},
        )
    try:
        rules = get_game(game)
    except InvalidOptions as exc:
        raise InvalidArgument(str(exc), reason=exc.reason, metadata=exc.metadata) from None
    if mode not in MODES:
        raise InvalidArgument(
            f"mode must be one of {', '.join(MODES)}",
            reason="TABLE_SETUP_INVALID",
            metadata={"field": "mode"},
        )
    if not rules.min_players <= len(seats) <= rules.max_players:
        raise InvalidArgument(
            f"{rules.title} is for {rules.min_players} to {rules.max_players} players,"
            f" not {len(seats)}",
            reason="PLAYER_COUNT_INVALID",
            metadata={"game": rules.name, "min": rules.min_players, "max": rules.max_players},
        )
    opts = _game_options(rules, normalise_json(dict(options), "options"), len(seats))
    for expected, info in enumerate(seats):
        if info.seat != expected:
            raise InvalidArgument(
                f"seats must be numbered 0 to {len(seats) - 1} in order",
                reason="TABLE_SETUP_INVALID",
                metadata={"field": "seats"},
            )
        if info.bot:
            if info.bot_level not in BOT_LEVELS:
                raise InvalidArgument(
                    f"seat {info.seat}: a bot needs a level ({BOT_LEVELS})",
                    reason="BOT_LEVEL_UNKNOWN",
                    metadata={"allowed": BOT_LEVELS},
                )
        elif not info.player_id:
            raise InvalidArgument(
                f"seat {info.seat} needs a player id, or mark it as a bot",
                reason="TABLE_SETUP_INVALID",
                metadata={"field": f"seats[{info.seat}].player_id"},
            )
    players = [s.player_id for s in seats if s.player_id]
    if len(players) != len(set(players)):
        raise InvalidArgument(
            "a player can hold only one seat at a table",
            reason="TABLE_SETUP_INVALID",
            metadata={"field": "seats"},
        )
    if mode == "stake":
        if stake not in STAKES:
            raise InvalidArgument(
                f"a stake table's stake is one of {STAKES} coins",
                reason="STAKE_INVALID",
                metadata={"allowed": STAKES},
            )
        if any(s.bot for s in seats):
            raise InvalidArgument(
                "stake tables fill only with real people (MODE-4)",
                reason="TABLE_SETUP_INVALID",
                metadata={"field": "seats"},
            )
    elif stake:
        raise InvalidArgument(
            "only stake tables have a stake",
            reason="TABLE_SETUP_INVALID",
            metadata={"field": "stake"},
        )
    if mode == "versus_computer" and bot_filled:
        raise InvalidArgument(
            "a versus-computer table cannot be marked as bot-filled",
            reason="TABLE_SETUP_INVALID",
            metadata={"field": "mode"},
        )
    if ko and not rules.offers_knock_out:
        raise InvalidArgument(
            f"{rules.title} does not offer knock-out play: it supplies no tie-break hand"
            " and last capture (RULES §0 rule 14)",
            reason="KNOCKOUT_UNSUPPORTED",
            metadata={"game": rules.name},
        )
    if ko and any(spec.name == "ko" for spec in rules.option_specs):
        opts["ko"] = True  # what the KO form plays (knockout.py), so the echo says so too
    if not 0 <= turn_seconds <= MAX_TURN_SECONDS:
        raise InvalidArgument(
            f"turn_seconds must be 0 (no limit) to {MAX_TURN_SECONDS}",
            reason="TABLE_SETUP_INVALID",
            metadata={"field": "turn_seconds"},
        )
    if not 0 <= bot_think_millis <= MAX_BOT_THINK_MILLIS:
        raise InvalidArgument(
            f"bot think time must be 0 to {MAX_BOT_THINK_MILLIS} ms",
            reason="TABLE_SETUP_INVALID",
            metadata={"field": "bot_think_millis"},
        )
    return TableSetup(
        table_id=table_id,
        game=game,
        options=opts,
        seats=tuple(seats),
        mode=mode,
        stake=stake,
        bot_filled=bot_filled,
        turn_seconds=turn_seconds,
        bot_think_millis=bot_think_millis,
        ko=ko,
        sealed_until=sealed_until,
    )


def _game_options(rules: Game[Any], given: Mapping[str, Any], seats: int) -> dict[str, Any]:
    """The game's options with its defaults filled in (PCG-6), so the opening event and
    every view name the whole match format; a bad one is refused with the game's reason
    (the option's name and the values allowed)."""
    given = dict(given)
    if any(spec.name == "players" for spec in rules.option_specs):
        given.setdefault("players", seats)
    try:
        return rules.options(given)
    except InvalidOptions as exc:
        raise InvalidArgument(str(exc), reason=exc.reason, metadata=exc.metadata) from None


def split_engine_options(
    options: Mapping[str, Any],
) -> tuple[dict[str, Any], int, int]:
    """Game options apart from the engine's own (``turn_seconds``, ``bot_think_millis``),
    which a MatchFormed may carry among its options; missing ones take the defaults."""
    game_options = {k: v for k, v in options.items() if k not in ENGINE_OPTIONS}
    turn = normalise_json(options.get("turn_seconds", DEFAULT_TURN_SECONDS), "turn_seconds")
    think = normalise_json(
        options.get("bot_think_millis", DEFAULT_BOT_THINK_MILLIS), "bot_think_millis"
    )
    if not isinstance(turn, int) or not isinstance(think, int):
        raise InvalidArgument(
            "turn_seconds and bot_think_millis are whole numbers",
            reason="TABLE_SETUP_INVALID",
            metadata={"field": "turn_seconds"},
        )
    return game_options, turn, think
