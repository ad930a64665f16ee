"""Which tables the league plays: each game at its default seat count and at 2 seats
where offered, a deal's options, and the seats the stronger level holds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tavolo.cardgames.registry import get_game

ONE_HAND = {"match_length": "hands:1"}
DEAL_OPTIONS: dict[str, dict[str, Any]] = {
    "pika": {"match_length": "single"},
    "uno": {"match_length": "single"},
    "scopa": {},
    "scopone": {},
    "asso": {},
    "cirulla": {},
    "burraco": ONE_HAND,
    "scala40": ONE_HAND,
    "briscola": {"match_length": "single"},
    "hearts": {"target": 1},
    "spades": {"target": 100},
    "bestia": {},
    "poker": {},
    "settemezzo": {},
    "tresette": {"match_length": "hands:3"},
    "ciapano": {"match_length": "hands:3"},
    "solitario": {},
}
"""Options that make one game of the league one deal (or as near as the game allows)."""

DEFAULT_SEATS = {
    "briscola": 2,
    "scopa": 2,
    "asso": 2,
    "cirulla": 2,
    "burraco": 4,
    "scala40": 4,
    "solitario": 1,
}
"""Seat counts for games with no ``players`` option (else that option's default)."""

VARIANTS: dict[str, tuple[dict[str, Any], ...]] = {"solitario": ({"draw": 1}, {"draw": 3})}
"""Games played once per option set: Klondike at draw 1 and draw 3 are two games."""

SEATINGS = ("one", "half")
"""``one``: the stronger level holds one seat (a side in partnership games) rotated
through the table; ``half``: every other seat (0 and 2, then 1 and 3), two against two."""


@dataclass(frozen=True)
class Table:
    """One game at one seat count with its options: a row group of the league."""

    name: str
    seats: int
    options: Mapping[str, Any] = field(default_factory=dict)
    variant: str = ""
    """What sets these options apart in the printed rows ("draw 3", "whole match")."""

    @property
    def label(self) -> str:
        return f"{self.name} ({self.variant})" if self.variant else self.name


def default_seats(name: str) -> int:
    game = get_game(name)
    players = {s.name: s.default for s in game.option_specs}.get("players")
    if isinstance(players, int):
        return players
    counts = game.seat_counts()
    return DEFAULT_SEATS.get(name, counts[0] if len(counts) == 1 else counts[-1])


def tables(
    names: Sequence[str],
    *,
    seats: int | None = None,
    match: bool = False,
    options: Mapping[str, Any] | None = None,
) -> list[Table]:
    """(game, seats, options): the default count and 2 where offered, or ``seats`` alone
    where the game offers it; one deal's options, or the default match's with ``match``;
    ``options`` on top of either."""
    found = []
    for name in names:
        game = get_game(name)
        counts = [default_seats(name)]
        if counts[0] not in (1, 2) and 2 in game.seat_counts():
            counts.append(2)
        if seats is not None:
            counts = [seats] if seats in game.seat_counts() else []
        base = {} if match else dict(DEAL_OPTIONS[name])
        extra = dict(options or {})
        known = {spec.name for spec in game.option_specs}
        extra = {k: v for k, v in extra.items() if k in known}
        for variant in VARIANTS.get(name, ({},)) if not extra else ({},):
            chosen = {**base, **variant, **extra}
            words = [f"{k} {v}" for k, v in {**variant, **extra}.items()]
            if match:
                words.insert(0, "whole match")
            found += [Table(name, n, chosen, ", ".join(words)) for n in counts]
    return found


def rotations(table: Table, seating: str = "one") -> list[tuple[int, ...]]:
    """The stronger level's seats, one tuple per rotation of the levels: every seat (or
    side) once, so each deal is played from every seat."""
    game = get_game(table.name)
    state = game.new_game(table.options, table.seats, b"sides")
    sides = {tuple(sorted(game.partners(state, s) | {s})) for s in range(table.seats)}
    if any(len(side) > 1 for side in sides):
        return sorted(sides)
    if seating == "half" and table.seats % 2 == 0:
        return [tuple(range(first, table.seats, 2)) for first in (0, 1)]
    return [(s,) for s in range(table.seats)]
