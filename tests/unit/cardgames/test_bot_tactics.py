"""What sets the levels apart, shown on hand-built positions (GAMES 8: three levels a
player can feel apart; MODE-1 versus computer). Each test names the tactic a level has
and the level below it lacks; every level's choice is the same for every seed where the
tactic decides, while the novice's varies. How much each tactic is worth over many
deals is the bot league's to measure (bench/bench_bot_league.py)."""

from __future__ import annotations

from collections.abc import Sequence

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.registry import make_bot
from tavolo.cardgames.bots.tricks.hearts import EasyBot as HeartsEasy
from tavolo.cardgames.bots.tricks.hearts import MediumBot as HeartsMedium
from tavolo.cardgames.contract import View
from tavolo.cardgames.rng import SeededRandom
from tests.unit.cardgames.pika_table import GAME as PIKA
from tests.unit.cardgames.pika_table import act as pika_act
from tests.unit.cardgames.pika_table import pika_table
from tests.unit.cardgames.test_solitario_rules import GAME as SOLITARIO
from tests.unit.cardgames.test_solitario_rules import layout, table
from tests.unit.cardgames.test_uno_bots import GAME as UNO
from tests.unit.cardgames.test_uno_rules import uno_table

SEEDS = range(30)


def _choices(game: str, level: str, view: View, legal: Sequence[Action]) -> set[Action]:
    """Every choice ``level`` makes here over :data:`SEEDS` (fresh bots each time)."""
    return {make_bot(game, level, seed).choose(view, legal) for seed in SEEDS}


def _cards(actions: set[Action]) -> set[str]:
    """The cards played (a draw, the novice's slip, as ``"draw"``)."""
    return {a.cards[0] if a.cards else a.kind.value for a in actions}


def test_games_8_uno_medium_sheds_the_higher_number_hard_the_action_card() -> None:
    """A single round ranks the seats that did not go out by the points they hold
    (RULES Uno 9). Holding red 2, red 9 and a red skip on a red 5: medium plays the 9
    (of two numbers the costlier), hard plays the skip (20 points, dearer than any
    number); the novice plays any red card."""
    state = uno_table({0: ["R2", "R9", "Rskip", "G1"]}, top="R5")
    view, legal = UNO.view(state, 0), UNO.legal_actions(state, 0)
    assert _cards(_choices("uno", "medium", view, legal)) == {"R9"}
    assert _cards(_choices("uno", "hard", view, legal)) == {"Rskip"}
    assert _cards(_choices("uno", "easy", view, legal)) >= {"R2", "R9", "Rskip"}


def test_games_8_uno_every_level_plays_a_fitting_number_before_a_wild() -> None:
    """GAMES 8: a beginner plays a card that fits before a wild; so does every level
    above it (a wild fits anything later). The novice's slips aside, easy's choices
    are the red 3 whatever its seed."""
    state = uno_table({0: ["W", "R3", "G4"]}, top="R5")
    view, legal = UNO.view(state, 0), UNO.legal_actions(state, 0)
    for level in ("medium", "hard"):
        assert _cards(_choices("uno", level, view, legal)) == {"R3"}
    easy = [make_bot("uno", "easy", seed).choose(view, legal) for seed in range(200)]
    assert sum(a.cards == ("R3",) for a in easy) > 150  # a slip about one time in eight


def _hearts_view(hand: list[str], trick: list[tuple[int, str]]) -> View:
    public = {"trick": [{"seat": s, "card": c} for s, c in trick]}
    return View(seat=0, hand=tuple(hand), public=public)


def _plays(cards: list[str]) -> list[Action]:
    return [Action(ActionKind.PLAY, cards=(c,)) for c in cards]


def test_games_8_hearts_medium_takes_a_clean_last_trick_with_its_highest_card() -> None:
    """Last to a club trick with no point on it, medium takes it with its king (a card
    that would otherwise win a dearer trick later); the novice ducks with the 3. With a
    heart on the trick, medium ducks too."""
    hand = ["3C", "JC", "KC", "4H"]
    clubs = _plays(["3C", "JC", "KC"])
    rng = SeededRandom(b"hearts")
    clean = _hearts_view(hand, [(1, "2C"), (2, "5C"), (3, "9C")])
    assert HeartsMedium().choose(clean, clubs, rng).cards == ("KC",)
    assert HeartsEasy().choose(clean, clubs, rng).cards == ("3C",)
    dirty = _hearts_view(hand, [(1, "2C"), (2, "5H"), (3, "9C")])
    assert HeartsMedium().choose(dirty, clubs, rng).cards == ("3C",)


