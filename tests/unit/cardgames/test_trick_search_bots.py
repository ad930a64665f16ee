"""The hard trick bots' search: its worlds play by the engine's rules, its guesses agree
with what the seat has seen, and its choice depends on the seat's view alone (DESIGN
guarantee 5). Strength is measured in bench/bench_bot_league.py."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.base import SeatedBot
from tavolo.cardgames.bots.registry import make_bot
from tavolo.cardgames.bots.tricks.briscola import BriscolaBot
from tavolo.cardgames.bots.tricks.ciapano import CiapanoBot
from tavolo.cardgames.bots.tricks.determinized import MAX_WORLDS, best_move
from tavolo.cardgames.bots.tricks.tresette import TresetteBot, tresette_sampler
from tavolo.cardgames.bots.tricks.world import STOCK, TrickRules, TrickWorld, deal_unseen
from tavolo.cardgames.contract import Game, View
from tavolo.cardgames.games import italian_cards
from tavolo.cardgames.games.tricks.briscola import Briscola
from tavolo.cardgames.games.tricks.briscola_state import ORDER as BRISCOLA_ORDER
from tavolo.cardgames.games.tricks.briscola_state import POINTS
from tavolo.cardgames.games.tricks.ciapano import Ciapano
from tavolo.cardgames.games.tricks.tresette import Tresette
from tavolo.cardgames.games.tricks.tresette_cards import ORDER as TRESETTE_ORDER
from tavolo.cardgames.games.tricks.tresette_cards import THIRDS
from tavolo.cardgames.rng import SeededRandom

SUIT = italian_cards.SUIT_OF


def _world_of(name: str, state: Any) -> TrickWorld:
    """The whole truth of a hand just dealt, as a world (a test may look at everything)."""
    n = state.seats
    if name == "briscola":
        side = [s % 2 if n == 4 else s for s in range(n)]
        rules = TrickRules(BRISCOLA_ORDER, state.trumps, False, POINTS, side, lambda p, w: 0.0)
    else:
        side = [s % 2 if state.partnerships else s for s in range(n)]
        avoid = name == "ciapano"
        rules = TrickRules(TRESETTE_ORDER, None, True, THIRDS, side, lambda p, w: 0.0, avoid=avoid)
    hands = [list(h) for h in state.hands]
    stock = list(reversed(state.stock))
    return TrickWorld(rules, hands, stock, [], state.turn, [[] for _ in range(n)], state.turn)


@pytest.mark.parametrize(
    ("game", "seats"),
    [(Briscola(), 2), (Briscola(), 4), (Tresette(), 2), (Tresette(), 4), (Ciapano(), 4)],
)
def test_a_world_plays_a_hand_as_the_engine_does(game: Game[Any], seats: int) -> None:
    """Every card the playout policy picks is legal in the engine, and the world's
    tricks end where the engine's do, with the same cards in each seat's pile."""
    state = game.new_game(None, seats, b"world")
    world = _world_of(game.name, state)
    while world.plays_left():
        seat = world.turn
        assert game.to_act(state) == {seat}
        assert sorted(world.hands[seat]) == sorted(state.hands[seat])
        card = world.policy()
        state, events = game.apply(state, seat, Action(ActionKind.PLAY, cards=(card,)))
        world.play(card)
        if world.plays_left():
            assert [sorted(p) for p in world.piles] == [sorted(p) for p in state.taken]
    assert any(e["type"] == "hand_scored" for e in events)


@settings(max_examples=60, deadline=None)
@given(
    counts=st.lists(st.integers(0, 8), min_size=2, max_size=4),
    seed=st.binary(min_size=1, max_size=8),
)
def test_a_guess_fills_every_place_with_the_unseen_cards(counts: list[int], seed: bytes) -> None:
    unseen = list(italian_cards.DECK[: sum(counts)])
    places = {(STOCK if i == 0 else i): c for i, c in enumerate(counts)}
    dealt = deal_unseen(unseen, places, {}, SUIT, SeededRandom(seed))
    assert {p: len(cards) for p, cards in dealt.items()} == places
    assert sorted(c for cards in dealt.values() for c in cards) == sorted(unseen)


def test_a_guess_gives_no_seat_a_suit_it_has_shown_it_lacks() -> None:
    """Seat 1 lacks coppe and denari, seat 2 lacks spade: over many guesses none breaks
    that, though the stock may hold anything."""
    unseen = [c for c in italian_cards.DECK if c[0] in "A234567"]  # 28 cards
    places = {1: 10, 2: 10, STOCK: 8}
    lacking = {1: {"C", "D"}, 2: {"S"}}
    rng = SeededRandom(b"voids")
    for _ in range(50):
        dealt = deal_unseen(unseen, places, lacking, SUIT, rng)
        assert not any(SUIT[c] in "CD" for c in dealt[1])
        assert not any(SUIT[c] == "S" for c in dealt[2])


def _hide_differently(name: str, state: Any, seat: int) -> Any:
    """The same table as ``seat`` sees it, with every card it cannot see dealt anew:
    the others' unshown cards and the stock's face-down cards, shuffled among them."""
    shown = set(getattr(state, "shown", ()))
    stock = list(state.stock)
    fixed_bottom = name == "briscola" and state.turned_on_view()
    face_down = stock[:-1] if fixed_bottom else stock
    hidden = [c for s, h in enumerate(state.hands) if s != seat for c in h if c not in shown]
    pool = hidden + face_down
    SeededRandom(b"another deal").shuffle(pool)
    hands = []
    for s, held in enumerate(state.hands):
        if s == seat:
            hands.append(held)
            continue
        kept = tuple(c for c in held if c in shown)
        fresh = tuple(pool.pop() for _ in range(len(held) - len(kept)))
        hands.append(kept + fresh)
    new_stock = tuple(pool) + ((stock[-1],) if fixed_bottom else ())
    return state.replace(hands=tuple(hands), stock=new_stock)


@pytest.mark.parametrize(
    ("game", "seats", "plays"),
    [(Briscola(), 2, 13), (Briscola(), 4, 17), (Tresette(), 2, 9), (Ciapano(), 4, 15)],
)
def test_the_hard_choice_depends_only_on_the_view(game: Game[Any], seats: int, plays: int) -> None:
    """DESIGN guarantee 5: mid-hand, a hard bot that has watched the hand from its start
    chooses the same card when every card it cannot see lies elsewhere; the search (not
    a fallback) makes that choice, from guesses built out of its view."""
    state = game.new_game(None, seats, b"same view")
    bots = [make_bot(game.name, "hard", s) for s in range(seats)]
    for _ in range(plays):
        (seat,) = game.to_act(state)
        action = bots[seat].choose(game.view(state, seat), game.legal_actions(state, seat))
        state, _ = game.apply(state, seat, action)
    (seat,) = game.to_act(state)
    other = _hide_differently(game.name, state, seat)
    assert [sorted(h) for h in other.hands] != [sorted(h) for h in state.hands]
    assert game.view(other, seat) == game.view(state, seat)
    assert len(game.legal_actions(state, seat)) > 1
    choices = set()
    for table in (state, other):
        bot: SeatedBot = copy.deepcopy(bots[seat])
        choices.add(bot.choose(game.view(table, seat), game.legal_actions(table, seat)))
        assert _searched(bot, game.view(table, seat))
    assert len(choices) == 1


def _searched(seated: SeatedBot, view: View) -> bool:
    """Whether the bot's memory accounts for every card, so the search decides."""
    bot = seated.bot
    if isinstance(bot, BriscolaBot):
        return bot._sampler(view) is not None
    assert isinstance(bot, TresetteBot | CiapanoBot) and bot.memory is not None
    return tresette_sampler(bot.memory, view, set(), _no_score, avoid=False) is not None


