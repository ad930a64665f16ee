"""Turn order on screen: the line naming whose turn it is and who follows is what the
rules then do, at every game; a Spades round's score line adds up as it says."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from tavolo.cardgames.actions import ActionKind
from tavolo.cardgames.games.tricks.spades_scoring import Member, score_team_round
from tavolo.cardgames.registry import get_game
from tavolo.cli.play.render.pika import RENDERER as PIKA
from tavolo.cli.play.render.spades import RENDERER as SPADES
from tavolo.cli.play.render.spades import explain_score
from tavolo.cli.play.renderers import RENDERERS, renderer_for

NAMES = ["You", "Bot 1", "Bot 2", "Bot 3"]
LINE = re.compile(
    r"^(Your turn|Waiting for (?P<who>.+?)) to .+; then (?P<then>.+) \((?P<dir>\w+)\)\.$"
)


def _parse(line: str | None) -> tuple[str, list[str], str]:
    assert line is not None
    match = LINE.match(line)
    assert match, line
    return match["who"] or "You", match["then"].split(", "), match["dir"]


def test_the_pika_turn_line_names_who_plays_next() -> None:
    game = get_game("pika")
    checked: dict[str, int] = {"clockwise": 0, "anticlockwise": 0}
    for n in range(6):
        pick = random.Random(n)
        state: Any = game.new_game({}, 4, f"turns-{n}".encode())
        for _ in range(2000):
            if game.outcome(state) is not None:
                break
            seat = min(game.to_act(state))
            view = game.view(state, 0)
            action = pick.choice(game.legal_actions(state, seat))
            plain = (
                action.kind is ActionKind.PLAY
                and action.cards[0][1:].isdigit()
                and seat == view.public["turn"]
                and not view.public["stack"]
            )
            before = view.public["round"]
            state, _ = game.apply(state, seat, action)
            after = game.view(state, 0).public
            if not plain or after["round"] != before or game.outcome(state) is not None:
                continue
            who, then, direction = _parse(PIKA.turn(view, NAMES))
            assert who == NAMES[seat]
            assert then[0] == NAMES[after["turn"]], (PIKA.turn(view, NAMES), after["turn"])
            assert sorted([who, *then]) == sorted(NAMES)
            checked[direction] += 1
    assert checked["clockwise"] > 10 and checked["anticlockwise"] > 10, checked


def test_spades_bids_are_told_in_the_order_they_were_made() -> None:
    game = get_game("spades")
    for n in range(4):
        pick = random.Random(n)
        state: Any = game.new_game({}, 4, f"bids-{n}".encode())
        acted: list[str] = []
        while game.view(state, 0).public["phase"] != "playing":
            seat = min(game.to_act(state))
            view = game.view(state, 0)
            who, then, direction = _parse(SPADES.turn(view, NAMES))
            assert (who, direction) == (NAMES[seat], "clockwise")
            if acted:
                assert acted[-1] not in then[:-1]  # who just bid comes last again
            acted.append(NAMES[seat])
            bids = [a for a in game.legal_actions(state, seat) if a.kind is ActionKind.BID]
            state, _ = game.apply(state, seat, pick.choice(bids))
        view = game.view(state, 0)
        news = SPADES.news(None, view, NAMES)
        told = [re.match(r"(You|Bot \d) bids? ", line) for line in news[1:5]]
        assert [m[1] for m in told if m] == acted
        assert news[0] == f"Round 1: {acted[0]} {'bid' if acted[0] == 'You' else 'bids'} first."
        table = SPADES.table(view, NAMES)
        bids_line = next(line for line in table.splitlines() if line.startswith("Bids: "))
        assert [part.rsplit(" ", 1)[0] for part in bids_line[6:].split(" | ")] == acted


def test_every_seat_is_told_whom_the_table_waits_for() -> None:
    game = get_game("pika")
    state: Any = game.new_game({}, 3, b"waiting")
    names = ["Giulia", "Marco", "You"]
    turn = game.view(state, 2).public["turn"]
    for me in range(3):
        line = PIKA.turn(game.view(state, me), [*names[:me], "You", *names[me + 1 :]][:3])
        assert line is not None
        assert line.startswith("Your turn to" if me == turn else "Waiting for ")


def test_a_score_line_explains_bags() -> None:
    team = score_team_round(100, 2, (Member(4, 6), Member(3, 4)), bag_points=-1).to_dict()
    assert team["delta"] == 67
    assert explain_score(team) == "+70 for making bid 7, -3 for 3 bags (-1 each)"
    over = score_team_round(100, 8, (Member(2, 3), Member(2, 3)), bag_points=1).to_dict()
    assert explain_score(over) == (
        "+40 for making bid 4, +2 for 2 bags (+1 each), -100 for reaching 10 bags"
    )
    nil = score_team_round(0, 0, (Member(0, 1), Member(5, 3)), bag_points=-1).to_dict()
    assert explain_score(nil) == "-50 for missing bid 5, -100 for nil"
    for each in (team, over, nil):
        items = [int(x) for x in re.findall(r"([+-]\d+) for", explain_score(each))]
        assert sum(items) == each["delta"]


SIMULTANEOUS = {"solitario"}
"""Games whose seats all play at once (Solitario's own layouts): nobody's turn to name."""


@pytest.mark.parametrize("game_name", sorted(RENDERERS))
def test_every_game_names_the_seat_it_waits_for(game_name: str) -> None:
    game, renderer = get_game(game_name), renderer_for(game_name)
    seats = 4 if game.min_players <= 4 <= game.max_players else game.min_players
    names = NAMES[:seats]
    told = 0
    for n in range(3):
        pick = random.Random(n)
        state: Any = game.new_game({}, seats, f"every-{n}".encode())
        for _ in range(300):
            if game.outcome(state) is not None:
                break
            acting = game.to_act(state)
            for me in range(seats):
                line = renderer.turn(game.view(state, me), [*names[:me], "You", *names[me + 1 :]])
                if line is None or len(acting) != 1:
                    continue
                who, then, _ = _parse(line)
                [seat] = acting
                assert who == ("You" if seat == me else names[seat]), line
                assert len(then) == seats - 1
                told += 1
            seat = min(acting)
            state, _ = game.apply(state, seat, pick.choice(game.legal_actions(state, seat)))
    if game_name in SIMULTANEOUS:
        assert told == 0
        return
    assert told > 100