def test_games_8_hearts_medium_void_throws_the_spade_that_catches_the_queen() -> None:
    """Void in diamonds with the Q♠ out, medium throws its A♠ (a card that would take the
    queen) before its K♥; the novice throws the heart, its costliest card by points.
    Holding the queen, medium throws her first."""
    rng = SeededRandom(b"void")
    hand = ["AS", "7S", "KH", "2C"]
    view = _hearts_view(hand, [(1, "5D")])
    assert HeartsMedium().choose(view, _plays(hand), rng).cards == ("AS",)
    assert HeartsEasy().choose(view, _plays(hand), rng).cards == ("KH",)
    hand = ["AS", "QS", "KH", "2C"]
    view = _hearts_view(hand, [(1, "5D")])
    assert HeartsMedium().choose(view, _plays(hand), rng).cards == ("QS",)


def test_games_8_solitario_medium_turns_up_a_card_where_most_are_hidden() -> None:
    """SOLITARIO: an 8♥ over one face-down card and an 8♦ over four can each go on the
    9♠. Medium weighs the two moves and frees the column hiding more, whatever its seed;
    the novice takes either. Hard agrees."""
    lay = layout(["2C | 8H", "3C 4C 5C 6C | 8D", "9S"])
    state = table(lay)
    view, legal = SOLITARIO.view(state, 0), SOLITARIO.legal_actions(state, 0)
    deep = {(a.source, a.target) for a in _choices("solitario", "medium", view, legal)}
    assert deep == {("t2", "t3")}
    hard = {(a.source, a.target) for a in _choices("solitario", "hard", view, legal)}
    assert hard == {("t2", "t3")}
    easy = {(a.source, a.target) for a in _choices("solitario", "easy", view, legal)}
    assert {("t1", "t3"), ("t2", "t3")} <= easy


def test_games_8_solitario_medium_empties_a_column_for_a_waiting_king() -> None:
    """SOLITARIO: a K♥ sits on two face-down cards and the 10♦ alone in a column can go on
    the J♠. Medium moves the 10♦ to empty that column (where the king can then go, turning
    a card up), whatever its seed; the novice sees no card to turn up and no waste to
    play, and moves nothing."""
    lay = layout(["2C 3C | KH", "JS", "10D", "5S", "5C", "7S", "7C"])
    state = table(lay)
    view, legal = SOLITARIO.view(state, 0), SOLITARIO.legal_actions(state, 0)
    medium = {(a.source, a.target) for a in _choices("solitario", "medium", view, legal)}
    assert medium == {("t3", "t2")}
    easy = _choices("solitario", "easy", view, legal)
    assert all(a.kind is not ActionKind.MOVE for a in easy)


def test_games_8_pika_hard_keeps_a_black_card_it_has_just_drawn() -> None:
    """PIKA-2: with nothing to play, the seat draws a +4 it may play at once or keep.
    Medium plays it; hard keeps it (it fits anything later and answers a stack) while
    it holds more than two cards (the drawn one included), and plays it when that leaves
    it one card to go."""
    for drawn in ("W+4", "W"):
        state = pika_table({0: ["G1", "B2", "Y3"]}, top="R5", stock=[drawn])
        state = pika_act(state, 0, Action(ActionKind.DRAW))
        view, legal = PIKA.view(state, 0), PIKA.legal_actions(state, 0)
        assert {a.kind for a in legal} == {ActionKind.PLAY, ActionKind.KEEP}
        assert _cards(_choices("pika", "medium", view, legal)) == {drawn}
        assert {a.kind for a in _choices("pika", "hard", view, legal)} == {ActionKind.KEEP}
    state = pika_table({0: ["G1"]}, top="R5", stock=["W"])
    state = pika_act(state, 0, Action(ActionKind.DRAW))
    view, legal = PIKA.view(state, 0), PIKA.legal_actions(state, 0)
    assert {a.kind for a in _choices("pika", "hard", view, legal)} == {ActionKind.PLAY}
