"""The fishing core: one engine that plays Scopa, Scopone, Asso Pigliatutto and Cirulla.

A played card captures table cards of equal value or summing to it; what each game
changes is said by its :class:`~tavolo.cardgames.games.fishing.state.FishingRules`, which
the game's own module builds from the table options (``scopa.py``, ``scopone.py``,
``asso.py``, ``cirulla.py`` read as the rule pages). Here is what they share:

1. *The deal* (RULES §0.5): the first dealer is the generator's first draw; cards come
   off the top one at a time from the player on the dealer's right, then the table
   cards; the rest is the stock. A table the game refuses (three Re, two aces) is dealt
   again by the same dealer from a fresh shuffle. When every hand is empty, 3 more each.
2. *A turn* is ``PLAY(cards=(card,), capture=(table cards...))``; an empty ``capture``
   lays the card. A card that can capture must (SCOPA-5), but which card to play is
   free. Play passes anticlockwise, seat s to s+1.
3. *Scopa*: a capture that clears the table scores 1, except on the last play of the hand
   (SCOPA-6) and, unless the game says otherwise, for an ace taking the whole table.
4. *End of the hand*: leftovers go to the side that captured last (not a scopa); the
   count is :func:`~tavolo.cardgames.games.fishing.scoring.count_hand`; the match rules
   are :mod:`~tavolo.cardgames.games.fishing.match`. The deal passes anticlockwise.

A turn timeout (``EXPIRE``) plays the least harmful move **[decision]**: declares an
accuso the seat holds (its points are the player's), then takes the capture with the
most cards (then the most denari); with nothing to take, lays the lowest card, a denaro
last. It is recorded as ``timer_expired`` and the events of the moves it stood for.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import JSON, Event, Game, Outcome, Timer, View
from tavolo.cardgames.errors import GameOver, NotYourTurn, RuleError
from tavolo.cardgames.games.fishing.accusi import POINTS, accuso
from tavolo.cardgames.games.fishing.captures import (
    SCOPA,
    capture_sets,
    captures,
    is_ace_sweep,
    may_capture,
    sums_reached,
)
from tavolo.cardgames.games.fishing.deck import DECKS, DENARI, sort_cards
from tavolo.cardgames.games.fishing.match import (
    MAX_TIEBREAK_HANDS,
    decided,
    places_of_sides,
    rank_keys,
    tied_at_top,
)
from tavolo.cardgames.games.fishing.scoring import count_hand
from tavolo.cardgames.games.fishing.state import (
    LATER_DEAL,
    NOBODY,
    FishingRules,
    FishingState,
    deal_hands,
    fresh_deal,
    sides_for,
)
from tavolo.cardgames.games.fishing.view import public_view
from tavolo.cardgames.rng import SeededRandom

CIRULLA_BONUS_SUM = 15
DENARI_IN_DECK = 10
NOBODY_TO_ACT: Final[frozenset[int]] = frozenset()
ONLY_SEAT: Final = tuple(frozenset((seat,)) for seat in range(4))
"""Who is to act, one seat: the same immutable set each time rather than a new one."""


class FishingGame(Game[FishingState]):
    """The shared engine; a game supplies its name, options and :meth:`table_rules`."""

    def table_rules(self, options: Mapping[str, JSON], seats: int) -> FishingRules:
        """The rules a table with these (validated) options plays by."""
        raise NotImplementedError

    # -- set-up -----------------------------------------------------------------------

    def _new_game(self, options: dict[str, JSON], seats: int, rng: SeededRandom) -> FishingState:
        rng = rng.copy()
        rules = self.table_rules(options, seats)
        dealer = rng.randbelow(seats)
        sides = sides_for(seats)
        n = len(sides)
        state = FishingState(
            rules=rules,
            seats=seats,
            sides=sides,
            dealer=dealer,
            turn=0,
            hand_no=0,
            hands=((),) * seats,
            table=(),
            opening=(),
            stock=(),
            piles=((),) * n,
            scope=(0,) * n,
            accusi=(0,) * n,
            last_capturer=NOBODY,
            plays=(),
            may_declare=(False,) * seats,
            declared=("",) * seats,
            bonus=(),
            totals=(0,) * n,
            sheet=(),
            last_count=None,
            tied=(),
            tiebreaks=(),
            ko_loser=NOBODY,
            cappotto_side=NOBODY,
            over=False,
            step=0,
            rng=rng,
        )
        _start_hand(state, [])
        return state

    # -- whose move, and which ----------------------------------------------------------

    def seats(self, state: FishingState) -> int:
        return state.seats

    def to_act(self, state: FishingState) -> frozenset[int]:
        return NOBODY_TO_ACT if state.over else ONLY_SEAT[state.turn]

    def timers(self, state: FishingState) -> tuple[Timer, ...]:
        """One turn timer, keyed by the step so a late expiry is refused."""
        if state.over:
            return ()
        return (Timer(key=f"turn:{state.step}:s{state.turn}", seat=state.turn, kind="turn"),)

    def _legal_actions(self, state: FishingState, seat: int) -> list[Action]:
        if state.over or seat != state.turn:
            return []
        return list(listed_moves(state, seat))

    def _is_legal(self, state: FishingState, seat: int, action: Action) -> bool:
        """As ``action in legal_actions``, read from the moves listed for this state."""
        if state.over or seat != state.turn:
            return False
        moves = listed_moves(state, seat)
        for move in moves:
            if move is action:  # the listed move itself, as random and bot players send
                return True
        if action.kind is not ActionKind.PLAY:
            return action in moves
        if len(action.cards) != 1 or action.cards[0] not in state.hands[seat]:
            return False
        action = _in_table_order(state, action)
        listed = _play_action(action.cards[0], action.capture)
        if action is not listed and action != listed:
            return False
        for move in moves:
            if move is listed:
                return True
        return listed in moves  # a listed play built again (its cache started afresh)

    def _explain(self, state: FishingState, seat: int, action: Action) -> RuleError:
        if state.over:
            return GameOver("the game is over")
        if seat != state.turn:
            return NotYourTurn(f"it is not your turn: seat {state.turn} is to play")
        deck, hand = state.deck, state.hands[seat]
        if action.kind is ActionKind.CALL:
            if not state.rules.accusi:
                return RuleError(
                    "there are no accusi in this game: play a card", reason="OPTION_OFF"
                )
            if not state.may_declare[seat]:
                return RuleError(
                    "an accuso is declared once per deal, before playing the first of "
                    "your three cards",
                    reason="DECLARATION_INVALID",
                )
            kind = accuso(deck, hand)
            if kind is None:
                return RuleError(
                    "your hand holds no accuso (cirulla: 9 or less; decino)",
                    reason="DECLARATION_INVALID",
                )
            return RuleError(
                f"your hand declares {kind}, not {action.call!r}", reason="DECLARATION_INVALID"
            )
        if action.kind is not ActionKind.PLAY or len(action.cards) != 1:
            return RuleError(
                "play one card from your hand, with the table cards it takes",
                reason="ONE_CARD_EXPECTED",
            )
        card = action.cards[0]
        if card not in hand or action != Action(
            ActionKind.PLAY, cards=action.cards, capture=action.capture
        ):
            return RuleError(
                f"play one card of your own hand, not {action}", reason="CARD_NOT_HELD"
            )
        table = state.table
        values = tuple(deck.value[c] for c in table)
        found = [
            " ".join(table[i] for i in t)
            for t in captures(state.rules.style, values, deck.value[card], state.rules.fewest)
        ]
        if not found:
            return RuleError(
                f"{card} takes nothing from this table: lay it, taking nothing",
                reason="CAPTURE_INVALID",
                metadata={"card": card},
            )
        if not action.capture:
            return RuleError(
                f"capturing is compulsory: {card} must take one of: {'; '.join(found)}",
                reason="CAPTURE_COMPULSORY",
                metadata={"card": card},
            )
        return RuleError(
            f"{card} cannot take {' '.join(action.capture)}; it may take: {'; '.join(found)}",
            reason="CAPTURE_INVALID",
            metadata={"card": card},
        )

    # -- applying an action -------------------------------------------------------------

    def _apply(
        self, state: FishingState, seat: int, action: Action
    ) -> tuple[FishingState, list[Event]]:
        if action.kind is ActionKind.EXPIRE:
            return self._expire(state, seat, action)
        after = state.copy()
        after.step += 1
        events: list[Event] = []
        if action.kind is ActionKind.CALL:
            _declare(after, seat, events)
        else:
            _play(after, seat, _in_table_order(state, action), events)
        return after, events

    def _expire(
        self, state: FishingState, seat: int, action: Action
    ) -> tuple[FishingState, list[Event]]:
        events: list[Event] = [
            {"type": "timer_expired", "seat": seat, "timer": action.timer, "default": []}
        ]
        while True:
            default = self.timeout_action(state, seat)
            events[0]["default"].append(default.to_dict())
            state, more = self._apply(state, seat, default)
            events.extend(more)
            if default.kind is not ActionKind.CALL:
                return state, events

    def timeout_action(self, state: FishingState, seat: int) -> Action:
        """The least harmful move for ``seat`` (see the module docstring)."""
        legal = self._legal_actions(state, seat)
        for action in legal:
            if action.kind is ActionKind.CALL:
                return action
        deck = state.deck
        takes = [a for a in legal if a.capture]
        if takes:
            return max(
                takes,
                key=lambda a: (
                    len(a.capture),
                    sum(1 for c in (*a.cards, *a.capture) if deck.is_denari(c)),
                ),
            )
        return min(legal, key=lambda a: (deck.suit[a.cards[0]] == DENARI, deck.value[a.cards[0]]))

    # -- knock-out play (RULES §0 rule 14, PCG-7) -------------------------------------

    offers_knock_out = True
    own_tie_breaks = True
    """Level totals at the end already play tie-break hands inside the match, the third
    lost by the side that captured last (RULES §0 rules 13-14, ``_end_hand``)."""

    def last_capture(self, state: FishingState) -> int | None:
        side = state.last_capturer
        return None if side == NOBODY else min(state.sides[side])

    def partners(self, state: FishingState, seat: int) -> frozenset[int]:
        return frozenset(state.sides[state.side_of(seat)])

    # -- what is seen -------------------------------------------------------------------

    def view(self, state: FishingState, seat: int | None) -> View:
        public = public_view(state, self.name)
        if seat is None or state.declared[seat]:
            return View(seat=seat, hand=(), public=public)
        return View(seat=seat, hand=state.hands[seat], public=public)

    def outcome(self, state: FishingState) -> Outcome | None:
        if not state.over:
            return None
        keys = final_keys(state)
        seat_keys = [keys[state.side_of(s)] for s in range(state.seats)]
        side_places = places_of_sides(keys)
        reason = "target"
        if state.cappotto_side != NOBODY:
            reason = "cappotto"
        elif state.ko_loser != NOBODY:
            reason = "ko"
        elif state.tiebreaks:
            reason = "tie_break"
        return Outcome(
            places=places_of_sides(seat_keys),
            scores=tuple(state.totals[state.side_of(s)] for s in range(state.seats)),
            detail={
                "reason": reason,
                "sides": [list(side) for side in state.sides],
                "side_places": list(side_places),
                "totals": list(state.totals),
                "hands": len(state.sheet),
                "tie_break_hands": [list(row) for row in state.tiebreaks],
            },
        )

    def cards_in_play(self, state: FishingState) -> list[str]:
        return [
            *(c for h in state.hands for c in h),
            *state.table,
            *state.stock,
            *(c for p in state.piles for c in p),
        ]

    def hidden_cards(self, state: FishingState, seat: int | None) -> list[str]:
        hidden = list(state.stock)
        for s, hand in enumerate(state.hands):
            if s != seat and not state.declared[s]:
                hidden.extend(hand)
        return hidden


PLAYS_LIMIT: Final = 2_000
"""How many capturing plays a card keeps before its cache starts afresh."""


class CardPlays:
    """One card's capture value, whether it is a denaro, and its plays, each built once
    and shared between the turns that offer it: an action is an immutable value, and
    building one (eleven fields) costs more than the rest of listing it."""

    def __init__(self, card: str, value: int, denaro: bool) -> None:
        self.card = card
        self.value = value
        self.denaro = denaro
        self.laid = Action(ActionKind.PLAY, cards=(card,))
        self.plays: dict[tuple[str, ...], Action] = {}

    def play(self, capture: tuple[str, ...]) -> Action:
        """``PLAY(cards=(card,), capture=capture)``; laid when ``capture`` is empty."""
        if not capture:
            return self.laid
        known = self.plays.get(capture)
        if known is None:
            if len(self.plays) >= PLAYS_LIMIT:
                self.plays.clear()
            known = Action(ActionKind.PLAY, (self.card,), capture)  # positional: cheaper
            self.plays[capture] = known
        return known


_CARDS: Final = {
    card: CardPlays(card, deck.value[card], deck.is_denari(card))
    for deck in DECKS.values()
    for card in deck.codes
}
"""Every card of both decks, by code (a code the two decks share, A to 7 of C, D or S,
has the same value in both, and is a denaro in both or in neither)."""
_CALLS: Final = {kind: Action(ActionKind.CALL, call=kind) for kind in POINTS}
NO_CAPTURES: Final[list[tuple[str, ...]]] = []
"""A card's captures when it has none (read, never changed)."""


