"""Bestia scenarios, one or more per rule (BESTIA-1…8, RULES §7), and RULES fixture 27.

Tables are dealt from a seed, then the hands, trumps and pot the test needs are written
in; the cards nobody holds stay in the stock so the deck is accounted for.
"""

from __future__ import annotations

from typing import Any

import pytest

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.errors import InvalidOptions, NotYourTurn, RuleError
from tavolo.cardgames.games import italian_cards
from tavolo.cardgames.games.tricks.bestia import GOES_BLIND, KEEPS, PASSES, PLAYS, Bestia
from tavolo.cardgames.games.tricks.bestia_state import BUIO, PLAY, BestiaState, trick_share

GAME = Bestia()


def table(
    hands: dict[int, str],
    *,
    turned: str = "7B",
    pot: int = 9,
    dealer: int = 3,
    phase: str = PLAY,
    declared: tuple[bool | None, ...] = (True, True, True, True),
    chips: tuple[int, ...] = (100, 100, 100, 100),
    options: dict[str, Any] | None = None,
) -> BestiaState:
    base = GAME.new_game(options, 4, b"hand-built table")
    held = {s: tuple(hands.get(s, "").split()) for s in range(4)}
    used = {c for h in held.values() for c in h} | {turned}
    stock = tuple(c for c in italian_cards.DECK if c not in used)
    active = tuple((dealer + 1 + i) % 4 for i in range(4))
    return base.replace(
        hands=tuple(held[s] for s in range(4)),
        stock=stock,
        turned=turned,
        set_aside=(),
        pot=pot,
        dealer=dealer,
        phase=phase,
        declared=declared,
        chips=chips,
        to_decide=tuple(s for s in active if declared[s] is None),
        turn=next(s for s in active if declared[s]) if phase == PLAY else active[0],
        tricks_won=(0, 0, 0, 0),
    )


def act(state: BestiaState, seat: int, action: Action) -> tuple[BestiaState, list[Any]]:
    return GAME.apply(state, seat, action)


def card(c: str) -> Action:
    return Action(ActionKind.PLAY, cards=(c,))


def test_bestia_1_the_dealer_antes_into_the_pot() -> None:
    state = GAME.new_game(None, 4, b"ante")
    assert state.pot == 3 and state.chips[state.dealer] == 97
    assert sum(state.chips) + state.pot == 400
    with pytest.raises(InvalidOptions, match="multiple of 3"):
        GAME.new_game({"ante": 4}, 4, b"x")


def test_bestia_2_three_each_and_a_turned_trump_never_drawn() -> None:
    state = GAME.new_game(None, 5, b"deal")
    assert [len(h) for h in state.hands] == [3] * 5
    assert state.turned not in state.stock and len(state.stock) == 40 - 15 - 1
    assert GAME.view(state, 0).public["trumps"] == state.turned[-1]


def test_bestia_3_declaring_from_the_dealers_right() -> None:
    state = GAME.new_game(None, 4, b"declare")
    first = (state.dealer + 1) % 4
    assert GAME.to_act(state) == {first}
    assert GAME.legal_actions(state, first) == [PLAYS, PASSES]
    state, _ = act(state, first, PASSES)
    assert state.hands[first] == () and GAME.to_act(state) == {(first + 1) % 4}


def test_bestia_3_nobody_plays_the_hand_is_void_and_the_pot_stays() -> None:
    state = GAME.new_game(None, 4, b"void")
    for _ in range(4):
        (seat,) = GAME.to_act(state)
        state, events = act(state, seat, PASSES)
    assert any(e["type"] == "hand_void" for e in events)
    assert state.hand_no == 2 and state.pot == 6  # the old pot and a new ante


def test_bestia_3_a_lone_player_takes_the_pot_unplayed() -> None:
    state = GAME.new_game(None, 4, b"alone")
    order = [(state.dealer + 1 + i) % 4 for i in range(4)]
    before = state.chips[order[2]]
    for seat in order:
        state, events = act(state, seat, PLAYS if seat == order[2] else PASSES)
    taken = next(e for e in events if e["type"] == "pot_taken")
    assert taken == {"type": "pot_taken", "seat": order[2], "chips": 3}
    assert state.chips[order[2]] == before + 3 - (3 if state.dealer == order[2] else 0)


def test_bestia_4_al_buio_swaps_the_hand_for_three_unseen_stock_cards() -> None:
    state = table(
        {0: "AC 2C 4C", 1: "5C 6C 7C", 2: "FC CC RC", 3: "4D 5D 6D"},
        phase=BUIO,
        declared=(True, True, False, True),
    )
    state = state.replace(to_decide=(0, 1, 3), turn=0)
    top = state.stock[:3]
    state, events = act(state, 0, GOES_BLIND)
    assert set(state.hands[0]) == set(top) and {"AC", "2C", "4C"} <= set(state.set_aside)
    assert events[0] == {"type": "al_buio", "seat": 0, "blind": True}
    assert GAME.view(state, 1).public["buio"][0] is True
    state, _ = act(state, 1, KEEPS)
    state, _ = act(state, 3, KEEPS)
    assert state.phase == PLAY and GAME.to_act(state) == {0}


