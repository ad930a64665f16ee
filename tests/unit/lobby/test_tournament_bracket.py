"""The knock-out bracket and prize split of a tournament (PCG-7)."""

from __future__ import annotations

import hashlib

import pytest

from tavolo.cardgames.rng import SeededRandom
from tavolo.lobby.tournaments.bracket import Bracket, advance, bracket_size, commitment, draw
from tavolo.lobby.tournaments.prizes import prizes
from tavolo.lobby.tournaments.standings import final_places, payouts
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
    ("pot", "shares", "paid"),
    [
        (800, (100,), (800,)),
        (800, (60, 30, 10), (480, 240, 80)),
        (101, (60, 30, 10), (61, 30, 10)),  # 60.6, 30.3, 10.1: one coin left, to first
        (7, (50, 50), (4, 3)),
        (0, (60, 30, 10), (0, 0, 0)),
    ],
)
def test_prizes_round_as_stake_pots_and_sum_to_the_pot(
    pot: int, shares: tuple[int, ...], paid: tuple[int, ...]
) -> None:
    assert prizes(pot, shares) == paid
    assert sum(paid) == pot


@pytest.mark.parametrize(
    ("shares", "message"),
    [
        ((60, 30), "sums to 100"),
        ((30, 70), "better place"),
        ((100, 0), "positive"),
        ((), "e.g. 60/30/10"),
    ],
)
def test_a_bad_split_is_refused(shares: tuple[int, ...], message: str) -> None:
    with pytest.raises(InvalidArgument, match=message):
        prizes(100, shares)


def play_out(bracket: Bracket, pick: int = 0) -> Bracket:
    """Decide every ready match, side ``a`` (0) or ``b`` (1) winning, to the champion."""
    while ready := bracket.ready():
        for m in ready:
            winner = m.a if pick == 0 else m.b
            assert winner is not None
            bracket = advance(bracket, m.round, m.index, winner)
    return bracket


def test_final_places_share_a_round_and_the_prizes_sum_to_the_pot() -> None:
    bracket = play_out(draw(names(8), SEED))
    places = final_places(bracket)
    assert sorted(places.values()) == [1, 2, 3, 3, 5, 5, 5, 5]
    paid = payouts(801, (60, 30, 10), places)
    champion, runner_up = bracket.champion, next(p for p, at in places.items() if at == 2)
    assert champion is not None
    assert (paid[champion], paid[runner_up]) == (481, 240)
    thirds = sorted(p for p, at in places.items() if at == 3)
    assert [paid[p] for p in thirds] == [40, 40]  # 10 % of 801 is 80, shared by two
    assert sum(paid.values()) == 801 and len(paid) == 4


def test_a_bracket_with_byes_still_places_everyone_once() -> None:
    places = final_places(play_out(draw(names(6), SEED), pick=1))
    assert sorted(places) == names(6)
    assert sorted(places.values()) == [1, 2, 3, 3, 5, 5]
    with pytest.raises(FailedPrecondition, match="not decided"):
        final_places(draw(names(6), SEED))
