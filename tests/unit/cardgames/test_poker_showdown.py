"""Poker's showdown shows the hands that reach it (POKER-10, RULES §14.10): their cards are
public in the view's ``last_hand`` from then on, folded hands never, and the terminal
shows every shown hand's cards (MODE-1)."""

from __future__ import annotations

import io
import re
from typing import Any, cast

import pytest

from tavolo.cardgames.actions import ActionKind
from tavolo.cardgames.contract import View
from tavolo.cardgames.games.betting.poker import Poker
from tavolo.cardgames.games.betting.poker_state import PokerState
from tavolo.cardgames.games.french_deck import pretty
from tavolo.cardgames.rng import SeededRandom
from tavolo.cli.i18n import _ as say
from tavolo.cli.i18n import use
from tavolo.cli.play.command import play
from tavolo.cli.play.render.poker_words import hand_words
from tavolo.cli.play.renderers import renderer_for
from tests.unit.cardgames.conformance import check_views

GAME = Poker()
SEEDS = 12


class UnrecordedPoker:
    """Poker that names the showdown's cards in the view without saying they are public.
    It wraps the rules rather than subclassing them: compiled rules (the second run of
    these tests) cannot be subclassed by interpreted code."""

    def __init__(self) -> None:
        self._rules = Poker()

    def public_record(self, state: PokerState) -> list[str]:
        return []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rules, name)


def showdowns(seed: int, players: int) -> list[tuple[PokerState, dict[str, Any], list[bool]]]:
    """Each showdown of a random game: the state after it, the event, and who had
    folded by then (the last action may be a fold)."""
    rng = SeededRandom(f"chooser {seed}".encode())
    state = GAME.new_game({"hands": 6}, players, f"showdown {seed}".encode())
    found = []
    while GAME.outcome(state) is None:
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        action = legal[rng.randbelow(len(legal))]
        folded = list(state.folded)
        folded[seat] = folded[seat] or action.kind is ActionKind.FOLD
        state, events = GAME.apply(state, seat, action)
        found += [(state, e, folded) for e in events if e["type"] == "showdown"]
    return found


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_shown_hands_are_public_and_folded_hands_never_are(players: int) -> None:
    """Every showdown of random games: the view of every seat and of a spectator names
    exactly the hands that reached it (the event's), each once; no folded seat's; and the
    conformance check, told by ``public_record``, still finds no hidden card in a view."""
    seen = 0
    for seed in range(SEEDS):
        for state, event, folded in showdowns(seed, players):
            seen += 1
            shown = event["hands"]
            assert {int(s) for s in shown} == {s for s in range(players) if not folded[s]}
            for seat in [None, *range(players)]:
                record: Any = GAME.view(state, seat).public["last_hand"]
                assert record["cards"] == shown
                assert set(record["shown"]) == set(shown)
            assert sorted(GAME.public_record(state)) == sorted(c for h in shown.values() for c in h)
            check_views(GAME, state)
            with pytest.raises(AssertionError, match="which it cannot see"):
                check_views(cast(Any, UnrecordedPoker()), state)
    assert seen > SEEDS  # the random games did reach showdowns


def test_an_uncontested_pot_shows_no_card() -> None:
    """A pot taken when everyone else passed is taken unseen: no record, no cards."""
    state = GAME.new_game({"blind": False}, 2, b"alone")
    while state.last_hand is None or "uncontested" not in state.last_hand:
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        bets = [a for a in legal if a.kind.value == "bet"]
        state, _ = GAME.apply(state, seat, bets[0] if bets else legal[-1])
    assert GAME.public_record(state) == []
    assert "cards" not in GAME.view(state, 0).public["last_hand"]


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_screen_shows_every_shown_hand_with_its_cards(language: str) -> None:
    """The showdown block names each hand that reached it with its five cards, the
    bots' as well as the player's, in the order of the record; the hand in the
    client's language (I18N-1), the cards as they are."""
    renderer = renderer_for("poker")
    names = ["You", "Bot 1", "Bot 2", "Bot 3"]
    checked = translated = 0
    use(language)
    try:
        for seed in range(SEEDS):
            for state, event, _ in showdowns(seed, 4):
                after = GAME.view(state, 0)
                before = View(0, (), {**after.public, "deal_no": -1, "last_hand": None}, {})
                lines = renderer.news(before, after, names)
                head = say("Hand {n}, showdown:").format(n=after.public["last_hand"]["hand"])
                block = lines[lines.index(head) + 1 :]
                shown = after.public["last_hand"]["shown"]
                for s, cards in event["hands"].items():
                    line = next(line for line in block if line.startswith(f"  {names[int(s)]}: "))
                    words = hand_words(shown[s])
                    assert (
                        line == f"  {names[int(s)]}: {words} ({' '.join(pretty(c) for c in cards)})"
                    ), line
                    translated += words != shown[s]
                    checked += 1
    finally:
        use("en")
    assert checked > SEEDS
    assert (translated == checked) if language == "it" else translated == 0


def test_a_seeded_game_shows_the_bots_cards_at_its_showdowns() -> None:
    """``tavolo play poker``: every line of every showdown ends with five cards."""
    out = io.StringIO()
    assert (
        play("poker", 4, "medium", "cards", input_line=lambda _: "1", out=out, options={"hands": 6})
        == 0
    )
    blocks = re.findall(r"^Hand \d+, showdown:\n((?:  .*: .*\n)+)", out.getvalue(), re.M)
    lines = [line for block in blocks for line in block.splitlines()]
    assert any(line.startswith("  Bot ") for line in lines), "no showdown with a bot"
    for line in lines:
        cards = re.search(r"\(([^()]*)\)$", line)
        assert cards is not None and len(cards[1].split()) == 5, line
