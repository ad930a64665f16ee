"""Ranks and page tokens: shared ranks for equal points (1, 2, 2, 4), keyset paging.

Rows come in ranking order (most points first, then player id). A row's rank is one more
than the number of players with strictly more points, so equal points share a rank and
the next rank skips (standard competition ranking). A page token remembers the last row
and its rank, so the next page continues without counting anything again.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Sequence
from dataclasses import dataclass

from tavolo.leaderboard.queries import ScoreRow
from tavolo.servicekit.errors import InvalidArgument

DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 500
DEFAULT_AROUND = 5
MAX_AROUND = 50


@dataclass(frozen=True, slots=True)
class RankedRow:
    rank: int
    player_id: str
    points_x2: int
    games: int


@dataclass(frozen=True, slots=True)
class Cursor:
    """Where a page ended: its last row, that row's rank, and how many rows came so far."""

    scope: str
    points_x2: int
    player_id: str
    rank: int
    offset: int

    @property
    def row(self) -> ScoreRow:
        return ScoreRow(self.player_id, self.points_x2, 0)


def page_size(requested: int) -> int:
    """The page size asked for (0 = the default), refused outside 1..MAX_PAGE_SIZE."""
    if requested == 0:
        return DEFAULT_PAGE_SIZE
    if not 1 <= requested <= MAX_PAGE_SIZE:
        raise InvalidArgument(
            f"page_size must be between 1 and {MAX_PAGE_SIZE} (0 = {DEFAULT_PAGE_SIZE}),"
            f" not {requested}",
            reason="FIELD_INVALID",
            metadata={"field": "page_size"},
        )
    return requested


def around_size(requested: int) -> int:
    """How many neighbours on each side (0 = the default), refused outside 1..MAX_AROUND."""
    if requested == 0:
        return DEFAULT_AROUND
    if not 1 <= requested <= MAX_AROUND:
        raise InvalidArgument(
            f"around must be between 1 and {MAX_AROUND} (0 = {DEFAULT_AROUND}), not {requested}",
            reason="FIELD_INVALID",
            metadata={"field": "around"},
        )
    return requested


def rank_page(rows: Sequence[ScoreRow], after: Cursor | None) -> list[RankedRow]:
    """Ranks of a page that follows ``after`` (None = the first page)."""
    ranked: list[RankedRow] = []
    offset = 0 if after is None else after.offset
    previous = None if after is None else (after.points_x2, after.rank)
    for index, row in enumerate(rows, start=1):
        if previous is not None and previous[0] == row.points_x2:
            rank = previous[1]
        else:
            rank = offset + index
        ranked.append(RankedRow(rank, row.player_id, row.points_x2, row.games))
        previous = (row.points_x2, rank)
    return ranked


def next_cursor(scope: str, page: Sequence[RankedRow], after: Cursor | None) -> Cursor:
    last = page[-1]
    offset = (0 if after is None else after.offset) + len(page)
    return Cursor(scope, last.points_x2, last.player_id, last.rank, offset)


def encode_token(cursor: Cursor) -> str:
    document = [cursor.scope, cursor.points_x2, cursor.player_id, cursor.rank, cursor.offset]
    raw = json.dumps(document, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_token(token: str, scope: str) -> Cursor | None:
    """The cursor a page token carries (empty = None), refused unless it was made for ``scope``."""
    if not token:
        return None
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        found, points, player_id, rank, offset = json.loads(raw)
        valid = (
            isinstance(found, str)
            and isinstance(player_id, str)
            and all(type(n) is int for n in (points, rank, offset))
            and rank >= 1
            and offset >= 1
        )
    except (binascii.Error, ValueError, TypeError):
        valid = False
    if not valid:
        raise InvalidArgument(
            "page_token is not one this service issued: start from page one",
            reason="PAGE_TOKEN_INVALID",
            metadata={"field": "page_token"},
        )
    if found != scope:
        raise InvalidArgument(
            "page_token belongs to another ranking (week or game changed): start from page one",
            reason="PAGE_TOKEN_INVALID",
            metadata={"field": "page_token"},
        )
    return Cursor(found, points, player_id, rank, offset)