def _play_action(card: str, capture: tuple[str, ...]) -> Action:
    """``PLAY(cards=(card,), capture=capture)``, shared between the turns that offer it."""
    plays = _CARDS.get(card)
    if plays is None:  # not a card of the decks: its play is refused, never listed
        return Action(ActionKind.PLAY, cards=(card,), capture=capture)
    return plays.play(capture)


def listed_moves(state: FishingState, seat: int) -> tuple[Action, ...]:
    """The legal moves of ``seat``, the seat to play, listed once per state: an accuso it
    may declare, then each card of the hand with each capture it has (its value's
    captures generated once), or laid when it has none."""
    hand, table, may = state.hands[seat], state.table, state.may_declare
    if state.listed_hand is hand and state.listed_table is table and state.listed_may is may:
        return state.listed
    rules = state.rules
    moves: list[Action] = []
    if rules.accusi and may[seat]:
        kind = accuso(DECKS[rules.deck_name], hand)
        if kind is not None:
            moves.append(_CALLS[kind])
    values = tuple([_CARDS[c].value for c in table])
    one, more = sums_reached(values)
    style, fewest = rules.style, rules.fewest
    last = 0
    taken = NO_CAPTURES
    for card in hand:
        plays = _CARDS[card]
        if plays.value != last:  # a hand is in order of value: each value's captures once
            last = plays.value
            taken = NO_CAPTURES
            if may_capture(style, one, more, last):  # else no walk need look
                taken = capture_sets(style, values, table, last, fewest)
        if not taken:
            moves.append(plays.laid)
        for capture in taken:
            moves.append(plays.play(capture))
    listed = tuple(moves)
    state.listed, state.listed_hand, state.listed_table = listed, hand, table
    state.listed_may = may
    return listed


