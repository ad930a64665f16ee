"""Every level of every game chooses a legal action from any position, cold, and the easy
level plays as a novice does (MODE-1 versus computer, MODE-3 bots filling a table;
GAMES 8): a card that fits before a wild, the capture in front of it, never taking back
its own opening, and medium Bestia takes a pot it can take alone."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.base import LEVELS, Novice, RandomBot
from tavolo.cardgames.bots.fishing.core import FishingBot
from tavolo.cardgames.bots.registry import make_bot
from tavolo.cardgames.bots.shedding.novice import SheddingNovice
from tavolo.cardgames.bots.tricks.bestia import PASSES, PLAYS, BestiaBot, hand_chances
from tavolo.cardgames.bots.tricks.hearts import EasyBot as HeartsEasy
from tavolo.cardgames.bots.tricks.novice import TrickNovice, TrickTaste, trumps_in_view
from tavolo.cardgames.bots.tricks.tresette import NOVICE as TRESETTE_NOVICE
from tavolo.cardgames.contract import View
from tavolo.cardgames.games.fishing.scopa import Scopa
from tavolo.cardgames.games.tricks.bestia import Bestia
from tavolo.cardgames.games.tricks.briscola_state import ORDER as BRISCOLA_ORDER
from tavolo.cardgames.games.tricks.briscola_state import POINTS as BRISCOLA_POINTS
from tavolo.cardgames.registry import all_games, get_game
from tavolo.cardgames.rng import SeededRandom
from tests.unit.cardgames.fishing_table import table as fishing_table
from tests.unit.cardgames.test_uno_rules import uno_table

GAMES = sorted(all_games())


@st.composite
def positions(draw: st.DrawFn) -> tuple[str, int, bytes, int]:
    name = draw(st.sampled_from(GAMES))
    seats = draw(st.sampled_from(get_game(name).seat_counts()))
    return name, seats, draw(st.binary(min_size=1, max_size=8)), draw(st.integers(0, 150))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.sampled_from(LEVELS))
def test_every_level_chooses_a_legal_action_from_any_position_cold(
    position: tuple[str, int, bytes, int], level: str
) -> None:
    """MODE-3: a seat handed over mid-game gets a fresh bot that has seen nothing; at any
    point of a randomly played game its first choice is one of the legal actions."""
    name, seats, seed, steps = position
    game = get_game(name)
    state = game.new_game(None, seats, seed)
    chooser = SeededRandom(seed, 1)
    for _ in range(steps):
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        state, _ = game.apply(state, seat, legal[chooser.randbelow(len(legal))])
    if game.outcome(state) is not None:
        return
    seat = min(game.to_act(state))
    legal = game.legal_actions(state, seat)
    bot = make_bot(name, level, seed)
    assert bot.choose(game.view(state, seat), legal) in legal


def test_easy_is_a_novice_not_a_random_clicker_in_every_game() -> None:
    """GAMES 8: no game's easy level is the uniformly random player."""
    for name in GAMES:
        bot = make_bot(name, "easy", b"seed").bot
        inner = bot.policy if isinstance(bot, Novice) else bot
        assert not isinstance(inner, RandomBot), name


def test_easy_uno_plays_a_fitting_number_before_a_wild() -> None:
    """MODE-1: holding a red 1 on a red 5 beside two wilds, the novice plays the 1; it
    slips into some other legal move now and then, never most of the time."""
    state = uno_table({0: ["R1", "W", "W+4", "G3"]}, top="R5")
    game = get_game("uno")
    view, legal = game.view(state, 0), game.legal_actions(state, 0)
    assert any(a.cards and a.cards[0][0] == "W" for a in legal)
    seeds = range(200)
    policy = SheddingNovice()
    assert {policy.choose(view, legal, SeededRandom(bytes([s]))).cards for s in seeds} == {("R1",)}
    chosen = Counter(make_bot("uno", "easy", s).choose(view, legal).cards for s in seeds)
    assert chosen[("R1",)] >= 150
    assert sum(n for cards, n in chosen.items() if cards != ("R1",)) > 0  # it does slip


def test_easy_fishing_takes_the_capture_in_front_of_it() -> None:
    """MODE-1: with a 5 in hand and a 5 on the table, easy Scopa takes it."""
    game = Scopa()
    state = fishing_table(game, 2, {0: "5C 2D FS", 1: "3C 4D 6S"}, "5D RC", stock="AC AD")
    view, legal = game.view(state, 0), game.legal_actions(state, 0)
    for s in range(50):
        action = FishingBot("easy").choose(view, legal, SeededRandom(bytes([s])))
        assert action.capture == ("5D",), action


