"""Spades card play as pure functions: which cards may be played, and who wins a trick.

The engine and the bots share these, so a bot never offers a card the rules would refuse.
Rules: RULES §3.3 (leading and following) and §3.4 (winning a trick, SPADES-6).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from tavolo.cardgames.errors import RuleError
from tavolo.cardgames.games.french_deck import ACE_HIGH, SUIT_NAMES, is_card, rank_of, suit_of
from tavolo.cardgames.games.tricks import core as tricks

SPADES: Final = "S"
# Order of suits for "the lowest card" among equal ranks: clubs, diamonds, hearts, spades.
_SUIT_ORDER: Final = {"C": 0, "D": 1, "H": 2, "S": 3}
ORDER: Final = ACE_HIGH


def legal_cards(
    hand: Sequence[str],
    trick: Sequence[tuple[int, str]],
    *,
    first_trick: bool,
    spades_broken: bool,
) -> list[str]:
    """The cards of ``hand`` that may be played into ``trick`` (in hand order).

    Leading: no spade on the first trick, nor before spades are broken, unless the hand
    holds only spades. Following: follow the suit led if able, else anything.
    """
    if trick:
        return tricks.following_cards(hand, trick, ORDER)
    if first_trick or not spades_broken:
        others = [c for c in hand if suit_of(c) != SPADES]
        return others or list(hand)
    return list(hand)


def may_play(
    hand: Sequence[str],
    trick: Sequence[tuple[int, str]],
    card: str,
    *,
    first_trick: bool,
    spades_broken: bool,
) -> bool:
    """Is ``card`` among :func:`legal_cards`? Checked without building the list."""
    if trick:
        return tricks.may_follow(hand, trick, card, ORDER)
    cards = tuple(hand)  # the state's own tuple, no copy: compiled, tuples read fastest
    if card not in cards:
        return False
    suit = ORDER.suit
    if (first_trick or not spades_broken) and suit[card] == SPADES:
        return all(suit[c] == SPADES for c in cards)
    return True


def play_refusal(
    hand: Sequence[str],
    trick: Sequence[tuple[int, str]],
    cards: Sequence[str],
    *,
    first_trick: bool,
    spades_broken: bool,
) -> RuleError:
    """Why playing ``cards`` is refused, in words that say what to do instead."""
    if len(cards) != 1:
        return RuleError("play exactly one card", reason="ONE_CARD_EXPECTED")
    card = cards[0]
    if not is_card(card):
        return RuleError(
            f"{card!r} is not a card; cards are written like AS, 10H, QD",
            reason="CARD_UNKNOWN",
            metadata={"card": card},
        )
    if card not in hand:
        return RuleError(f"you do not hold {card}", reason="CARD_NOT_HELD", metadata={"card": card})
    if trick:
        led = suit_of(trick[0][1])
        return RuleError(
            f"you must follow suit ({SUIT_NAMES[led]})",
            reason="MUST_FOLLOW_SUIT",
            metadata={"suit": led},
        )
    # A held card refused as a lead can only be a spade led too early.
    if first_trick:
        return RuleError(
            "the first trick may not be led with a spade: lead another suit",
            reason="FIRST_TRICK_RESTRICTED",
        )
    return RuleError("spades are not broken yet: lead another suit", reason="SUIT_NOT_BROKEN")


def trick_winner(trick: Sequence[tuple[int, str]]) -> int:
    """The seat that wins a complete trick: the highest spade, else the highest of the suit
    led (SPADES-6)."""
    return tricks.trick_winner(trick, ORDER, SPADES)


def beats(card: str, best: str, led: str) -> bool:
    """Does ``card`` beat the card ``best`` currently winning a trick led in ``led``?"""
    return tricks.beats(card, best, led, SPADES, ORDER)


def lowest_card(cards: Sequence[str]) -> str:
    """The lowest card by rank, spades last among equal ranks: the turn-timeout default."""
    return min(cards, key=lambda c: (rank_of(c), _SUIT_ORDER[suit_of(c)]))
