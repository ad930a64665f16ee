"""How the replay page draws a card code: its rank, its suit's sign and colour, and a
legend of the suits of the table's deck.

The codes are the rules' own (rank then suit letter, or colour letter then value for the
Uno/Pika deck); the same letter names another suit in an Italian deck (``S`` spade, ``C``
coppe) than in a French one (``S`` spades, ``C`` clubs), so the table's deck decides.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from tavolo.cardgames.games import french_deck, italian_cards
from tavolo.cardgames.games.shedding import deck as colour_deck

ITALIAN_GAMES: Final = frozenset(
    {
        "scopa",
        "scopone",
        "asso",
        "cirulla",
        "briscola",
        "tresette",
        "ciapano",
        "bestia",
        "settemezzo",
    }
)
COLOUR_GAMES: Final = frozenset({"pika", "uno"})

FRENCH: Final[dict[str, tuple[str, str, str]]] = {
    letter: (name, french_deck.SUIT_SYMBOLS[letter], "#c0182a" if letter in "HD" else "#1b1b1b")
    for letter, name in french_deck.SUIT_NAMES.items()
}
ITALIAN: Final[dict[str, tuple[str, str, str]]] = {
    "C": ("coppe", "🏆", "#c0182a"),
    "D": ("denari", "◉", "#b8860b"),
    "B": ("bastoni", "♣", "#2e7d32"),
    "S": ("spade", "⚔", "#1f4e9c"),
}
COLOURS: Final[dict[str, tuple[str, str, str]]] = {
    "R": ("red", "●", "#c0182a"),
    "Y": ("yellow", "●", "#c49a00"),
    "G": ("green", "●", "#2e7d32"),
    "B": ("blue", "●", "#1f4e9c"),
    "W": ("wild (black)", "★", "#1b1b1b"),
}


JOKER: Final = ("joker", "★", "#6a1b9a")
"""The rummy games' joker, ``JK``."""


def deck_of(game: str, views: Iterable[Any]) -> str:
    """``colour``, ``italian`` or ``french``: the deck a table's cards come from. A
    fishing table names its deck in its public view (Scopone and Asso may use either)."""
    if game in COLOUR_GAMES:
        return "colour"
    for seats in views:
        for view in seats:
            deck = view.get("public", {}).get("deck")
            if deck in ("italian", "french"):
                return str(deck)
    return "italian" if game in ITALIAN_GAMES else "french"


def card_face(deck: str, code: str) -> dict[str, str] | None:
    """Rank, suit name, sign and colour of ``code`` in ``deck``; None if it is no card."""
    if deck == "colour":
        if code[:1] not in COLOURS or code not in colour_deck.CODES:
            return None
        name, sign, colour = COLOURS[code[0]]
        return {"rank": code[1:] or "wild", "suit": name, "sign": sign, "colour": colour}
    if deck == "french" and code == "JK":
        name, sign, colour = JOKER
        return {"rank": "Joker", "suit": name, "sign": sign, "colour": colour}
    italian = deck == "italian"
    if not (italian_cards.is_card(code) if italian else french_deck.is_card(code)):
        return None
    name, sign, colour = (ITALIAN if italian else FRENCH)[code[-1]]
    return {"rank": code[:-1], "suit": name, "sign": sign, "colour": colour}


def faces(deck: str, values: Iterable[Any]) -> dict[str, dict[str, str]]:
    """Every card code found anywhere inside ``values`` (nested lists and dicts), drawn."""
    found: dict[str, dict[str, str]] = {}
    stack = list(values)
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            if value not in found and len(value) <= 6:
                face = card_face(deck, value)
                if face is not None:
                    found[value] = face
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list | tuple):
            stack.extend(value)
    return found


def legend(deck: str, cards: Iterable[str] = ()) -> list[dict[str, str]]:
    """The suits of the deck, for the page's legend; the joker when ``cards`` hold one."""
    suits = {"colour": COLOURS, "italian": ITALIAN}.get(deck, FRENCH)
    if deck == "french" and "JK" in cards:
        suits = {**suits, "JK": JOKER}
    return [
        {"letter": letter, "suit": name, "sign": sign, "colour": colour}
        for letter, (name, sign, colour) in suits.items()
    ]
