"""KO play (RULES §0 rule 14, PCG-7) for the games that supply their own tie-break hand.

A drawn match is hard to reach by chance, so :class:`Levelled` wraps a real game and
changes one thing only, on purpose: the match (and, with ``level_hands``, that many
tie-break hands too) is placed level; for the games whose tie-break hand is dealt to the
seats placed first, ``even`` also makes the final state itself level (equal chips, shared
places). Deals, plays, scores and last captures are the game's own.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import pytest

from tavolo.cardgames import Event, Game, Outcome
from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import JSON, Timer, View
from tavolo.cardgames.games.betting.poker import Poker
from tavolo.cardgames.games.betting.settemezzo import SetteMezzo
from tavolo.cardgames.games.rummy.burraco import Burraco
from tavolo.cardgames.games.rummy.scala40 import Scala40
from tavolo.cardgames.games.tricks.bestia import Bestia
from tavolo.cardgames.games.tricks.ciapano import Ciapano
from tavolo.cardgames.games.tricks.hearts import Hearts
from tavolo.cardgames.knockout import MAX_TIE_BREAK_HANDS, KnockOut, KnockOutState, knock_out
from tavolo.cardgames.registry import all_games
from tavolo.cardgames.rng import SeededRandom
from tests.unit.cardgames.burraco_table import GAME as BURRACO
from tests.unit.cardgames.burraco_table import meld
from tests.unit.cardgames.burraco_table import table as burraco_table
from tests.unit.cardgames.conformance import check_replay, play_random_game


@dataclass(frozen=True, slots=True)
class Counted:
    """A game's state, and how many tie-break hands were dealt before it."""

    inner: Any
    hands: int = 0


class Levelled(Game[Counted]):
    """``game`` with its match, and its first ``level_hands`` tie-break hands, drawn."""

    min_players = 1
    max_players = 10

    def __init__(
        self, game: Game[Any], level_hands: int = 0, even: Callable[[Any], Any] | None = None
    ) -> None:
        self.game = game
        self.level_hands = level_hands
        self.even = even
        self.name = game.name
        self.title = game.title
        self.option_specs = game.option_specs
        self.offers_knock_out = game.offers_knock_out

    def options(self, given: Mapping[str, JSON] | None = None) -> dict[str, JSON]:
        return self.game.options(given)

    def new_game(self, options: Mapping[str, JSON] | None, seats: int, seed: bytes) -> Counted:
        return Counted(self.game.new_game(options, seats, seed))

    def _new_game(self, options: dict[str, JSON], seats: int, rng: SeededRandom) -> Counted:
        raise NotImplementedError

    def legal_actions(self, state: Counted, seat: int) -> list[Action]:
        return self.game.legal_actions(state.inner, seat)

    def _legal_actions(self, state: Counted, seat: int) -> list[Action]:
        return self.game.legal_actions(state.inner, seat)

    def apply(self, state: Counted, seat: int, action: Action) -> tuple[Counted, list[Event]]:
        inner, events = self.game.apply(state.inner, seat, action)
        ended = self.game.outcome(inner) is not None
        if ended and self.even is not None and state.hands <= self.level_hands:
            inner = self.even(inner)
        return replace(state, inner=inner), events

    def _apply(self, state: Counted, seat: int, action: Action) -> tuple[Counted, list[Event]]:
        return self.apply(state, seat, action)

    def outcome(self, state: Counted) -> Outcome | None:
        ended = self.game.outcome(state.inner)
        if ended is None or state.hands > self.level_hands:
            return ended
        return replace(ended, places=(1,) * len(ended.places))

    def tie_break_hand(self, state: Counted) -> tuple[Counted, list[Event]]:
        inner, events = self.game.tie_break_hand(state.inner)
        return Counted(inner, state.hands + 1), events

    def last_capture(self, state: Counted) -> int | None:
        return self.game.last_capture(state.inner)

    def partners(self, state: Counted, seat: int) -> frozenset[int]:
        return self.game.partners(state.inner, seat)

    def view(self, state: Counted, seat: int | None) -> View:
        return self.game.view(state.inner, seat)

    def to_act(self, state: Counted) -> frozenset[int]:
        return self.game.to_act(state.inner)

    def seats(self, state: Counted) -> int:
        return self.game.seats(state.inner)

    def timers(self, state: Counted) -> tuple[Timer, ...]:
        return self.game.timers(state.inner)

    def cards_in_play(self, state: Counted) -> list[str]:
        return self.game.cards_in_play(state.inner)

    def hidden_cards(self, state: Counted, seat: int | None) -> list[str]:
        return self.game.hidden_cards(state.inner, seat)

    def shown_cards(self, state: Counted, seat: int) -> list[str]:
        return self.game.shown_cards(state.inner, seat)

    def public_record(self, state: Counted) -> list[str]:
        return self.game.public_record(state.inner)


