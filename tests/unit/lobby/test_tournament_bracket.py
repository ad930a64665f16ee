"""The knock-out bracket and prize split of a tournament (PCG-7)."""

from __future__ import annotations

import hashlib

import pytest

from tavolo.cardgames.rng import SeededRandom
from tavolo.lobby.tournaments.bracket import Bracket, advance, bracket_size, commitment, draw
from tavolo.lobby.tournaments.prizes import check_split
from tavolo.lobby.tournaments.standings import final_places
from tavolo.servicekit.errors import FailedPrecondition, InvalidArgument

SEED = b"revealed at the draw"


def names(n: int) -> list[str]:
    return [f"p{i:03d}" for i in range(n)]


@pytest.mark.parametrize(("entrants", "size"), [(4, 4), (5, 8), (8, 8), (9, 16), (256, 256)])
def test_the_bracket_is_the_next_power_of_two(entrants: int, size: int) -> None:
    assert bracket_size(entrants) == size


@pytest.mark.parametrize("entrants", [0, 3, 257])
def test_a_bracket_takes_4_to_256_entrants(entrants: int) -> None:
    with pytest.raises(InvalidArgument, match="4 to 256 entrants"):
        bracket_size(entrants)


def test_anyone_can_check_the_draw_from_the_revealed_seed() -> None:
    players = names(8)
    bracket = draw(list(reversed(players)), SEED)  # registration order does not matter
    assert commitment(SEED) == hashlib.sha256(SEED).hexdigest()
    expected = sorted(players)
    SeededRandom(SEED).shuffle(expected)
    first = [side for m in bracket.rounds[0] for side in (m.a, m.b)]
    assert first == expected
    assert [len(r) for r in bracket.rounds] == [4, 2, 1]
    assert draw(players, b"another seed").rounds[0] != bracket.rounds[0]


def test_byes_never_meet_and_walk_over_into_round_two() -> None:
    bracket = draw(names(5), SEED)  # 8 slots: 3 byes
    firsts = bracket.rounds[0]
    assert [m.b is None for m in firsts] == [True, True, True, False]
    assert [m.winner for m in firsts[:3]] == [m.a for m in firsts[:3]]
    seconds = bracket.rounds[1]
    assert (seconds[0].a, seconds[0].b) == (firsts[0].a, firsts[1].a)
    assert seconds[1].a == firsts[2].a and seconds[1].b is None
    assert [(m.round, m.index) for m in bracket.ready()] == [(0, 3), (1, 0)]


def test_winners_advance_to_the_final_and_a_decided_match_stays_decided() -> None:
    bracket = draw(names(4), SEED)
    semis = bracket.rounds[0]
    assert semis[0].a is not None and semis[1].b is not None
    bracket = advance(bracket, 0, 0, semis[0].a)
    bracket = advance(bracket, 0, 1, semis[1].b)
    final = bracket.rounds[1][0]
    assert (final.a, final.b) == (semis[0].a, semis[1].b) and final.ready
    with pytest.raises(FailedPrecondition, match="already decided"):
        advance(bracket, 0, 0, semis[0].a)
    with pytest.raises(InvalidArgument, match="does not play"):
        advance(bracket, 1, 0, "stranger")
    bracket = advance(bracket, 1, 0, semis[1].b)
    assert bracket.champion == semis[1].b and bracket.ready() == []


@pytest.mark.parametrize(
    ("shares", "message"),
    [
        ((60, 30), "sums to 100"),
        ((30, 70), "better place"),
        ((100, 0), "positive"),
        ((), "e.g. 60/30/10"),
        ((40, 30, 10, 10, 10), "more places than the 4 entrants"),
    ],
)
def test_a_bad_split_is_refused(shares: tuple[int, ...], message: str) -> None:
    with pytest.raises(InvalidArgument, match=message):
        check_split(shares, 4)


def play_out(bracket: Bracket, pick: int = 0) -> Bracket:
    """Decide every ready match, side ``a`` (0) or ``b`` (1) winning, to the champion."""
    while ready := bracket.ready():
        for m in ready:
            winner = m.a if pick == 0 else m.b
            assert winner is not None
            bracket = advance(bracket, m.round, m.index, winner)
    return bracket


def test_final_places_share_a_round() -> None:
    places = final_places(play_out(draw(names(8), SEED)))
    assert sorted(places.values()) == [1, 2, 3, 3, 5, 5, 5, 5]


def test_a_bracket_with_byes_still_places_everyone_once() -> None:
    places = final_places(play_out(draw(names(6), SEED), pick=1))
    assert sorted(places) == names(6)
    assert sorted(places.values()) == [1, 2, 3, 3, 5, 5]
    with pytest.raises(FailedPrecondition, match="not decided"):
        final_places(draw(names(6), SEED))