def _no_score(piles: list[list[str]], last_winner: int) -> float:
    return 0.0


class _Guess:
    """A world whose outcome is its luck plus what the move is worth: the searcher must
    find the best move whatever the luck of each guess."""

    worth = {"low": 0.0, "mid": 0.5, "high": 1.0}

    def __init__(self, luck: float, plays: int) -> None:
        self.luck, self.plays, self.move = luck, plays, ""

    def copy(self) -> _Guess:
        return _Guess(self.luck, self.plays)

    def plays_left(self) -> int:
        return self.plays

    def play(self, move: str) -> None:
        self.move = move

    def play_out(self) -> None:
        self.plays = 0

    def value(self) -> float:
        return self.luck + self.worth[self.move]


def test_the_search_keeps_the_best_average_over_the_same_guesses() -> None:
    sampled: list[float] = []

    def sample(rng: SeededRandom) -> _Guess:
        sampled.append(rng.randbelow(1000) * 10.0)  # luck far larger than any move's worth
        return _Guess(sampled[-1], 20)

    rng = SeededRandom(b"search")
    assert best_move(["mid", "low", "high"], sample, rng, budget=600) == "high"
    assert len(sampled) == 10  # 600 plays / (3 moves x 20 plays left)
    assert best_move(["low"], sample, rng) == "low" and len(sampled) == 10  # nothing to search
    sampled.clear()
    best_move(["low", "high"], sample, rng, budget=10**9)
    assert len(sampled) == MAX_WORLDS


def test_a_hard_bot_seated_mid_hand_plays_on_without_the_search() -> None:
    """A bot that takes over a seat mid-hand has not seen the earlier tricks, so no guess
    could account for every card: it plays on with the tactics of what it did see."""
    game = Briscola()
    state = game.new_game(None, 2, b"takes over")
    for _ in range(8):
        (seat,) = game.to_act(state)
        state, _ = game.apply(state, seat, game.legal_actions(state, seat)[0])
    (seat,) = game.to_act(state)
    seated = make_bot("briscola", "hard", 1)
    view, legal = game.view(state, seat), game.legal_actions(state, seat)
    assert seated.choose(view, legal) in legal
    assert not _searched(seated, view)
