"""Shared ranks for equal points and page tokens that continue them."""

from __future__ import annotations

import pytest

from tavolo.leaderboard.queries import ScoreRow
from tavolo.leaderboard.ranking import (
    Cursor,
    around_size,
    decode_token,
    encode_token,
    next_cursor,
    page_size,
    rank_page,
)
from tavolo.servicekit.errors import InvalidArgument

ROWS = [ScoreRow(f"p{i}", points, 1) for i, points in enumerate([9, 7, 7, 5, 5, 5, 1])]


def test_equal_points_share_a_rank_and_the_next_rank_skips() -> None:
    assert [r.rank for r in rank_page(ROWS, None)] == [1, 2, 2, 4, 4, 4, 7]


@pytest.mark.parametrize("size", [1, 2, 3, 4])
def test_ties_keep_their_shared_rank_across_page_boundaries(size: int) -> None:
    ranks: list[int] = []
    after: Cursor | None = None
    for start in range(0, len(ROWS), size):
        page = rank_page(ROWS[start : start + size], after)
        ranks += [r.rank for r in page]
        after = decode_token(encode_token(next_cursor("s", page, after)), "s")
    assert ranks == [1, 2, 2, 4, 4, 4, 7]


def test_an_empty_token_starts_at_the_top() -> None:
    assert decode_token("", "s") is None


@pytest.mark.parametrize(
    "token", ["garbage!", "bm90IGpzb24", encode_token(Cursor("s", 1, "p", 0, 1))]
)
def test_a_token_this_service_did_not_issue_is_refused(token: str) -> None:
    with pytest.raises(InvalidArgument, match="page one"):
        decode_token(token, "s")


def test_a_token_for_another_ranking_is_refused() -> None:
    token = encode_token(Cursor("league:202511:pika", 4, "p", 2, 3))
    with pytest.raises(InvalidArgument, match="another ranking"):
        decode_token(token, "league:202511:")


@pytest.mark.parametrize(("asked", "given"), [(0, 50), (1, 1), (500, 500)])
def test_page_size_defaults_and_limits(asked: int, given: int) -> None:
    assert page_size(asked) == given


@pytest.mark.parametrize("asked", [-1, 501])
def test_page_size_out_of_range_is_refused(asked: int) -> None:
    with pytest.raises(InvalidArgument, match="page_size"):
        page_size(asked)


def test_around_defaults_and_limits() -> None:
    assert around_size(0) == 5
    assert around_size(50) == 50
    with pytest.raises(InvalidArgument, match="around"):
        around_size(51)
