"""Poker's bet and raise menus offer a few amounts, not every one (up to 38 lines
before): the least, half the pot, the pot, the most (all-in when it is), and "another
amount", which asks for the number, offline and at the engine alike (MODE-1)."""

from __future__ import annotations

import io
import re
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.games.betting.poker import Poker
from tavolo.cardgames.rng import SeededRandom
from tavolo.cli.i18n import use
from tavolo.cli.play import command
from tavolo.cli.play.renderers import amount_answer, amount_question, menu, renderer_for
from tavolo.tablelog.convert import action_from_proto

from .human_moves import record_human_moves
from .test_table_client import _until
from .test_table_client_typing import _my_turn, _seat, _stop

GAME = Poker()
RENDERER = renderer_for("poker")
SIZED = (ActionKind.BET, ActionKind.RAISE)


def positions(count: int) -> list[tuple[Any, int]]:
    """Random poker positions where the seat to act may bet or raise, every seat count,
    short and deep stacks."""
    found: list[tuple[Any, int]] = []
    rng = SeededRandom(b"amounts")
    for n in range(count):
        players = 2 + n % 5
        stack = (10, 30, 100, 400)[n % 4]
        state = GAME.new_game({"starting_stack": stack}, players, f"amounts {n}".encode())
        while GAME.outcome(state) is None and len(found) < (n + 1) * 6:
            (seat,) = GAME.to_act(state)
            legal = GAME.legal_actions(state, seat)
            if state.phase != "blind" and any(a.kind in SIZED for a in legal):
                found.append((state, seat))
            state, _ = GAME.apply(state, seat, legal[rng.randbelow(len(legal))])
    return found


def test_every_bet_and_raise_menu_is_short_and_reaches_every_amount() -> None:
    """In every position drawn: at most 8 lines; the amounts listed are legal, the least
    and the most among them; "another amount" is there exactly when some amount is not
    listed, and its answer takes every legal amount and nothing else."""
    checked = 0
    for state, seat in positions(60):
        view = GAME.view(state, seat)
        legal = GAME.legal_actions(state, seat)
        choices = menu(RENDERER, view, legal)
        assert len(choices) <= 8, [label for label, _ in choices]
        for kind in SIZED:
            amounts = sorted(int(a.amount or 0) for a in legal if a.kind is kind)
            if not amounts:
                continue
            listed = [a for _, a in choices if a.kind is kind and a.amount is not None]
            assert all(a in legal for a in listed)
            assert {amounts[0], amounts[-1]} <= {a.amount for a in listed}
            other = [a for _, a in choices if a.kind is kind and a.amount is None]
            assert len(other) == (len(listed) < len(amounts))
            for choice in other:
                assert amount_question(RENDERER, view, choice) is not None
                for typed in range(amounts[-1] + 3):
                    got = amount_answer(RENDERER, view, legal, choice, str(typed))
                    assert got == (Action(kind, amount=typed) if typed in amounts else None)
                assert amount_answer(RENDERER, view, legal, choice, "lots") is None
            checked += 1
        labels = [label for label, a in choices if a.amount is not None and a.kind in SIZED]
        chips = state.chips[seat]
        call = view.public["to_call"]
        for label, a in choices:
            if a.kind in SIZED and a.amount is not None:
                assert label.endswith(", all-in") == (a.amount + call == chips), labels
    assert checked > 100


def test_another_amount_asks_for_the_number_offline(monkeypatch: Any) -> None:
    """Offline: "another amount", a wrong number (told which are right), Enter (the menu
    again), then "another amount" and a right number: that bet or raise is played."""
    out = io.StringIO()
    played = record_human_moves(monkeypatch)
    asked: list[int] = []  # the least amount, at each question

    def answer(prompt: str) -> str | None:
        current = out.getvalue().split("--- Hand")[-1]  # the menu on screen
        other = re.findall(r"(\d+)\) (?:bet|raise by) another amount \((\d+) to (\d+)\)", current)
        if prompt.startswith("How many chips?"):
            low, high = int(other[-1][1]), int(other[-1][2])
            asked.append(low)
            return {1: str(high + 1), 2: ""}.get(len(asked), str(low + 1))
        if any(a.kind in SIZED for a in played):
            return "q"
        return other[-1][0] if other else "1"

    assert command.play("poker", 4, "easy", "another", input_line=answer, out=out) == 1
    text = out.getvalue()
    assert len(asked) == 3
    assert re.search(r"'\d+' is not an amount: type a number from \d+ to \d+, or Enter", text)
    sized = [a for a in played if a.kind in SIZED]
    assert sized == [Action(sized[0].kind, amount=asked[-1] + 1)]


async def test_another_amount_asks_for_the_number_at_the_engine() -> None:
    state = _my_turn("poker", "amount", ActionKind.RAISE)
    engine, out, typed, run = await _seat("poker", state)
    text = out.getvalue()
    line = re.search(r"(\d+)\) raise by another amount \((\d+) to (\d+)\)", text)
    assert line is not None
    number, low, high = line[1], int(line[2]), int(line[3])
    typed.put(number)
    await _until(out, lambda t: t.count("How many chips?") == 1)
    typed.put(str(high + 1))
    await _until(out, lambda t: f"'{high + 1}' is not an amount" in t)
    await _until(out, lambda t: t.count("How many chips?") == 2)
    typed.put(str(low))
    await _until(out, lambda t: bool(engine.acts))
    assert action_from_proto(engine.acts[0].action) == Action(ActionKind.RAISE, amount=low)
    assert engine.acts[0].expected_version == 5
    await _stop(engine, run, "poker", state)


def test_i18n_1_another_amount_speaks_italian_offline(monkeypatch: Any) -> None:
    """I18N-1 with MODE-1 in Italian: the short bet menu's tags and "another amount", the
    question, the refusal of a wrong number are Italian; Enter goes back to the menu and
    "esci" at the question leaves the table as it does at the menu."""
    out = io.StringIO()
    played = record_human_moves(monkeypatch)
    asked: list[str] = []

    def answer(prompt: str) -> str | None:
        current = out.getvalue().split("--- Smazzata")[-1]  # the menu on screen
        other = re.findall(
            r"(\d+)\) (?:punto|rilancio di) un'altra somma \(da (\d+) a (\d+)\)", current
        )
        if prompt.startswith("Quante fiche?"):
            asked.append(prompt)
            high = int(other[-1][2])
            if len(asked) > 3:  # "esci" was not taken for leaving
                return None
            return {1: str(high + 1), 2: ""}.get(len(asked), "esci")
        return other[-1][0] if other else "1"

    use("it")
    try:
        code = command.play("poker", 4, "easy", "another", input_line=answer, out=out)
    finally:
        use("en")
    text = out.getvalue()
    assert code == 1 and len(asked) == 3
    assert asked[0] == "Quante fiche? (un numero; Invio torna indietro): "
    assert re.search(r"'\d+' non è una somma: scrivi un numero da \d+ a \d+, o Invio", text)
    assert re.search(r"\d+\) (?:punto|rilancio di) \d+, (?:metà piatto|il piatto)", text)
    assert not [a for a in played if a.kind in SIZED]
    for english in ("another amount", "half the pot", "the pot", "How many", "not an amount"):
        assert english not in text, english