def final_keys(state: FishingState) -> list[tuple[int, ...]]:
    """Each side's rank key at the end (see fishing_match); a cappotto comes first."""
    keys = rank_keys(state.totals, state.tiebreaks, state.ko_loser)
    if state.cappotto_side != NOBODY:
        keys = [(int(k == state.cappotto_side), *key) for k, key in enumerate(keys)]
    return keys


def _in_table_order(state: FishingState, action: Action) -> Action:
    """A play whose capture lists table cards in any order, put in table order."""
    capture = action.capture
    n = len(capture)
    if n < 2:
        return action
    found = 0
    for card in state.table:  # already in table order, as listed: nothing to build
        if card == capture[found]:
            found += 1
            if found == n:
                return action
    if len(set(capture)) != n:
        return action
    if not all(c in state.table for c in capture):
        return action
    ordered = tuple(c for c in state.table if c in capture)
    if ordered == capture:
        return action
    return Action(action.kind, cards=action.cards, capture=ordered, call=action.call)


def _start_hand(state: FishingState, events: list[Event]) -> None:
    """Deal a new hand to ``state`` (a copy owned by the caller); Cirulla's opening."""
    rng = state.rng.copy()
    rules, seats = state.rules, state.seats
    hands, table, stock, redeals = fresh_deal(rules, rng.shuffle, state.dealer, seats)
    n = len(state.sides)
    state.rng = rng
    state.hand_no += 1
    deck = DECKS[rules.deck_name]
    state.hands = tuple([sort_cards(deck, h) for h in hands])
    state.table = table
    state.opening = table
    state.stock = stock
    state.piles = ((),) * n
    state.scope = (0,) * n
    state.accusi = (0,) * n
    state.last_capturer = NOBODY
    state.plays = ()
    state.may_declare = (rules.accusi,) * seats
    state.declared = ("",) * seats
    state.bonus = ()
    state.turn = state.first_player()
    events.append(
        {
            "type": "hand_dealt",
            "hand": state.hand_no,
            "dealer": state.dealer,
            "redeals": redeals,
            "hands": [list(h) for h in state.hands],
            "table": list(table),
        }
    )
    if rules.dealer_bonus:
        dealer_bonus(state, events)


