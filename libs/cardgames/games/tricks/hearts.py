"""Hearts (RULES.md §4, HEARTS-1..7): four players each for themselves, ace high, no
trumps, play anticlockwise (the turn passes from seat s to s+1); the fewest points wins.

A hand, step by step:

1. **Deal and pass** (HEARTS-1): 13 each; every seat chooses three cards for the player on
   its right, one ``PASS_CARDS(cards=(card,))`` at a time. The four choose at once and in
   secret: what a seat chose stays in its hand, unseen by the others, until all four have
   chosen three; then the cards change hands together. The standard rules pass left,
   right, across, then not at all.
2. **Leading** (HEARTS-2): the player on the dealer's right leads any card (seed). The
   standard rules: the 2♣'s holder leads it.
3. **Tricks** (HEARTS-3): follow suit if able, else play anything; the highest card of the
   suit led wins and leads next. The standard rules add: no heart and no Q♠ on the first
   trick unless nothing else is held, and no heart led before a heart was played unless
   the leader holds only hearts.
4. **Points** (HEARTS-4): each heart 1, the Q♠ 13; 26 a hand.
5. **Shooting the moon** (HEARTS-5): all 26 to one seat score it 0 and the others 26.
6. **End** (HEARTS-6): after the hand in which a total reaches ``target`` (100); the lowest
   total wins, equal totals share a place.

Timeouts **[decision]** (docs/decisions.md): a pass timer passes the most dangerous cards
still to choose (the Q♠, then the highest hearts, then the highest cards); a turn timer plays the
lowest legal card, which is the least likely to take points.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import (
    JSON,
    Event,
    Game,
    OptionSpec,
    Outcome,
    Timer,
    View,
    places_from_measure,
)
from tavolo.cardgames.errors import RuleError
from tavolo.cardgames.games.french_deck import (
    ACE_HIGH,
    SUIT_NAMES,
    SUIT_NUMBERS,
    full_deck,
    is_card,
    rank_of,
    suit_of,
)
from tavolo.cardgames.games.tricks import core as tricks
from tavolo.cardgames.games.tricks.core import ALONE, AMONG, NOBODY, with_hand, without
from tavolo.cardgames.games.tricks.hearts_state import (
    ANTICLOCKWISE,
    HEARTS,
    PASS_NAMES,
    PASS_SIZE,
    PASSING,
    PLAYING,
    SEATS,
    TWO_OF_CLUBS,
    HeartsRules,
    HeartsState,
    card_points,
    deal,
    exchange,
    hand_points,
    trick_winner,
)
from tavolo.cardgames.rng import SeededRandom

TRICKS: Final = 13

# Legal-action lists are built from these prebuilt actions: enumeration is the hot path.
_CARDS: Final = tricks.card_table(full_deck(), ACE_HIGH, ActionKind.PLAY, SUIT_NUMBERS)
"""Card → (suit, its one listed play)."""
_PLAYS: Final = {c: play for c, (_, play) in _CARDS.items()}
_PASSES: Final = {c: Action(ActionKind.PASS_CARDS, cards=(c,)) for c in full_deck()}
_SUIT: Final = ACE_HIGH.suit
"""Card → suit letter."""


def _check_target(value: JSON) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1000:
        return "the target is a whole number of points from 1 to 1000"
    return None


def danger(card: str) -> tuple[int, int]:
    """How much a card costs its holder: the Q♠ first, then hearts, then by rank."""
    return card_points(card), rank_of(card)


def _legal_plays(state: HeartsState, seat: int) -> list[Action]:
    """:func:`legal_cards` as their interned actions, in one pass over the hand where the
    rules allow (the list of cards and then of actions cost two)."""
    if state.rules.standard:
        plays = _PLAYS
        return [plays[c] for c in legal_cards(state, seat)]
    hand = state.hands[seat]
    table = _CARDS
    if state.trick:
        return tricks.following_plays(hand, table[state.trick[0][1]][0], table)
    plays = _PLAYS
    return [plays[c] for c in hand]


def may_play(state: HeartsState, seat: int, card: str) -> bool:
    """Is ``card`` among :func:`legal_cards`? Checked without building the list where
    the rules allow (the seed's: follow suit if able, else anything)."""
    if state.rules.standard:
        return card in legal_cards(state, seat)
    hand = state.hands[seat]
    if not state.trick:
        return tricks.holds(hand, card)
    table = _CARDS
    return tricks.may_follow_led(hand, table[state.trick[0][1]][0], card, table)


def legal_cards(state: HeartsState, seat: int) -> list[str]:
    """The cards ``seat`` may play now (HEARTS-3, and HEARTS-7 under the standard rules)."""
    hand = state.hands[seat]
    standard = state.rules.standard
    if state.trick:
        cards = tricks.following_cards(hand, state.trick, ACE_HIGH)
        if standard and state.tricks_played == 0:
            clean = [c for c in cards if card_points(c) == 0]
            return clean or cards
        return cards
    if not standard:
        return list(hand)
    if state.tricks_played == 0:
        return [TWO_OF_CLUBS]
    if not state.hearts_broken:
        return [c for c in hand if suit_of(c) != HEARTS] or list(hand)
    return list(hand)


def _low(card: str) -> tuple[int, int]:
    return rank_of(card), card_points(card)


def _timeout_default(st: HeartsState, seat: int) -> Action:
    """What an expired turn timer plays: the most dangerous cards still to choose for
    the pass, else the lowest legal card."""
    if st.phase == PASSING:
        rest = [c for c in st.hands[seat] if c not in st.chosen[seat]]
        count = PASS_SIZE - len(st.chosen[seat])
        worst = tuple(sorted(rest, key=danger, reverse=True)[:count])
        return Action(ActionKind.PASS_CARDS, cards=worst)
    return Action(ActionKind.PLAY, cards=(min(legal_cards(st, seat), key=_low),))


class Hearts(Game[HeartsState]):
    """The Hearts rules engine."""

    name = "hearts"
    title = "Hearts"
    min_players = 4
    max_players = 4
    option_specs = (
        OptionSpec(
            "rules",
            "seed",
            "'seed': pass right, any lead, no restrictions; 'standard': the passes cycle, "
            "the 2 of clubs leads, no points on the first trick, hearts must be broken",
            choices=("seed", "standard"),
        ),
        OptionSpec("target", 100, "the match ends when a total reaches it", check=_check_target),
    )

    # -- set-up ---------------------------------------------------------------------

    def _new_game(self, options: dict[str, JSON], seats: int, rng: SeededRandom) -> HeartsState:
        rules = HeartsRules(standard=options["rules"] == "standard", target=options["target"])
        dealer = rng.randbelow(SEATS)
        state, _ = deal(rules, dealer, 1, (0,) * SEATS, rng, 0)
        return state

    # -- knock-out play (RULES §0 rule 14, PCG-7) -------------------------------------

    offers_knock_out = True

    def tie_break_hand(self, state: HeartsState) -> tuple[HeartsState, list[Event]]:
        """One more hand dealt on from the drawn match, scored alone: fewest points wins.

        A target of 0 ends the match after that hand, whatever it scores."""
        rules = replace(state.rules, target=0)
        dealer = (state.dealer + ANTICLOCKWISE) % SEATS
        rng = state.rng.copy()
        return deal(rules, dealer, state.hand_no + 1, (0,) * SEATS, rng, state.step)

    def last_capture(self, state: HeartsState) -> int | None:
        """The seat that took the last trick of the hand."""
        return trick_winner(state.last_trick) if state.last_trick else None

    # -- reading the state ------------------------------------------------------------

    def seats(self, state: HeartsState) -> int:
        return SEATS

    def outcome(self, state: HeartsState) -> Outcome | None:
        return state.outcome

    def to_act(self, state: HeartsState) -> frozenset[int]:
        if state.outcome is not None:
            return NOBODY
        # "is it not the play" rather than "is it the pass": the play's phase is found by
        # identity, where "pass" and "play" would be compared character by character.
        if state.phase != PLAYING:
            mask = 0
            for s in range(SEATS):
                if len(state.chosen[s]) < PASS_SIZE:
                    mask |= 1 << s
            return AMONG[mask]
        return ALONE[state.turn]

    def timers(self, state: HeartsState) -> tuple[Timer, ...]:
        """A turn timer for each seat still to choose its pass, or for the seat to play."""
        if state.phase == PASSING:
            return tuple(
                Timer(key=f"pass:{state.hand_no}:{seat}", seat=seat, kind="turn")
                for seat in sorted(self.to_act(state))
            )
        return tuple(
            Timer(key=f"turn:{state.step}", seat=seat, kind="turn")
            for seat in sorted(self.to_act(state))
        )

    def cards_in_play(self, state: HeartsState) -> list[str]:
        cards = [c for hand in state.hands for c in hand]
        cards.extend(c for _, c in state.trick)
        cards.extend(c for pile in state.won for c in pile)
        return cards

    def hidden_cards(self, state: HeartsState, seat: int | None) -> list[str]:
        cards = [c for s, hand in enumerate(state.hands) if s != seat for c in hand]
        for card in self.shown_cards(state, seat) if seat is not None else ():
            cards.remove(card)
        return cards

    def shown_cards(self, state: HeartsState, seat: int) -> list[str]:
        """The cards a seat passed, while the receiver still holds them: it knows where
        they are."""
        receiver = (seat + state.pass_to) % SEATS
        return [c for c in state.passed[seat] if c in state.hands[receiver]]

    def view(self, state: HeartsState, seat: int | None) -> View:
        points = [sum(card_points(c) for c in pile) for pile in state.won]
        public: dict[str, JSON] = {
            "hand": state.hand_no,
            "dealer": state.dealer,
            "rules": "standard" if state.rules.standard else "seed",
            "target": state.rules.target,
            "phase": "over" if state.outcome is not None else state.phase,
            "pass": PASS_NAMES[state.pass_to],
            "chosen": [s for s in range(SEATS) if state.chosen[s]],
            "turn": state.turn,
            "trick": [{"seat": s, "card": c} for s, c in state.trick],
            "last_trick": [{"seat": s, "card": c} for s, c in state.last_trick],
            "hearts_broken": state.hearts_broken,
            "tricks_won": [len(pile) // SEATS for pile in state.won],
            "points_taken": points,
            "hand_sizes": [len(h) for h in state.hands],
            "totals": list(state.totals),
        }
        if state.outcome is not None:
            public["places"] = list(state.outcome.places)
        private: dict[str, JSON] = {}
        if seat is not None:
            if state.chosen[seat]:
                private["chosen"] = list(state.chosen[seat])
            shown = self.shown_cards(state, seat)
            if shown:
                private["passed"] = {
                    "to": (seat + state.pass_to) % SEATS,
                    "cards": shown,
                }
        hand = state.hands[seat] if seat is not None else ()
        return View(seat=seat, hand=hand, public=public, private=private)

    # -- legality ---------------------------------------------------------------------

    def _legal_actions(self, state: HeartsState, seat: int) -> list[Action]:
        if state.outcome is not None or not 0 <= seat < SEATS:
            return []
        if state.phase != PLAYING:  # passing (see to_act)
            chosen = state.chosen[seat]
            if len(chosen) >= PASS_SIZE:
                return []
            return [_PASSES[c] for c in state.hands[seat] if c not in chosen]
        if seat != state.turn:
            return []
        return _legal_plays(state, seat)

    def _is_legal(self, state: HeartsState, seat: int, action: Action) -> bool:
        """One card, as its one interned action (no other field set), that the seat may
        pass or play now; checked without building the list of legal actions."""
        cards = action.cards
        if len(cards) != 1:
            return False
        card = cards[0]
        if state.phase != PLAYING:  # passing (see to_act)
            canonical = _PASSES.get(card)
            if canonical is None or (action is not canonical and action != canonical):
                return False
            chosen = state.chosen[seat]
            return len(chosen) < PASS_SIZE and card in state.hands[seat] and card not in chosen
        canonical = _PLAYS.get(card)
        if canonical is None or (action is not canonical and action != canonical):
            return False
        return seat == state.turn and may_play(state, seat, card)

    def _explain(self, state: HeartsState, seat: int, action: Action) -> RuleError:
        if seat not in self.to_act(state):
            if state.phase == PASSING:
                return RuleError(
                    "you have chosen your three cards: wait for the others", reason="RULE_VIOLATION"
                )
            return RuleError(
                f"it is not your turn: seat {state.turn} plays", reason="NOT_YOUR_TURN"
            )
        if state.phase == PASSING:
            return RuleError(
                "choose one card of your hand to pass, not chosen already", reason="RULE_VIOLATION"
            )
        if action.kind is not ActionKind.PLAY or len(action.cards) != 1:
            return RuleError("play one card", reason="ONE_CARD_EXPECTED")
        card = action.cards[0]
        if not is_card(card):
            return RuleError(
                f"{card!r} is not a card; cards are written like AS, 10H, QD",
                reason="CARD_UNKNOWN",
                metadata={"card": card},
            )
        if card not in state.hands[seat]:
            return RuleError(
                f"you do not hold {card}", reason="CARD_NOT_HELD", metadata={"card": card}
            )
        if state.trick:
            led = suit_of(state.trick[0][1])
            if any(suit_of(c) == led for c in state.hands[seat]):
                return RuleError(
                    f"you must follow suit ({SUIT_NAMES[led]})",
                    reason="MUST_FOLLOW_SUIT",
                    metadata={"suit": led},
                )
            return RuleError(
                "no heart and no Q♠ on the first trick while you hold another card",
                reason="FIRST_TRICK_RESTRICTED",
            )
        if state.tricks_played == 0:
            return RuleError(
                "the 2 of clubs leads the first trick", reason="FIRST_TRICK_RESTRICTED"
            )
        return RuleError("hearts are not broken yet: lead another suit", reason="SUIT_NOT_BROKEN")

    # -- applying ---------------------------------------------------------------------

    def _apply(
        self, state: HeartsState, seat: int, action: Action
    ) -> tuple[HeartsState, list[Event]]:
        st = state.copy()
        st.step += 1
        events: list[Event] = []
        if action.kind is ActionKind.EXPIRE:
            events.append({"type": "timeout", "seat": seat, "timer": action.timer})
            action = _timeout_default(st, seat)
        if action.kind is ActionKind.PASS_CARDS:
            self._choose(st, seat, action.cards, events)
            return st, events
        return self._play(st, seat, action.cards[0], events), events

    def _choose(
        self, st: HeartsState, seat: int, cards: tuple[str, ...], events: list[Event]
    ) -> None:
        st.chosen = with_hand(st.chosen, seat, st.chosen[seat] + cards)
        events.append({"type": "pass_chosen", "seat": seat, "cards": list(cards)})
        for chose in st.chosen:
            if len(chose) != PASS_SIZE:
                return
        events.append(exchange(st))

    def _play(self, st: HeartsState, seat: int, card: str, events: list[Event]) -> HeartsState:
        """Play ``card`` on ``st`` (the apply's own copy, changed in place); the state to
        hand back: ``st``, or the next hand's deal once this one is over."""
        st.hands = with_hand(st.hands, seat, without(st.hands[seat], card))
        st.trick += ((seat, card),)
        st.hearts_broken = st.hearts_broken or _SUIT[card] == HEARTS
        events.append({"type": "play", "seat": seat, "card": card})
        if len(st.trick) < SEATS:
            st.turn = (seat + ANTICLOCKWISE) % SEATS
            return st
        trick = st.trick
        winner = trick_winner(trick)
        cards = (trick[0][1], trick[1][1], trick[2][1], trick[3][1])
        st.won = with_hand(st.won, winner, st.won[winner] + cards)
        points = card_points(cards[0]) + card_points(cards[1])
        points += card_points(cards[2]) + card_points(cards[3])
        events.append({"type": "trick", "winner": winner, "points": points})
        st.last_trick, st.trick = st.trick, ()
        st.tricks_played += 1
        st.turn = winner
        if st.tricks_played == TRICKS:
            return self._finish_hand(st, events)
        return st

    def _finish_hand(self, st: HeartsState, events: list[Event]) -> HeartsState:
        points, moon = hand_points(st.won)
        totals = tuple(t + p for t, p in zip(st.totals, points, strict=True))
        events.append(
            {
                "type": "hand_end",
                "hand": st.hand_no,
                "points": list(points),
                "moon": moon,
                "totals": list(totals),
            }
        )
        st.totals = totals
        if max(totals) >= st.rules.target:
            places = places_from_measure(totals, lower_is_better=True)
            st.outcome = Outcome(places=places, scores=totals, detail={"hands": st.hand_no})
            events.append({"type": "game_over", "places": list(places), "totals": list(totals)})
            return st
        dealer = (st.dealer + ANTICLOCKWISE) % SEATS  # the deal passes on (RULES §0.4)
        rng = st.rng.copy()
        fresh, dealt = deal(st.rules, dealer, st.hand_no + 1, totals, rng, st.step)
        events.extend(dealt)
        return fresh
