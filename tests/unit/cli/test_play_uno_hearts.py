"""``tavolo play uno`` and ``tavolo play hearts``: whole offline matches, each game's screens."""

from __future__ import annotations

import io
import itertools

from tavolo.cardgames.games.shedding.uno import ACCEPT, CHALLENGE, NAME
from tavolo.cli.play.command import play
from tavolo.cli.play.render.uno import RENDERER
from tests.unit.cardgames.test_cli_play import scripted
from tests.unit.cardgames.test_uno_rules import GAME, act, uno_table
from tests.unit.cardgames.test_uno_rules import play as uno_play


def test_a_whole_uno_match_against_hard_bots() -> None:
    out = io.StringIO()
    code = play("uno", 3, "hard", "uno cli", input_line=scripted(itertools.repeat("1")), out=out)
    text = out.getvalue()
    assert code == 0
    assert "Match points: You 0" in text and "Colour in play:" in text
    assert "is over:" in text and "scores" in text  # each hand's result, as it ends
    assert "Final places" in text and "points)" in text


def test_a_challenge_and_an_uno_call_read_as_words() -> None:
    hit = act(uno_table({0: ["W+4", "B1"]}, top="R5"), 0, uno_play("W+4", "blue"))
    view = GAME.view(hit, 2)
    table = RENDERER.table(view, ["Ada", "Bea", "You"])
    assert "Ada played a wild +4 on you: accept (draw 4) or challenge" in table
    assert RENDERER.choice(ACCEPT, view) == "accept the wild +4 (draw 4)"
    assert RENDERER.choice(CHALLENGE, view) == "challenge the wild +4"
    assert RENDERER.choice(NAME[0], view) == "name red"


def test_a_whole_hearts_match_against_hard_bots() -> None:
    out = io.StringIO()
    code = play(
        "hearts", 4, "hard", "hearts cli", input_line=scripted(itertools.repeat("1")), out=out
    )
    text = out.getvalue()
    assert code == 0
    assert "Pass three cards to the player on your right" in text
    assert "The cards have changed hands." in text and "takes it." in text
    assert "is over:" in text and "Final places" in text


def test_a_card_chosen_to_pass_leaves_the_hand_line_at_once() -> None:
    """Each card chosen for the pass is listed as chosen and no longer in "Your hand",
    before the others have chosen theirs; once the cards change hands the hand is whole
    again (thirteen cards)."""
    from tavolo.cardgames.actions import ActionKind
    from tavolo.cardgames.games.french_deck import pretty
    from tavolo.cardgames.games.tricks.hearts import Hearts
    from tavolo.cli.play.renderers import renderer_for

    game, renderer, names = Hearts(), renderer_for("hearts"), ["You", "Bea", "Cy", "Di"]
    state = game.new_game(None, 4, b"pass screen")
    chosen: list[str] = []
    for _ in range(3):
        (pass_card, *_rest) = game.legal_actions(state, 0)
        assert pass_card.kind is ActionKind.PASS_CARDS
        state, _events = game.apply(state, 0, pass_card)
        chosen.append(pass_card.cards[0])
        text = renderer.table(game.view(state, 0), names)
        hand_line = next(line for line in text.splitlines() if line.startswith("Your hand:"))
        chosen_line = next(line for line in text.splitlines() if "Chosen:" in line)
        for card in chosen:
            assert pretty(card) not in hand_line.split(), (card, hand_line)
            assert pretty(card) in chosen_line
        assert len(hand_line.split()) - 2 == 13 - len(chosen)