def dealer_bonus(state: FishingState, events: list[Event]) -> None:
    """CIRULLA-2: the dealer's side is the last capturer; a table of 15 or 30 is its
    capture, worth 1 or 2 scope."""
    side = state.side_of(state.dealer)
    state.last_capturer = side
    total = 0
    for card in state.table:
        total += _CARDS[card].value
    if total % CIRULLA_BONUS_SUM or not state.table:
        return
    scope = total // CIRULLA_BONUS_SUM
    events.append(
        {"type": "dealer_bonus", "seat": state.dealer, "cards": list(state.table), "scope": scope}
    )
    _add_to_pile(state, side, state.table)
    _add_scope(state, side, scope)
    state.bonus = (side, scope)
    state.table = ()


def _add_to_pile(state: FishingState, side: int, cards: tuple[str, ...]) -> None:
    piles = list(state.piles)
    piles[side] = piles[side] + cards
    state.piles = tuple(piles)


def _add_scope(state: FishingState, side: int, count: int) -> None:
    scope = list(state.scope)
    scope[side] += count
    state.scope = tuple(scope)


def _declare(state: FishingState, seat: int, events: list[Event]) -> None:
    """CIRULLA-6: the accuso scores for the side, and the hand is shown to all."""
    kind = accuso(state.deck, state.hands[seat])
    assert kind is not None
    side = state.side_of(seat)
    accusi, may, declared = list(state.accusi), list(state.may_declare), list(state.declared)
    accusi[side] += POINTS[kind]
    may[seat] = False
    declared[seat] = kind
    state.accusi, state.may_declare, state.declared = tuple(accusi), tuple(may), tuple(declared)
    events.append(
        {
            "type": "accuso",
            "seat": seat,
            "accuso": kind,
            "points": POINTS[kind],
            "hand": list(state.hands[seat]),
        }
    )


