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
