"""Briscola bots: each level plays only what its view allows, and the tactics each
level promises (strength over many games is measured in bench/bench_bot_league.py)."""

from __future__ import annotations

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.registry import bot_levels, make_bot
from tavolo.cardgames.bots.tricks.briscola import BriscolaBot
from tavolo.cardgames.games.tricks.briscola import Briscola
from tavolo.cardgames.games.tricks.briscola_state import BriscolaState
from tavolo.cardgames.rng import SeededRandom
from tests.unit.cardgames.test_briscola_rules import table

GAME = Briscola()


def choose(bot: BriscolaBot, state: BriscolaState, seat: int) -> str:
    action = bot.choose(GAME.view(state, seat), GAME.legal_actions(state, seat), SeededRandom(b"b"))
    return action.cards[0]


def remember_taken(bot: BriscolaBot, state: BriscolaState) -> None:
    """Show the hard bot the finished tricks the hand-built table stands for, as the
    views of a real hand would have, two cards a trick."""
    assert bot.memory is not None
    cards = [c for pile in state.taken for c in pile]
    for n in range(0, len(cards), 2):
        plays = [{"seat": 0, "card": cards[n]}, {"seat": 1, "card": cards[n + 1]}]
        last = {"number": n // 2 + 1, "plays": plays, "winner": 0}
        bot.memory.observe({"hand_no": state.hand_no, "trick": [], "last_trick": last})


def test_three_levels_are_offered() -> None:
    assert bot_levels("briscola") == ("easy", "medium", "hard")


def test_every_level_finishes_games_with_legal_moves_only() -> None:
    for players in (2, 3, 4):
        state = GAME.new_game(None, players, b"bots")
        bots = [make_bot("briscola", ("easy", "medium", "hard")[s % 3], s) for s in range(players)]
        while GAME.outcome(state) is None:
            (seat,) = GAME.to_act(state)
            legal = GAME.legal_actions(state, seat)
            action = bots[seat].choose(GAME.view(state, seat), legal)
            assert action in legal
            state, _ = GAME.apply(state, seat, action)


def test_medium_leads_a_liscio_rather_than_a_load_or_a_trump() -> None:
    state = table(2, {0: "AC 4D 2B", 1: "3C 5C 6D"}, stock="6S 7B")
    assert choose(BriscolaBot("medium"), state, 0) == "4D"


def test_medium_takes_a_load_with_the_cheapest_winning_card() -> None:
    state = table(2, {0: "3C", 1: "AD 4D 2B RB"}, stock="6S 7B", turn=1, trick=((0, "3C"),))
    state = state.replace(hands=((), ("AD", "4D", "2B")))
    assert choose(BriscolaBot("medium"), state, 1) == "2B"


def test_medium_gives_a_liscio_to_a_trick_worth_nothing() -> None:
    state = table(2, {0: "4C", 1: "AD 5S 2B"}, stock="6S 7B", turn=1, trick=((0, "4C"),))
    state = state.replace(hands=((), ("AD", "5S", "2B")))
    assert choose(BriscolaBot("medium"), state, 1) == "5S"


def test_medium_loads_a_trick_its_partner_is_sure_to_win() -> None:
    trick = ((1, "4C"), (2, "AB"), (3, "5C"))
    state = table(4, {0: "AD 5S 6S"}, stock="", turn=0, trick=trick)
    assert choose(BriscolaBot("medium"), state, 0) == "AD"


def test_hard_leads_a_load_nothing_left_can_beat() -> None:
    """With every trump and the A of coppe gone, the 3 of coppe is master: hard leads it."""
    state = table(2, {0: "3C 4D 5S", 1: "6D 7D 5C"}, stock="6S 7B", turn=0)
    bot = BriscolaBot("hard")
    remember_taken(bot, state)
    assert choose(bot, state, 0) == "3C"
    assert choose(BriscolaBot("medium"), state, 0) != "3C"


def test_hard_plays_the_last_tricks_at_two_perfectly() -> None:
    """No stock at two: hard knows the other hand. Leading the R coppe gives it to the
    A; leading the 4 spade forces the A out on nothing, then the R wins the 3."""
    state = table(2, {0: "RC 4S", 1: "AC 3C"}, stock="", turned="7B", turn=0, taken_by=0)
    bot = BriscolaBot("hard")
    remember_taken(bot, state)
    card = choose(bot, state, 0)
    assert card == "4S"
    assert Action(ActionKind.PLAY, cards=(card,)) in GAME.legal_actions(state, 0)