def _play(state: FishingState, seat: int, action: Action, events: list[Event]) -> None:
    card, capture = action.cards[0], action.capture
    rules = state.rules
    side = seat % len(state.sides)
    hands = list(state.hands)
    hands[seat] = tuple([c for c in hands[seat] if c != card])
    state.hands = tuple(hands)
    if state.may_declare[seat]:
        may = list(state.may_declare)
        may[seat] = False
        state.may_declare = tuple(may)
    scopa = False
    if capture:
        table = state.table
        if rules.style != SCOPA and _CARDS[card].value == 1:
            sweep = is_ace_sweep(rules.style, tuple([_CARDS[c].value for c in table]), 1)
        else:
            sweep = False  # only an ace of Asso or Cirulla sweeps (is_ace_sweep)
        state.table = table = tuple([c for c in table if c not in capture])
        _add_to_pile(state, side, (card, *capture))
        state.last_capturer = side
        scopa = not table and (bool(state.stock) or any(state.hands))
        scopa = scopa and (rules.ace_sweep_scopa or not sweep)
        if scopa:
            _add_scope(state, side, 1)
        events.append(
            {
                "type": "capture",
                "seat": seat,
                "card": card,
                "capture": list(capture),
                "scopa": scopa,
            }
        )
    else:
        state.table = (*state.table, card)
        events.append({"type": "card_laid", "seat": seat, "card": card})
    state.plays = (*state.plays, (seat, card, capture, scopa))
    if (
        capture
        and rules.cappotto
        and _takes_denari(card, capture)
        and _cappotto(state, side, events)
    ):
        return
    if any(state.hands):
        state.turn = (seat + 1) % state.seats
    elif state.stock:
        _later_deal(state, events)
    else:
        _end_hand(state, events)


