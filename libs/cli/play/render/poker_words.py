"""Poker hands in the client's words. The rules name a hand in English ("pair of kings",
"flush of hearts, ace high": :func:`tavolo.cardgames.games.betting.poker_hands.describe`);
the client reads those words back and says them from its catalogue ("coppia di re",
"colore di cuori, asso alto"). Words it cannot read stand as the rules wrote them."""

from __future__ import annotations

import re
from collections.abc import Callable

from tavolo.cli.i18n import _, pgettext


def _rank(word: str) -> str:
    return {
        "five": pgettext("rank", "five"),
        "six": pgettext("rank", "six"),
        "seven": pgettext("rank", "seven"),
        "eight": pgettext("rank", "eight"),
        "nine": pgettext("rank", "nine"),
        "ten": pgettext("rank", "ten"),
        "jack": pgettext("rank", "jack"),
        "queen": pgettext("rank", "queen"),
        "king": pgettext("rank", "king"),
        "ace": pgettext("rank", "ace"),
    }.get(word, word)


def _ranks(word: str) -> str:
    return {
        "fives": pgettext("ranks", "fives"),
        "sixes": pgettext("ranks", "sixes"),
        "sevens": pgettext("ranks", "sevens"),
        "eights": pgettext("ranks", "eights"),
        "nines": pgettext("ranks", "nines"),
        "tens": pgettext("ranks", "tens"),
        "jacks": pgettext("ranks", "jacks"),
        "queens": pgettext("ranks", "queens"),
        "kings": pgettext("ranks", "kings"),
        "aces": pgettext("ranks", "aces"),
    }.get(word, word)


def _suit(word: str) -> str:
    return {
        "hearts": pgettext("suit", "hearts"),
        "diamonds": pgettext("suit", "diamonds"),
        "clubs": pgettext("suit", "clubs"),
        "spades": pgettext("suit", "spades"),
    }.get(word, word)


_W = r"([a-z]+)"
_HANDS: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (
        re.compile(rf"straight flush of {_W} to the {_W}"),
        lambda m: _("straight flush of {suit} to the {rank}").format(
            suit=_suit(m[1]), rank=_rank(m[2])
        ),
    ),
    (
        re.compile(rf"straight to the {_W}"),
        lambda m: _("straight to the {rank}").format(rank=_rank(m[1])),
    ),
    (
        re.compile(rf"flush of {_W}, {_W} high"),
        lambda m: _("flush of {suit}, {rank} high").format(suit=_suit(m[1]), rank=_rank(m[2])),
    ),
    (re.compile(rf"four {_W}"), lambda m: _("four {ranks}").format(ranks=_ranks(m[1]))),
    (
        re.compile(rf"full house, {_W} over {_W}"),
        lambda m: _("full house, {ranks} over {others}").format(
            ranks=_ranks(m[1]), others=_ranks(m[2])
        ),
    ),
    (re.compile(rf"three {_W}"), lambda m: _("three {ranks}").format(ranks=_ranks(m[1]))),
    (
        re.compile(rf"two pair, {_W} and {_W}"),
        lambda m: _("two pair, {ranks} and {others}").format(
            ranks=_ranks(m[1]), others=_ranks(m[2])
        ),
    ),
    (re.compile(rf"pair of {_W}"), lambda m: _("pair of {ranks}").format(ranks=_ranks(m[1]))),
    (re.compile(rf"{_W} high"), lambda m: _("{rank} high").format(rank=_rank(m[1]))),
]


def hand_words(text: str) -> str:
    """A hand's name as the rules give it, in the client's language."""
    for pattern, say in _HANDS:
        found = pattern.fullmatch(text)
        if found:
            return say(found)
    return text
