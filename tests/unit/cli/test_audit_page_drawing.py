"""The replay page draws every game as a person reads it (AUDIT-4): for each game the
terminal can show, a table played out at random yields a page where the events are told in
the terminal's own words and every card in a seat's hand is drawn with its suit's sign and
colour, from the legend of that game's deck."""

from __future__ import annotations

import random

import pytest

from tavolo.cardgames.registry import get_game
from tavolo.cli.audit.page import page_data
from tavolo.cli.play.renderers import RENDERERS
from tavolo.tablelog.setup import SeatInfo, build_setup
from tests.unit.engine.play import play_random, recorded


@pytest.mark.parametrize("game", sorted(RENDERERS))
async def test_every_game_is_told_in_words_and_drawn_as_cards(game: str) -> None:
    seats = get_game(game).seat_counts()[0]
    setup = build_setup(
        table_id=f"page-{game}",
        game=game,
        options={},
        seats=[
            SeatInfo(0, "alice"),
            *(SeatInfo(s, bot=True, bot_level="easy") for s in range(1, seats)),
        ],
        mode="versus_computer",
    )
    store, table = await play_random(setup, rng_seed=random.Random(game).randrange(1000))
    assert not table.playing  # the seed is revealed: the page can replay the table
    data = page_data(await recorded(store, setup.table_id))
    told = [step["words"] for step in data["steps"] if step["words"]]
    assert told, f"{game}: no event is told in words ({data['problem']})"
    suits = {s["suit"] for s in data["legend"]}
    hands = [
        card for step in data["steps"] for view in step["views"] or [] for card in view["hand"]
    ]
    assert hands, f"{game}: no seat ever held a card"
    for card in hands:
        face = data["cards"].get(card)
        assert face is not None, f"{game}: {card} is not drawn"
        assert face["suit"] in suits, (game, card)
        assert (face["rank"] and face["rank"] in card) or face["rank"] in ("wild", "Joker")
    # A French deck's red suits are red; each suit of a deck has a colour of its own
    # but for the French black pair.
    colours = {s["suit"]: s["colour"] for s in data["legend"]}
    if "hearts" in colours:
        assert colours["hearts"] == colours["diamonds"] != colours["spades"] == colours["clubs"]
    else:
        assert len(set(colours.values())) == len(colours)