def even_chips(state: Any) -> Any:
    return replace(state, chips=(state.chips[0],) * state.seats)


def even_places(state: Any) -> Any:
    return state.replace(places=(1,) * state.seats)


# Each game, a table size, and options making the match short.
CASES: list[tuple[Game[Any], int, dict[str, JSON]]] = [
    (Ciapano(), 4, {"match_length": "hands:3"}),  # TRESETTE-11
    (Hearts(), 4, {"target": 1}),  # HEARTS-6
    (Bestia(), 3, {"hands": 1}),  # BESTIA-8
    (Scala40(), 3, {"match_length": "hands:1"}),  # SCALA40-8
    (SetteMezzo(), 3, {"hands": 1}),  # SETTEMEZZO-9
    (Poker(), 3, {"hands": 1}),  # POKER-11
]
IDS = [game.name for game, _, _ in CASES]
EVEN: dict[str, Callable[[Any], Any]] = {
    "scala40": even_places,
    "settemezzo": even_chips,
    "poker": even_chips,
}


def play(game: Game[Any], state: Any, seed: int) -> tuple[Any, list[Event]]:
    """Random legal play to the end; the final state and every event, in order."""
    rng = random.Random(seed)
    events: list[Event] = []
    while waiting := game.to_act(state):
        seat = rng.choice(sorted(waiting))
        state, produced = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        events.extend(produced)
    return state, events


def decided(state: Any) -> Outcome:
    assert state.outcome is not None
    return state.outcome  # type: ignore[no-any-return]


@pytest.mark.parametrize(("rules", "seats", "options"), CASES, ids=IDS)
def test_pcg_7_a_drawn_match_gets_a_tie_break_hand_in_the_same_stream(
    rules: Game[Any], seats: int, options: dict[str, JSON]
) -> None:
    assert rules.offers_knock_out
    game = knock_out(Levelled(rules, even=EVEN.get(rules.name)))
    state, events = play(game, game.new_game(options, seats, b"ko-games"), 1)
    outcome = decided(state)
    how = outcome.detail["knock_out"]
    assert how["decided_by"] in ("tie_break", "last_capture", "shared")
    assert 1 <= len(how["tie_break_hands"]) <= MAX_TIE_BREAK_HANDS
    types = [e["type"] for e in events]
    assert types.count("tie_break_hand") == len(how["tie_break_hands"])
    assert types[-1] == "knock_out_decided"
    # The tie-break hand is dealt in the stream after the match, and play goes on in it.
    opened = types.index("tie_break_hand")
    assert opened + 1 < len(types) - 1
    assert events[opened]["tied"] == list(range(seats))
    # Tie-break points never enter the match totals, and the hand ranks the tied seats.
    match_end = state.match
    assert outcome.scores == match_end.scores
    if how["decided_by"] == "tie_break":
        assert min(outcome.places) == 1 and len(set(outcome.places)) > 1


@pytest.mark.parametrize(("rules", "seats", "options"), CASES, ids=IDS)
def test_pcg_7_after_three_drawn_tie_break_hands_the_last_capture_loses(
    rules: Game[Any], seats: int, options: dict[str, JSON]
) -> None:
    game = knock_out(Levelled(rules, level_hands=MAX_TIE_BREAK_HANDS, even=EVEN.get(rules.name)))
    for seed in range(2, 12):
        state, _ = play(game, game.new_game(options, seats, b"ko-three"), seed)
        how = decided(state).detail["knock_out"]
        assert len(how["tie_break_hands"]) == MAX_TIE_BREAK_HANDS
        last = rules.last_capture(state.current.inner)
        if last is not None:
            break
        # A third hand nobody played (Bestia's all-pass): the tied seats share the place.
        assert how["decided_by"] == "shared" and decided(state).places == (1,) * seats
    assert last is not None
    assert how["decided_by"] == "last_capture" and how["last_capture"] == last
    places = decided(state).places
    assert places[last] == max(places) and places.count(1) == seats - 1


