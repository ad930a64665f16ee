"""Build a Pika table in a chosen position, so each rule's scenario reads like the rule.

``pika_table(hands={3: ["R+2", "G4"], ...}, top="R5")`` lays out the given hands and top
card; a seat left out of ``hands`` gets the three cards of :data:`FILLER_HANDS` (an empty
hand would mean that seat has gone out). Every other card of the 108 goes to the stock
in deck order (``rest="stock"``), under the top card (``rest="discard"``, with ``stock``
given), or out of the game (``rest="out"``: a partial deck, for positions such as a dry
pile that a full deck cannot show).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.games.shedding.deck import COLOUR_LETTERS, DECK
from tavolo.cardgames.games.shedding.pika import Pika
from tavolo.cardgames.games.shedding.pika_state import (
    CLOCKWISE,
    PikaRules,
    PikaState,
    parse_match_length,
)
from tavolo.cardgames.rng import SeededRandom

GAME = Pika()
FILLER_HANDS: dict[int, list[str]] = {
    0: ["R7", "R8", "R9"],
    1: ["G7", "G8", "G9"],
    2: ["B7", "B8", "B9"],
    3: ["Y7", "Y8", "Y9"],
}


def pika_table(
    hands: Mapping[int, Sequence[str]],
    top: str,
    *,
    seats: int = 4,
    turn: int = 0,
    colour: str | None = None,
    direction: int = CLOCKWISE,
    stack: int = 0,
    stock: Sequence[str] | None = None,
    rest: Literal["stock", "discard", "out"] = "stock",
    options: Mapping[str, Any] | None = None,
) -> PikaState:
    """A Pika state; ``colour`` is a colour name and defaults to the top card's colour."""
    opts = GAME.options({**(options or {}), "players": seats})
    hands_limit, points_target = parse_match_length(opts["match_length"])
    rules = PikaRules(
        window_ms=round(opts["pika_window"] * 1000),
        match=opts["match_length"],
        hands_limit=hands_limit,
        points_target=points_target,
    )
    hands = {s: hands[s] if s in hands else FILLER_HANDS[s] for s in range(seats)}
    laid = [c for s in range(seats) for c in hands[s]] + [top, *(stock or ())]
    remaining = Counter(DECK)
    remaining.subtract(laid)
    if any(n < 0 for n in remaining.values()):
        raise ValueError(f"more copies than the deck holds: {-remaining}")
    others: list[str] = []
    for card in DECK:
        if remaining[card] > 0:
            remaining[card] -= 1
            others.append(card)
    pile = list(stock or ())
    under: list[str] = []
    if rest == "stock":
        pile += others
    elif rest == "discard":
        under = others
    if top[0] == "W" and colour is None:
        raise ValueError("a black top card needs the colour in play")
    return PikaState(
        rules=rules,
        seats=seats,
        hands=tuple(tuple(hands[s]) for s in range(seats)),
        stock=tuple(pile),
        discard=(*under, top),
        colour=COLOUR_LETTERS[colour] if colour else top[0],
        turn=turn,
        direction=direction,
        stack=stack,
        drawn=None,
        windows=(),
        idle=0,
        step=0,
        turn_started=0,
        dealer=(turn - direction) % seats,
        round=1,
        totals=(0,) * seats,
        recent=None,
        rng=SeededRandom(b"pika scenario"),
    )


def play(card: str, colour: str | None = None, call: str | None = None) -> Action:
    return Action(ActionKind.PLAY, cards=(card,), colour=colour, call=call)


def act(state: PikaState, seat: int, action: Action) -> PikaState:
    """Apply one action and return the new state (events are checked where they matter)."""
    new, _ = GAME.apply(state, seat, action)
    return new


def playable(state: PikaState, seat: int) -> set[str]:
    """The cards ``seat`` may play now, by code."""
    return {a.cards[0] for a in GAME.legal_actions(state, seat) if a.kind is ActionKind.PLAY}
