"""The trick core shared by every trick game (Spades, Briscola, Tresette, Bestia, ...).

A game describes its cards once, as a :class:`CardOrder` (each card's suit and its
strength inside that suit, by the game's own rank order), and says which suit is trumps:
none (Tresette), fixed (spades in Spades) or turned from the deck (Briscola, Bestia). The
functions here then answer the questions every trick game asks:

- which cards may follow, when following suit is compulsory (:func:`following_cards`);
- who wins a trick, and whether a card would take the lead (:func:`trick_winner`,
  :func:`beats`);
- how many card points a pile of tricks holds, and what each side took
  (:func:`card_points`, :func:`per_side`, :func:`sides_of`);
- how a KO tie-break hand ranks tied sides, the last trick deciding a third drawn one
  (:func:`tiebreak_ranking`, RULES §0 rule 14);
- the step every trick game takes when a card is played, with its events: the card
  leaves the hand for the trick (:func:`play_card`), a full trick goes to its winner
  (:func:`close_trick`), and in the games with a stock each seat draws one card from the
  winner on (:func:`draw_in_turn`).

A trick is the sequence of ``(seat, card)`` plays in the order played; the last trick of a
hand decides RULES §0 rule 14's "last capture", so games keep it (``last_trick``).
Everything is a pure function over plain data, so engines and bots share it and a bot
never offers a card the rules would refuse.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import Event

NOBODY: Final[frozenset[int]] = frozenset()
"""``to_act`` once the game is over."""
AMONG: Final[tuple[frozenset[int], ...]] = tuple(
    [frozenset([s for s in range(4) if mask >> s & 1]) for mask in range(16)]
)
"""The sets of seats of a four-seat table by bit mask (bit s for seat s), built once:
``to_act`` is asked before every action and hands out a shared set instead of a new one
(a frozenset cannot change, so sharing it is safe)."""
ALONE: Final[tuple[frozenset[int], ...]] = (AMONG[1], AMONG[2], AMONG[4], AMONG[8])
"""``to_act`` when only seat s (of four) is waited for: ``ALONE[s]``."""

Play = tuple[int, str]
"""One card played into a trick: (seat, card code)."""
Hands = tuple[tuple[str, ...], ...]
"""Every seat's hand."""


@dataclass(frozen=True)
class CardOrder:
    """How a game's cards compare in a trick: each card's suit, and its strength inside
    that suit (higher wins), from the game's rank order. Plain dicts, which compiled
    code reads fastest: every legal move and every trick winner looks cards up here."""

    suit: dict[str, str]
    strength: dict[str, int]

    @staticmethod
    def from_ranks(
        cards: Iterable[str], suit_of: Mapping[str, str], rank_order: Sequence[str]
    ) -> CardOrder:
        """An order from ``rank_order`` written strongest first (``"A 3 R C F ..."``);
        a card's rank is its code without the last letter (its suit)."""
        strength = {rank: len(rank_order) - i for i, rank in enumerate(rank_order)}
        codes = list(cards)
        return CardOrder(
            suit={c: suit_of[c] for c in codes},
            strength={c: strength[c[:-1]] for c in codes},
        )


def following_cards(hand: Sequence[str], trick: Sequence[Play], order: CardOrder) -> list[str]:
    """The cards of ``hand`` that may be played when following suit is compulsory: any
    card when leading or void in the suit led, else the cards of the suit led."""
    if not trick:
        return list(hand)
    suit = order.suit
    led = suit[trick[0][1]]
    same = [c for c in hand if suit[c] == led]
    return same or list(hand)


CardTable = dict[str, tuple[int, Action]]
"""Card → (its suit's number, the game's one listed action playing it): what the legal
plays are built and checked from, one lookup a card. Suits are numbers there because
compiled code compares two ints for nothing, where two different suit letters are
compared character by character."""


def card_table(
    cards: Iterable[str], order: CardOrder, kind: ActionKind, suit_numbers: Mapping[str, int]
) -> CardTable:
    """Each card's suit number and its one listed action of ``kind`` (``cards=(card,)``)."""
    return {c: (suit_numbers[order.suit[c]], Action(kind, cards=(c,))) for c in cards}


