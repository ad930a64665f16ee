"""KO play (RULES §0 rule 14, PCG-7) over the real Pika, Uno and Spades rules.

A drawn two-player match is hard to reach by chance, so the Pika and Uno doubles below
change one thing only, on purpose: how a result is placed (a match, or every tie-break
hand too, always ends level). Their tie-break hands, plays and last captures are the
games' own.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tavolo.cardgames import Event, Game, InvalidOptions, Outcome
from tavolo.cardgames.games.fishing.scopa import Scopa
from tavolo.cardgames.games.fishing.scopone import Scopone
from tavolo.cardgames.games.shedding.pika import Pika
from tavolo.cardgames.games.shedding.uno import Uno
from tavolo.cardgames.games.solitario.solitario import Solitario
from tavolo.cardgames.games.tricks.briscola import Briscola
from tavolo.cardgames.games.tricks.spades import Spades
from tavolo.cardgames.games.tricks.tresette import Tresette
from tavolo.cardgames.knockout import MAX_TIE_BREAK_HANDS, KnockOut, KnockOutState, knock_out
from tests.unit.cardgames.conformance import check_replay, play_random_game
from tests.unit.cardgames.fishing_table import play as scopa_play
from tests.unit.cardgames.fishing_table import table


class LevelMatch:
    """Places every match level; with ``every_hand`` the tie-break hands too."""

    every_hand = False

    def _finish_match(self, st: Any, places: Any, scores: Any, reason: str, events: Any) -> None:
        single = st.rules.hands_limit is None and st.rules.points_target is None
        if self.every_hand or not single:
            places = (1,) * st.seats
        super()._finish_match(st, places, scores, reason, events)  # type: ignore[misc]


class DrawnPika(LevelMatch, Pika):
    pass


class AlwaysDrawnPika(DrawnPika):
    every_hand = True


class DrawnUno(LevelMatch, Uno):
    pass


class AlwaysDrawnUno(DrawnUno):
    every_hand = True


def play(game: Game[Any], state: Any, seed: int) -> tuple[Any, list[Event]]:
    """Random legal play to the end; the final state and every event, in order."""
    rng = random.Random(seed)
    events: list[Event] = []
    while waiting := game.to_act(state):
        seat = rng.choice(sorted(waiting))
        state, produced = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        events.extend(produced)
    return state, events


def ko_outcome(state: Any) -> Outcome:
    assert state.outcome is not None
    return state.outcome  # type: ignore[no-any-return]


@pytest.mark.parametrize(("rules", "options"), [(DrawnPika(), "hands:2"), (DrawnUno(), "hands:2")])
def test_pcg_7_a_drawn_match_is_decided_by_the_first_tie_break_hand(
    rules: Game[Any], options: str
) -> None:
    game = knock_out(rules)
    start = game.new_game({"match_length": options, "players": 2}, 2, b"ko-one")
    state, events = play(game, start, 1)
    outcome = ko_outcome(state)
    assert sorted(outcome.places) == [1, 2]
    assert outcome.detail["knock_out"]["decided_by"] == "tie_break"
    assert len(outcome.detail["knock_out"]["tie_break_hands"]) == 1
    types = [e["type"] for e in events]
    assert types.count("tie_break_hand") == 1 and types[-1] == "knock_out_decided"
    # The tie-break hand is dealt in the same stream, after the match's end ...
    opened = types.index("tie_break_hand")
    assert types.index("game_over") < opened and types[opened + 1] == "deal"
    # ... its winner wins, and its points never enter the match totals.
    hand_over = [e for e in events if e["type"] == "game_over"][-1]
    assert outcome.places == tuple(1 if p == 1 else 2 for p in hand_over["places"])
    match_over = next(e for e in events if e["type"] == "game_over")
    assert list(outcome.scores) == match_over["scores"]


@pytest.mark.parametrize("rules", [AlwaysDrawnPika(), AlwaysDrawnUno()])
def test_pcg_7_after_three_drawn_tie_break_hands_the_last_play_loses(rules: Game[Any]) -> None:
    game = knock_out(rules)
    start = game.new_game({"match_length": "hands:1", "players": 2}, 2, b"ko-three")
    state, events = play(game, start, 2)
    outcome = ko_outcome(state)
    how = outcome.detail["knock_out"]
    assert how["decided_by"] == "last_capture"
    assert len(how["tie_break_hands"]) == MAX_TIE_BREAK_HANDS
    # The seat that made the last play of the third hand loses, whatever its points.
    last_deal = max(i for i, e in enumerate(events) if e["type"] == "deal")
    plays = [e["seat"] for e in events[last_deal:] if e["type"] == "play"]
    assert how["last_capture"] == plays[-1]
    assert outcome.places[plays[-1]] == 2 and outcome.places[1 - plays[-1]] == 1
    assert [e["type"] for e in events].count("tie_break_hand") == MAX_TIE_BREAK_HANDS


def test_pcg_7_a_decided_match_needs_no_tie_break_hand() -> None:
    game = knock_out(Pika())
    state, events = play(game, game.new_game({"players": 3}, 3, b"ko-plain"), 3)
    outcome = ko_outcome(state)
    assert outcome.detail["knock_out"] == {"decided_by": "match", "tie_break_hands": []}
    assert "tie_break_hand" not in {e["type"] for e in events}


def test_pcg_7_spades_plays_ko_with_its_own_tie_break_rounds() -> None:
    """A Spades match is never drawn (level scores play rule 14 inside the match)."""
    game = knock_out(Spades())
    state, _ = play(game, game.new_game({"target": 100}, 4, b"ko-spades"), 4)
    outcome = ko_outcome(state)
    assert sorted(outcome.places) == [1, 1, 3, 3]
    assert outcome.detail["knock_out"]["decided_by"] == "match"


def test_pcg_7_the_view_tells_every_seat_which_tie_break_hand_is_played() -> None:
    game = knock_out(DrawnPika())
    state = game.new_game({"match_length": "hands:1", "players": 2}, 2, b"ko-view")
    rng = random.Random(5)
    while not state.tied:
        (seat,) = game.to_act(state)
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    for seat in (0, 1, None):
        ko = game.view(state, seat).public["knock_out"]
        assert ko == {"tie_break_hand": 1, "tied": [0, 1], "tie_break_scores": []}


def test_pcg_7_a_game_without_tie_break_hands_is_refused_saying_so() -> None:
    with pytest.raises(InvalidOptions, match=r"Solitario \(Klondike\) does not offer knock-out"):
        knock_out(Solitario())
    assert isinstance(knock_out(Uno()), KnockOut)


@pytest.mark.parametrize(
    ("rules", "seats", "options"),
    [
        (DrawnPika(), 2, {"match_length": "hands:1"}),
        (AlwaysDrawnUno(), 3, {"match_length": "hands:1"}),
        (Spades(), 4, {"target": 100}),
    ],
)
def test_pcg_7_a_knock_out_match_honours_the_contract_through_its_tie_break_hands(
    rules: Game[Any], seats: int, options: dict[str, Any]
) -> None:
    """The conformance checks (legal actions, refusals, conservation, hidden cards in
    every view, replay byte for byte) hold across the match and its tie-break hands."""
    game = knock_out(rules)
    for n in range(1):
        seed, chooser = f"ko conformance {n}".encode(), bytes([n + 1])
        record = play_random_game(
            game,
            seats,
            options,
            seed,
            chooser,
            [None] * seats,
            deep=True,
            deep_steps=40,
            max_actions=50_000,
        )
        check_replay(game, record)
        assert "knock_out" in (record.final.outcome.detail)


# -- games that play their own tie-break hands (fishing and trick games) ------------------


def test_pcg_7_fixture_30_a_scopa_ko_match_third_drawn_tie_break_lost_by_the_last_capturer() -> (
    None
):
    """RULES fixture 30 at a KO table: tie-break hands 1 and 2 drawn, hand 3 ends 3-3 and
    side B (seat 1) made the last capture, so B loses and the outcome says how."""
    scopa = Scopa()
    game = knock_out(scopa)
    state = table(
        scopa,
        2,
        {0: "", 1: "5S"},
        "5B",
        turn=1,
        piles={0: "7D AD 2D 3D 7C", 1: "RD 6S 6B 6C 4D 4C 2C 3C FB CB RB"},
        totals=(11, 11),
        sheet=((11, 11),),
        tied=(0, 1),
        tiebreaks=((0, 0), (2, 2)),
        scope=(1, 1),
    )
    after, events = game.apply(KnockOutState(current=state), 1, scopa_play("5S", "5B"))
    outcome = ko_outcome(after)
    assert outcome.places == (1, 2)
    assert outcome.detail["knock_out"]["decided_by"] == "last_capture"
    assert outcome.detail["tie_break_hands"][-1] == [3, 3]
    assert events[-1]["type"] == "knock_out_decided"


@pytest.mark.parametrize(
    ("rules", "seats"), [(Scopa(), 2), (Scopone(), 4), (Briscola(), 2), (Tresette(), 2)]
)
def test_pcg_7_fishing_and_trick_games_offer_ko_and_end_decided(
    rules: Game[Any], seats: int
) -> None:
    game = knock_out(rules)
    state = game.new_game({}, seats, b"ko-own")
    if any(spec.name == "ko" for spec in rules.option_specs):
        opts = state.current.options
        ko = opts["ko"] if isinstance(opts, dict) else opts.ko
        assert ko is True  # the game's own KO option, turned on
    state, _ = play(game, state, 7)
    outcome = ko_outcome(state)
    assert len(set(outcome.places)) == 2  # two sides, one first
    assert outcome.detail["knock_out"]["decided_by"] in ("match", "tie_break", "last_capture")


def test_pcg_7_partners_of_a_four_seat_scopone_are_the_opposite_seats() -> None:
    rules = Scopone()
    state = rules.new_game({}, 4, b"ko-partners")
    assert rules.partners(state, 1) == frozenset({1, 3})