@pytest.mark.parametrize(("rules", "seats", "options"), CASES, ids=IDS)
def test_pcg_7_a_knock_out_match_honours_the_contract_through_its_tie_break_hands(
    rules: Game[Any], seats: int, options: dict[str, JSON]
) -> None:
    """Conformance (legal actions, conservation, hidden cards, replay byte for byte)
    holds across the match and its tie-break hands."""
    game = knock_out(Levelled(rules, level_hands=1, even=EVEN.get(rules.name)))
    record = play_random_game(
        game,
        seats,
        options,
        b"ko-conf",
        b"\x01",
        [None] * seats,
        deep=True,
        deep_steps=40,
        max_actions=50_000,
    )
    check_replay(game, record)
    assert record.final.outcome.detail["knock_out"]["tie_break_hands"]


# -- games whose own rules play the tie-break hands inside the match -----------------------


def burraco_discard(card: str) -> Action:
    return Action(ActionKind.DISCARD, cards=(card,))


def test_pcg_7_burraco_ko_third_drawn_tie_break_lost_by_the_side_that_played_last() -> None:
    """BURRACO-10 at a KO table: two tie-break hands drawn, the third drawn too; seat 0
    made the last play, so side 0 loses and the outcome says it was the last capture."""
    assert Burraco.offers_knock_out and Burraco.own_tie_breaks
    game = knock_out(BURRACO)
    state = burraco_table([["9C", "4D"], ["4S"]], options={"match_length": "hands:1"})
    state = state.replace(totals=(0, 0), tiebreaks=2, last_turn=True)
    after, events = game.apply(KnockOutState(current=state), 0, burraco_discard("9C"))
    outcome = decided(after)
    assert outcome.places == (2, 1)
    assert outcome.detail["knock_out"]["decided_by"] == "last_capture"
    assert BURRACO.last_capture(after.current) == 0
    assert [e["type"] for e in events][-2:] == ["game_over", "knock_out_decided"]


def test_pcg_7_burraco_ko_a_level_match_deals_its_tie_break_hand_in_the_same_stream() -> None:
    game = knock_out(BURRACO)
    long_run = meld("5H", "6H", "7H", "8H", "9H", "10H", "JH")
    base = burraco_table([["9C"], ["4C"]], took_pozzetto=(True, True), melds=([long_run], []))
    level = base.replace(totals=(1900, 2260))  # 2255 against 2255: a tie-break hand
    after, events = game.apply(KnockOutState(current=level), 0, burraco_discard("9C"))
    assert after.outcome is None and after.current.tiebreaks == 0
    dealt = [e for e in events if e["type"] == "hand_dealt"]
    assert len(dealt) == 1 and dealt[0]["tie_break"] is True
    assert BURRACO.partners(after.current, 0) == frozenset({0})


def test_pcg_7_a_scala_40_tie_break_hand_is_dealt_to_the_tied_seats_only() -> None:
    """SCALA40-8: two players eliminated in the same hand with the same total share
    first place; the tie-break hand is theirs, a match of one hand."""
    rules = Scala40()
    start = rules.new_game({"match_length": "elimination"}, 3, b"ko-scala")
    ended = start.replace(places=(1, 3, 1), alive=(False, False, False), end_reason="x")
    dealt, events = rules.tie_break_hand(ended)
    assert dealt.alive == (True, False, True) and dealt.hands[1] == ()
    assert len(dealt.hands[0]) == len(dealt.hands[2]) > 0
    assert dealt.options.hands_limit == 1 and dealt.hand_no == start.hand_no + 1
    assert events[0]["type"] == "hand_dealt" and rules.outcome(dealt) is None


def test_pcg_7_every_registered_game_but_solitario_offers_ko() -> None:
    """Solitario is played alone: no sides to break a tie between (docs/decisions.md)."""
    games = all_games()
    assert [name for name, game in sorted(games.items()) if not game.offers_knock_out] == [
        "solitario"
    ]
    assert all(isinstance(knock_out(g), KnockOut) for n, g in games.items() if n != "solitario")


@pytest.mark.parametrize(
    ("rules", "options"), [(Poker(), {"hands": 2}), (SetteMezzo(), {"hands": 2})]
)
def test_pcg_7_in_chip_games_the_last_capture_is_the_seat_that_played_last(
    rules: Game[Any], options: dict[str, JSON]
) -> None:
    """Neither captures nor tricks (RULES §0 rule 14): the last play of the hand."""
    for seed in range(6):
        state = rules.new_game(options, 3, f"last play {seed}".encode())
        rng, last = random.Random(seed), None
        while waiting := rules.to_act(state):
            last = rng.choice(sorted(waiting))
            state, _ = rules.apply(state, last, rng.choice(rules.legal_actions(state, last)))
        assert rules.last_capture(state) == last