def following_plays(hand: tuple[str, ...], led: int, table: CardTable) -> list[Action]:
    """:func:`following_cards` as listed actions, in one pass over the hand: the cards
    of the suit numbered ``led``, or every card when the hand is void in it."""
    same: list[Action] = []
    for c in hand:
        suit, action = table[c]
        if suit == led:
            same.append(action)
    if same:
        return same
    return [table[c][1] for c in hand]  # void: every card


def holds(hand: tuple[str, ...], card: str) -> bool:
    """Is ``card`` in ``hand``? The deck's own code objects are found by identity, with
    no characters compared; an equal code from elsewhere (a client's) by equality."""
    for c in hand:
        if c is card:
            return True
    return card in hand


def may_follow_led(hand: tuple[str, ...], led: int, card: str, table: CardTable) -> bool:
    """:func:`may_follow` over the table's suit numbers, ``led`` the suit led: a card
    held, of that suit or from a hand void in it."""
    if not holds(hand, card):
        return False
    return table[card][0] == led or all(table[c][0] != led for c in hand)


def may_follow(hand: Sequence[str], trick: Sequence[Play], card: str, order: CardOrder) -> bool:
    """Is ``card`` among :func:`following_cards`? Checked without building the list."""
    cards = tuple(hand)  # the state's own tuple, no copy: compiled, tuples read fastest
    if card not in cards:
        return False
    if not trick:
        return True
    suit = order.suit
    led = suit[trick[0][1]]
    return suit[card] == led or all(suit[c] != led for c in cards)


def beats(card: str, best: str, led: str, trump: str | None, order: CardOrder) -> bool:
    """Does ``card`` take the lead from ``best``, the card now winning a trick led in
    ``led``? A higher card of the same suit does; a trump beats any other suit; a card
    of neither the suit led nor trumps never wins."""
    suit, best_suit = order.suit[card], order.suit[best]
    if suit == best_suit:
        return order.strength[card] > order.strength[best]
    if suit == trump:
        return True
    return suit == led and best_suit != trump and best_suit != led


def winning_play(trick: Sequence[Play], order: CardOrder, trump: str | None) -> Play:
    """The play now winning ``trick`` (complete or not): the highest trump, else the
    highest card of the suit led."""
    # beats() written out over the two dicts, over a tuple (the state's own, no copy):
    # every trick of every game ends here.
    plays = tuple(trick)
    suit, strength = order.suit, order.strength
    best = plays[0]
    led = best_suit = suit[best[1]]
    best_strength = strength[best[1]]
    for i in range(1, len(plays)):
        play = plays[i]
        card = play[1]
        card_suit = suit[card]
        if card_suit == best_suit:
            if strength[card] <= best_strength:
                continue
        elif card_suit != trump and (card_suit != led or best_suit in (trump, led)):
            continue
        best, best_suit, best_strength = play, card_suit, strength[card]
    return best


def trick_winner(trick: Sequence[Play], order: CardOrder, trump: str | None) -> int:
    """The seat that wins ``trick``."""
    return winning_play(trick, order, trump)[0]


def card_points(cards: Iterable[str], points: Mapping[str, int]) -> int:
    """The card points of ``cards`` (cards missing from ``points`` are worth nothing)."""
    return sum(points.get(c, 0) for c in cards)


def per_side(values: Sequence[int], sides: Sequence[Sequence[int]]) -> list[int]:
    """A per-seat measure (tricks, points) summed over each side's seats."""
    return [sum(values[s] for s in side) for side in sides]


def sides_of(seats: int, partnerships: bool) -> tuple[tuple[int, ...], ...]:
    """The sides at a table: seats opposite are partners (RULES §0 rule 1) when
    ``partnerships``, else every seat plays for itself."""
    if partnerships:
        half = seats // 2
        return tuple(tuple(range(s, seats, half)) for s in range(half))
    return tuple((s,) for s in range(seats))


MAX_TIEBREAKS = 3
"""Tie-break hands a drawn KO match plays at most (RULES §0 rules 13-14, PCG-7)."""


