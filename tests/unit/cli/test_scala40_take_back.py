"""Scala 40's menu before opening: melds of cards taken back this turn come last, after
the discards, so a player who always picks the first choice no longer lays a meld short
of the 40 and takes it back for ever (RULES §13; MODE-1)."""

from __future__ import annotations

import io

import pytest

from tavolo.cardgames.actions import ActionKind
from tavolo.cardgames.registry import get_game
from tavolo.cli.play.command import play
from tavolo.cli.play.renderers import new_recall, remember, renderer_for

RENDERER = renderer_for("scala40")


@pytest.mark.parametrize("seed", ["r1", "r2", "r3", "s4"])
def test_always_the_first_choice_comes_to_the_end(seed: str) -> None:
    """Each of these deals looped for ever before (5,000 answers and still going)."""
    answers = [0]

    def first(prompt: str) -> str | None:
        answers[0] += 1
        return None if answers[0] > 1_000 else "1"

    assert play("scala40", 4, "medium", seed, input_line=first, out=io.StringIO()) == 0


def test_melds_taken_back_go_after_the_discards_until_the_turn_ends() -> None:
    """At a real table: a meld laid and taken back, then its cards' melds are offered
    last, the others and the discards first; after a discard, in their order again."""
    game = get_game("scala40")
    state = game.new_game({}, 4, b"take back")
    for _ in range(400):  # to the player's first turn with melds to lay; all draw, discard
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        if seat == 0 and sum(a.kind is ActionKind.MELD for a in legal) > 1:
            break
        state, _ = game.apply(
            state, seat, next((a for a in legal if a.kind is ActionKind.DISCARD), legal[0])
        )
    else:
        pytest.fail("no turn with two melds to lay")
    recall = new_recall(RENDERER)
    view = game.view(state, 0)
    first = [a for _, a in RENDERER.menu(view, legal, recall)]
    laid = first[0]
    assert laid.kind is ActionKind.MELD
    remember(recall, view, legal, laid)
    state, _ = game.apply(state, 0, laid)
    back = next(a for a in game.legal_actions(state, 0) if a.kind is ActionKind.PASS)
    remember(recall, game.view(state, 0), game.legal_actions(state, 0), back)
    state, _ = game.apply(state, 0, back)
    view, legal = game.view(state, 0), game.legal_actions(state, 0)
    again = [a for _, a in RENDERER.menu(view, legal, recall)]
    same = [a for a in again if a.kind is ActionKind.MELD and sorted(a.cards) == sorted(laid.cards)]
    assert laid in same and again[-len(same) :] == same
    assert again[0] != laid and any(a.kind is ActionKind.DISCARD for a in again[: -len(same)])
    assert [a for _, a in RENDERER.menu(view, legal)] == first  # without the memory: a loop
    discard = next(a for a in legal if a.kind is ActionKind.DISCARD)
    remember(recall, view, legal, discard)  # the turn is over: the order comes back
    assert [a for _, a in RENDERER.menu(view, legal, recall)] == first