def _later_deal(state: FishingState, events: list[Event]) -> None:
    """SCOPA-2: 3 each from the stock; the table receives nothing."""
    seats, first = state.seats, state.first_player()
    size = min(LATER_DEAL, len(state.stock) // seats)
    hands = deal_hands(state.stock, first, seats, size)
    deck = state.deck
    state.hands = tuple([sort_cards(deck, h) for h in hands])
    state.stock = state.stock[size * seats :]
    state.may_declare = (state.rules.accusi,) * seats
    state.declared = ("",) * seats
    state.turn = first
    events.append({"type": "cards_dealt", "hands": [list(h) for h in state.hands]})


def _takes_denari(card: str, capture: tuple[str, ...]) -> bool:
    """Does this capture add a denaro to the pile? Only then can it make a cappotto: a
    pile gains cards only by captures and leftovers, each checked, and by Cirulla's
    opening bonus, at most four cards."""
    return _CARDS[card].denaro or any(_CARDS[taken].denaro for taken in capture)


def _cappotto(state: FishingState, side: int, events: list[Event]) -> bool:
    """CIRULLA-9: all ten denari in one side's captures end the match at once."""
    if not state.rules.cappotto:
        return False
    pile = state.piles[side]
    if len(pile) < DENARI_IN_DECK:
        return False
    suit = DECKS[state.rules.deck_name].suit
    held = 0
    for card in pile:
        if suit[card] == DENARI:
            held += 1
    if held < DENARI_IN_DECK:
        return False
    state.cappotto_side = side
    _finish(state, "cappotto", events)
    return True


def _end_hand(state: FishingState, events: list[Event]) -> None:
    """Leftovers, the count, the match; then the next deal or the end."""
    if state.table and state.last_capturer != NOBODY:
        side = state.last_capturer
        events.append({"type": "leftovers", "side": side, "cards": list(state.table)})
        _add_to_pile(state, side, state.table)
        state.table = ()
        if _cappotto(state, side, events):
            return
    rules = state.rules
    counts = count_hand(
        state.deck, state.piles, state.scope, rules.extras, state.accusi if rules.accusi else None
    )
    points = tuple(c.points for c in counts)
    state.last_count = counts
    events.append(
        {
            "type": "hand_scored",
            "hand": state.hand_no,
            "tie_break": bool(state.tied),
            "counts": [c.to_dict() for c in counts],
            "points": list(points),
        }
    )
    if state.tied:
        row = tuple(p if k in state.tied else 0 for k, p in enumerate(points))
        state.tiebreaks = (*state.tiebreaks, row)
        top = tied_at_top(rank_keys(state.totals, state.tiebreaks, NOBODY))
        if len(top) == 1:
            _finish(state, "tie_break", events)
            return
        if len(state.tiebreaks) >= MAX_TIEBREAK_HANDS:
            if state.last_capturer in top:
                state.ko_loser = state.last_capturer
            _finish(state, "ko", events)
            return
        state.tied = top
    else:
        state.totals = tuple(t + p for t, p in zip(state.totals, points, strict=True))
        state.sheet = (*state.sheet, points)
        if decided(rules.match_kind, rules.match_number, state.totals, len(state.sheet)):
            top = tied_at_top(rank_keys(state.totals, (), NOBODY))
            if len(top) == 1:
                _finish(state, "target", events)
                return
            state.tied = top
            events.append({"type": "tie_break", "sides": list(top)})
    state.dealer = (state.dealer + 1) % state.seats
    _start_hand(state, events)


def _finish(state: FishingState, reason: str, events: list[Event]) -> None:
    state.over = True
    keys = final_keys(state)
    events.append(
        {
            "type": "game_over",
            "reason": reason,
            "totals": list(state.totals),
            "side_places": list(places_of_sides(keys)),
        }
    )