def tiebreak_ranking(
    tied: Sequence[int],
    points: Sequence[int],
    tiebreaks: int,
    last_trick_side: int,
    ranking: Sequence[int],
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """After a KO tie-break hand, the order it adds to ``ranking`` (per side, higher
    ranks higher) and the sides still level at the top, who play another hand (empty
    once the order is settled; RULES §0 rules 13-14, PCG-7).

    Among the ``tied`` sides more points ranks higher; a later hand orders only the
    sides an earlier one left level at the top, so every side split off below keeps its
    place. After the third hand the side that took the last trick drops below the others
    still level; if it is not among them they share.
    """
    order = list(ranking)
    best = max(points[side] for side in tied)
    top = tuple(side for side in tied if points[side] == best)
    if len(top) < len(tied):
        for side in tied:
            order[side] += 1 + sum(1 for other in tied if points[other] < points[side])
    if len(top) == 1:
        return tuple(order), ()
    if tiebreaks < MAX_TIEBREAKS:
        return tuple(order), top
    for side in top:
        order[side] += 1 if side == last_trick_side else 2
    return tuple(order), ()


# -- the step of play -------------------------------------------------------------------


def without(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    """``hand`` without ``card``, which it holds once (cards are unique in a deck); the
    deck's own code object is found by identity first, as in :func:`holds`."""
    for i in range(len(hand)):
        if hand[i] is card:
            return hand[:i] + hand[i + 1 :]
    for i in range(len(hand)):
        if hand[i] == card:
            return hand[:i] + hand[i + 1 :]
    return hand


def with_hand(hands: Hands, seat: int, hand: tuple[str, ...]) -> Hands:
    """``hands`` with ``seat``'s replaced by ``hand``; at four seats built in one go
    (no list in between: this is on every card played)."""
    if len(hands) == 4:
        if seat == 0:
            return (hand, hands[1], hands[2], hands[3])
        if seat == 1:
            return (hands[0], hand, hands[2], hands[3])
        if seat == 2:
            return (hands[0], hands[1], hand, hands[3])
        return (hands[0], hands[1], hands[2], hand)
    return (*hands[:seat], hand, *hands[seat + 1 :])


def play_card(
    hands: Hands, trick: tuple[Play, ...], seat: int, card: str
) -> tuple[Hands, tuple[Play, ...], Event]:
    """``seat`` plays ``card``: the hands without it, the trick with it, and the
    ``card_played`` event. The caller has checked that the card may be played."""
    hand = hands[seat]
    after = (*hands[:seat], tuple([c for c in hand if c != card]), *hands[seat + 1 :])
    return after, (*trick, (seat, card)), {"type": "card_played", "seat": seat, "card": card}


def close_trick(
    trick: Sequence[Play], order: CardOrder, trump: str | None, number: int
) -> tuple[int, Event]:
    """The winner of the full ``trick``, the game's ``number``-th, and its ``trick_won``
    event (a game may add what the trick earned to the event)."""
    winner = trick_winner(trick, order, trump)
    won: Event = {
        "type": "trick_won",
        "seat": winner,
        "number": number,
        "cards": [[s, c] for s, c in trick],
    }
    return winner, won


def add_to_pile(piles: Hands, winner: int, trick: Sequence[Play]) -> Hands:
    """Each seat's pile of cards won, with ``trick``'s cards added to ``winner``'s."""
    pile = (*piles[winner], *[c for _, c in trick])
    return (*piles[:winner], pile, *piles[winner + 1 :])


def draw_in_turn(
    hands: Hands,
    stock: tuple[str, ...],
    winner: int,
    sort_hand: Callable[[list[str]], tuple[str, ...]],
) -> tuple[Hands, tuple[str, ...], tuple[Play, ...], list[Event]]:
    """After a trick, each seat from its ``winner`` on draws the top card of ``stock``
    while it lasts (Briscola, two-player Tresette): the hands (each kept in
    ``sort_hand``'s order), the stock left, the draws in order and their ``card_drawn``
    events."""
    seats = len(hands)
    held = list(hands)
    left = list(stock)
    drawn: list[Play] = []
    events: list[Event] = []
    for i in range(seats):
        if not left:
            break
        drawer = (winner + i) % seats
        card = left.pop(0)
        held[drawer] = sort_hand([*held[drawer], card])
        drawn.append((drawer, card))
        events.append({"type": "card_drawn", "seat": drawer, "card": card})
    return tuple(held), tuple(left), tuple(drawn), events