def _declare_until_last(seed: bytes) -> tuple[Bestia, object, int]:
    """A Bestia hand where every seat but the last to declare has passed."""
    game = Bestia()
    state = game.new_game(None, 4, seed)
    while True:
        (seat,) = game.to_act(state)
        legal = game.legal_actions(state, seat)
        undecided = [d for d in game.view(state, seat).public["declared"] if d is None]
        if len(undecided) == 1:
            return game, state, seat
        assert PASSES in legal
        state, _ = game.apply(state, seat, PASSES)


def test_medium_bestia_takes_a_pot_it_can_take_alone() -> None:
    """MODE-1: everyone before it passed; a weak hand (no near-sure trick, under one
    trick expected) still plays, for the whole pot is taken unplayed by a lone player."""
    weak_hands = 0
    for n in range(40):
        game, state, seat = _declare_until_last(f"bestia-alone-{n}".encode())
        view = game.view(state, seat)  # type: ignore[arg-type]
        chances = hand_chances(view.hand, str(view.public["trumps"]))
        if sum(chances) >= 0.6:
            continue
        weak_hands += 1
        legal = game.legal_actions(state, seat)  # type: ignore[arg-type]
        assert BestiaBot("medium").choose(view, legal, SeededRandom(b"m")) == PLAYS
    assert weak_hands >= 5


def test_easy_scala40_opens_and_never_takes_back_its_own_opening() -> None:
    """MODE-1: in whole hands of easy bots, no easy seat ever takes back melds it laid
    (the take-back is the PASS of the opening), and the hands do get opened."""
    game = get_game("scala40")
    take_backs = opened = 0
    for n in range(6):
        state = game.new_game({"match_length": "hands:1"}, 2, f"s40-{n}".encode())
        bots = [make_bot("scala40", "easy", f"s40-{n}-{s}") for s in range(2)]
        for _ in range(3000):
            if game.outcome(state) is not None:
                break
            (seat,) = game.to_act(state)
            legal = game.legal_actions(state, seat)
            action = bots[seat].choose(game.view(state, seat), legal)
            take_backs += action == Action(ActionKind.PASS)
            state, _ = game.apply(state, seat, action)
        opened += sum(bool(o) for o in game.view(state, 0).public["opened"])
    assert take_backs == 0
    assert opened > 0


def _trick_view(hand: list[str], trick: list[tuple[int, str]], trumps: str | None) -> View:
    public = {
        "trick": [{"seat": s, "card": c} for s, c in trick],
        "hand_sizes": [len(hand)] * 2,
        "trumps": trumps,
    }
    return View(seat=1, hand=tuple(hand), public=public)


def _plays(hand: list[str]) -> list[Action]:
    return [Action(ActionKind.PLAY, cards=(c,)) for c in hand]


def test_easy_trick_games_follow_sensibly() -> None:
    """MODE-1: easy Briscola takes a led ace with its cheapest winning card, and gives
    its cheapest card to a trick worth nothing it cannot win; easy Hearts ducks under
    the winning card with the highest card that still loses."""
    briscola = TrickNovice(TrickTaste(BRISCOLA_ORDER, BRISCOLA_POINTS, trumps_in_view))
    rng = SeededRandom(b"novice")
    hand = ["3C", "2B", "4S", "RC"]  # trumps are spade: 4S is the cheapest winning trump
    led_ace = _trick_view(hand, [(0, "AC")], "S")
    assert briscola.choose(led_ace, _plays(hand), rng).cards == ("4S",)
    hand = ["3C", "2B", "RC"]
    nothing = _trick_view(hand, [(0, "5D")], "S")
    assert briscola.choose(nothing, _plays(hand), rng).cards == ("2B",)
    hearts = HeartsEasy()
    hand = ["2H", "9H", "KH"]
    under_jack = _trick_view(hand, [(0, "JH")], None)
    assert hearts.choose(under_jack, _plays(hand), rng).cards == ("9H",)


def test_medium_tresette_loads_points_on_a_trick_its_partner_holds_for_sure() -> None:
    """MODE-1: the partner led the 3 (the top card) and the opponent followed low; medium
    gives it its ace (a whole point), where the novice throws its cheapest card."""
    hand = ("AC", "5C", "RB")
    public = {
        "trick": [{"seat": 0, "card": "3C"}, {"seat": 1, "card": "4C"}],
        "hand_sizes": [9, 9, 10, 10],
        "stock_size": 0,
        "sides": [[0, 2], [1, 3]],
        "shown": [[], [], [], []],
    }
    view = View(seat=2, hand=hand, public=public)
    legal = _plays(["AC", "5C"])
    rng = SeededRandom(b"load")
    assert make_bot("tresette", "medium", b"m").choose(view, legal).cards == ("AC",)
    assert TRESETTE_NOVICE.choose(view, legal, rng).cards == ("5C",)
