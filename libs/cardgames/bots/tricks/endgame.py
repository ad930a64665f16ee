"""Perfect play of a two-player trick game's last tricks, once the stock is gone.

At two players with no stock left, a bot that remembers every card played knows the
other hand exactly: the unseen cards are it. The few tricks left (at most three cards
each in Briscola) are then searched to the end, maximising this seat's card points
minus the other's (the last trick may carry a bonus, as in Tresette).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tavolo.cardgames.games.tricks.core import CardOrder, Play, following_cards, trick_winner


def best_endgame_card(
    seat: int,
    hand: Sequence[str],
    other: Sequence[str],
    trick: Sequence[Play],
    trumps: str | None,
    order: CardOrder,
    points: Mapping[str, int],
    *,
    follow: bool,
    last_trick: int = 0,
) -> str:
    """The card for ``seat`` to play now that scores most from here to the hand's end."""
    hands = {seat: tuple(hand), 1 - seat: tuple(other)}
    best_card, best = hand[0], -(10**9)
    for card in _choices(hands[seat], trick, order, follow):
        value = _after(
            seat, card, hands, tuple(trick), seat, trumps, order, points, follow, last_trick
        )
        if value > best:
            best_card, best = card, value
    return best_card


def _choices(
    hand: tuple[str, ...], trick: Sequence[Play], order: CardOrder, follow: bool
) -> list[str]:
    return following_cards(hand, trick, order) if follow else list(hand)


def _after(
    player: int,
    card: str,
    hands: dict[int, tuple[str, ...]],
    trick: tuple[Play, ...],
    me: int,
    trumps: str | None,
    order: CardOrder,
    points: Mapping[str, int],
    follow: bool,
    last_trick: int,
) -> int:
    """My points minus the other's from the rest of the hand, once ``player`` plays
    ``card``, both sides playing their best."""
    hands = {**hands, player: tuple(c for c in hands[player] if c != card)}
    trick = (*trick, (player, card))
    gained = 0
    if len(trick) == 2:
        winner = trick_winner(trick, order, trumps)
        won = sum(points.get(c, 0) for _, c in trick)
        if not hands[winner]:
            won += last_trick
        gained = won if winner == me else -won
        trick, player = (), winner
    else:
        player = 1 - player
    if not hands[player]:
        return gained
    values = [
        _after(player, c, hands, trick, me, trumps, order, points, follow, last_trick)
        for c in _choices(hands[player], trick, order, follow)
    ]
    return gained + (max(values) if player == me else min(values))