def test_bestia_5_follow_suit_but_never_obliged_to_trump_or_overtake() -> None:
    state = table({0: "4C", 1: "AC 2B 5D", 2: "2B", 3: "RB"})
    state = state.replace(hands=(("4C",), ("AC", "3B", "5D"), ("2D",), ("RB",)))
    state, _ = act(state, 0, card("4C"))
    assert GAME.legal_actions(state, 1) == [card("AC")]
    with pytest.raises(RuleError, match="follow suit"):
        act(state, 1, card("3B"))
    state, _ = act(state, 1, card("AC"))
    assert {a.cards[0] for a in GAME.legal_actions(state, 2)} == {"2D"}  # void: anything
    state, _ = act(state, 2, card("2D"))
    state, events = act(state, 3, card("RB"))
    assert next(e for e in events if e["type"] == "trick_won")["seat"] == 3  # trump wins


def test_bestia_6_each_trick_wins_a_third_of_the_pot_and_fixture_27() -> None:
    """Fixture 27 (pot 9): A passes; B takes 2 tricks (+6), C 1 (+3), D none and pays
    9; the next pot is 9 + the ante of 3 = 12. A pot of 10 pays 3 a trick, carries 1."""
    assert trick_share(10) == 3 and 10 - 3 * trick_share(10) == 1
    # Dealer 3 (D) deals; A=0 passed. B=1 holds AB 3B, C=2 the AD, D=3 nothing good.
    state = table(
        {1: "AB 3B 4D", 2: "AD 5D 6S", 3: "4C 6D 7S"},
        turned="7B",
        declared=(False, True, True, True),
    )
    start = state.chips
    for seat, c in ((1, "AB"), (2, "6S"), (3, "7S")):
        state, _ = act(state, seat, card(c))
    for seat, c in ((1, "3B"), (2, "5D"), (3, "6D")):
        state, _ = act(state, seat, card(c))
    for seat, c in ((1, "4D"), (2, "AD"), (3, "4C")):
        state, events = act(state, seat, card(c))
    settled = next(e for e in events if e["type"] == "hand_settled")
    assert settled["tricks"] == [0, 2, 1, 0] and settled["per_trick"] == 3
    assert settled["bestia"] == {"3": 9}
    gained = [after - before for after, before in zip(state.chips, start, strict=True)]
    # The next dealer (seat 0) antes 3 into the new hand's pot.
    assert gained == [-3, 6, 3, -9]
    assert state.pot == 12 and state.hand_no == 2


def test_bestia_7_a_short_stack_pays_all_it_has_and_the_match_ends() -> None:
    """BESTIA-7 with RULES §0 rule 15, and BESTIA-8: no chips ends the match."""
    state = table(
        {1: "AB 3B 4D", 2: "AD 5D 6S", 3: "4C 6D 7S"},
        declared=(False, True, True, True),
        chips=(100, 100, 100, 5),
    )
    for trick in (("AB", "6S", "7S"), ("3B", "5D", "6D"), ("4D", "AD", "4C")):
        for seat, c in zip((1, 2, 3), trick, strict=True):
            state, events = act(state, seat, card(c))
    assert {"type": "bestia", "seat": 3, "pays": 5} in events
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.detail["reason"] == "no_chips"
    assert outcome.places == (3, 1, 2, 4)


def test_bestia_8_the_match_ends_after_the_hands_and_ranks_by_chips() -> None:
    state = GAME.new_game({"hands": 1}, 3, b"one hand")
    for _ in range(3):
        (seat,) = GAME.to_act(state)
        state, _ = act(state, seat, PASSES)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.detail["reason"] == "hands"
    assert outcome.detail["pot_left"] == 3  # chips in the pot belong to nobody
    assert sum(outcome.scores) == 297


def test_refusals_and_timeouts() -> None:
    """[decision] docs/decisions.md: a timeout passes, keeps, plays the least."""
    state = GAME.new_game(None, 4, b"refuse")
    (seat,) = GAME.to_act(state)
    with pytest.raises(NotYourTurn):
        act(state, (seat + 1) % 4, PASSES)
    with pytest.raises(RuleError, match=r"play .* or pass"):
        act(state, seat, GOES_BLIND)
    (timer,) = GAME.timers(state)
    _, events = act(state, seat, Action(ActionKind.EXPIRE, timer=timer.key))
    assert events[1] == {"type": "declared", "seat": seat, "plays": False}
