"""The one computation of a tournament's prizes (PCG-7), drawn over every bracket of 2 to
16 entrants, every way it can be played out, and splits of 1 to 5 shares: the escrow ends
at exactly zero, a better place never earns less, players sharing a place earn the same
within a coin, and a split paying more places than there are entrants pays the surplus to
the champion, as the wallet documents."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavolo.lobby.tournaments.bracket import Bracket, advance, draw
from tavolo.lobby.tournaments.standings import final_places
from tavolo.wallet.prizes import by_place, tournament_prizes

ENTRANTS = range(2, 17)
SEED = b"prizes"


def names(count: int) -> list[str]:
    return [f"p{i:02d}" for i in range(count)]


def played(bracket: Bracket, picks: int) -> Bracket:
    """Every ready match decided, side a or b by the bits of ``picks``."""
    bit = 0
    while ready := bracket.ready():
        for m in ready:
            winner = m.b if (picks >> bit) & 1 and m.b is not None else m.a
            bit += 1
            assert winner is not None
            bracket = advance(bracket, m.round, m.index, winner)
    return bracket


def places_of(count: int, picks: int) -> dict[str, int]:
    """Final places of ``count`` entrants: a bracket played out by ``picks`` (a bracket
    takes 4 or more; fewer are placed one by one, as a league of two or three would be)."""
    if count < 4:
        return {p: i + 1 for i, p in enumerate(names(count))}
    return final_places(played(draw(names(count), SEED), picks))


def every_place_pattern() -> list[dict[str, int]]:
    """Final places of 2..16 entrants, brackets played out several ways."""
    return [places_of(n, picks) for n in ENTRANTS for picks in (0, 0xFFFF, 0x5555, 0x3333)]


PATTERNS = every_place_pattern()


def splits(most: int = 5) -> list[tuple[int, ...]]:
    """Every non-increasing split of 1..``most`` shares in steps of 5 percent (and a few
    odd ones): about a thousand."""
    found: list[tuple[int, ...]] = []
    for length in range(1, most + 1):
        for shares in itertools.combinations_with_replacement(range(100, 0, -5), length):
            if sum(shares) == 100:
                found.append(tuple(shares))
    return [*found, (34, 33, 33), (51, 49), (97, 1, 1, 1), (96, 1, 1, 1, 1)]


SPLITS = splits()


def check(pot: int, split: tuple[int, ...], places: dict[str, int]) -> None:
    paid = tournament_prizes(pot, split, places)
    assert set(paid) == set(places)
    assert sum(paid.values()) == pot  # the escrow ends at exactly zero
    assert all(c >= 0 for c in paid.values())
    ranked = sorted(set(places.values()))
    groups = [[paid[p] for p in places if places[p] == at] for at in ranked]
    for group in groups:
        assert max(group) - min(group) <= 1  # a shared place is shared evenly
    for better, worse in itertools.pairwise(groups):
        assert min(better) >= max(worse)  # a better place never earns less
    champion = next(p for p, at in places.items() if at == 1)
    unheld = sum(by_place(pot, split)[len(places) :])  # places nobody holds
    assert paid[champion] == by_place(pot, split)[0] + unheld


def test_pcg_7_every_bracket_and_every_split_pays_the_whole_escrow_and_nothing_more() -> None:
    assert {len(p) for p in PATTERNS} == set(ENTRANTS)
    assert {len(s) for s in SPLITS} == {1, 2, 3, 4, 5}
    for places in PATTERNS:
        for split in SPLITS:
            for pot in (0, len(places) * 100, len(places) * 100 - 100, 7):
                check(pot, split, places)


@settings(max_examples=300, deadline=None)
@given(
    count=st.integers(2, 16),
    picks=st.integers(0, 2**16 - 1),
    fee=st.integers(0, 10_000),
    shares=st.lists(st.integers(1, 100), min_size=1, max_size=5),
)
def test_pcg_7_prizes_hold_for_any_pot_and_split(
    count: int, picks: int, fee: int, shares: list[int]
) -> None:
    total = sum(shares)
    split = sorted((s * 100 // total for s in shares), reverse=True)
    split[0] += 100 - sum(split)
    split = [s for s in split if s > 0]
    check(fee * count, tuple(split), places_of(count, picks))


@pytest.mark.parametrize(
    ("pot", "split", "places", "paid"),
    [
        # 8 entrants, 60/30/10: the semi-final losers share third place's 10 %.
        (800, (60, 30, 10), "1 2 3 3 5 5 5 5", [480, 240, 40, 40, 0, 0, 0, 0]),
        # 4 entrants, a split for five places: the fifth place's 10 % to the champion.
        (400, (40, 30, 10, 10, 10), "1 2 3 3", [200, 120, 40, 40]),
        (801, (60, 30, 10), "1 2 3 3 5 5 5 5", [481, 240, 40, 40, 0, 0, 0, 0]),
        (7, (50, 50), "1 2", [4, 3]),
    ],
)
def test_pcg_7_prizes_of_known_tournaments(
    pot: int, split: tuple[int, ...], places: str, paid: list[int]
) -> None:
    at = {f"p{i}": int(p) for i, p in enumerate(places.split())}
    assert list(tournament_prizes(pot, split, at).values()) == paid


def test_a_bad_split_or_pot_is_refused() -> None:
    for split in ((), (60, 30), (100, 0)):
        with pytest.raises(ValueError, match="split"):
            by_place(100, split)
    with pytest.raises(ValueError, match="negative"):
        by_place(-1, (100,))
