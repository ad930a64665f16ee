"""Briscola (RULES §5, BRISCOLA-1…7): 2 or 3 players, or 4 in two partnerships, play
tricks with a turned trump and draw after each trick, for the 120 card points of the deck.

Seats 0+2 play against 1+3 at four; otherwise every seat plays for itself. Play is
anticlockwise, so the turn passes from seat s to s+1 (RULES §0 rule 2). Each hand:

1. *Deal* (BRISCOLA-1). The first dealer is the generator's first draw; the deal then
   passes to the dealer's right. A fresh shuffle; 3 cards each, one at a time from the
   dealer's right; the next card is turned face up: its suit is trumps, and it lies under
   the stock as its last card. With 3 players the 2 of bastoni leaves the deck.
2. *Play* (BRISCOLA-2, 3). The player on the dealer's right leads; anyone may play any
   card. The highest trump wins the trick, else the highest card of the suit led, in the
   order A 3 R C F 7 6 5 4 2 (the trick core, :mod:`~tavolo.cardgames.games.tricks.core`).
3. *Drawing* (BRISCOLA-4). The winner takes the trick, draws first and leads; the others
   draw in turn order. Once the stock is gone the last 3 tricks are played out.
4. *Swapping the 2* (BRISCOLA-7, ``exchange_two``): on their turn, before playing, the
   holder of the 2 of trumps may ``TAKE(cards=(two,))`` the turned card for it, while it
   is under the stock and a face-down card remains.
5. *Result and match* (BRISCOLA-5, 6) in :mod:`~tavolo.cardgames.games.tricks.briscola_match`:
   61 points wins a two-sided hand; ``match_length = single`` (one hand) or
   ``hands:N`` won by the most hands, stopping once nobody can catch the leader. With
   ``ko`` on, a drawn match plays tie-break hands (RULES §0 rules 13-14, PCG-7).

A turn timeout (``EXPIRE`` of the seat's turn timer) plays the card that gives away
least **[decision]**: the lowest-scoring card, a non-trump before a trump, the weakest
of those; it never swaps the 2. The expiry is recorded as ``timer_expired`` followed by
the events of the card it played.
"""

from __future__ import annotations

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
from tavolo.cardgames.errors import GameOver, NotYourTurn, RuleError
from tavolo.cardgames.games import italian_cards
from tavolo.cardgames.games.tricks import core as tricks
from tavolo.cardgames.games.tricks.briscola_match import (
    decided,
    hand_winner,
    match_measure,
    tied_at_top,
)
from tavolo.cardgames.games.tricks.briscola_state import (
    ORDER,
    OVER,
    POINTS,
    BriscolaOptions,
    BriscolaState,
    deal,
    side_of,
)
from tavolo.cardgames.games.tricks.core import card_points, per_side, tiebreak_ranking, trick_winner
from tavolo.cardgames.rng import SeededRandom

MATCH_LENGTHS = ("single", "hands:3", "hands:5", "hands:7")


def _sorted(cards: list[str]) -> tuple[str, ...]:
    """A Briscola hand in display order, strongest first in each suit."""
    return italian_cards.sort_hand(cards, ORDER.strength)


_PLAYS = {c: Action(ActionKind.PLAY, cards=(c,)) for c in italian_cards.DECK}
_SWAPS = {c: Action(ActionKind.TAKE, cards=(c,)) for c in italian_cards.DECK if c[0] == "2"}


def least_harmful(cards: list[str] | tuple[str, ...], trumps: str) -> str:
    """The turn-timeout card: fewest points, a non-trump first, then the weakest."""
    return min(cards, key=lambda c: (POINTS[c], c[-1] == trumps, ORDER.strength[c], c))


class Briscola(Game[BriscolaState]):
    """Briscola for 2, 3 or 4 players (two partnerships at four)."""

    name = "briscola"
    title = "Briscola"
    min_players = 2
    max_players = 4
    option_specs = (
        OptionSpec(
            "match_length",
            "single",
            "single: one hand (a punti); hands:N: the most hands won (a smazzate)",
            MATCH_LENGTHS,
        ),
        OptionSpec(
            "exchange_two",
            False,
            "the holder of the 2 of trumps may take the turned card",
            (False, True),
        ),
        OptionSpec("ko", False, "a drawn match plays up to 3 tie-break hands", (False, True)),
    )

    def _new_game(self, options: dict[str, JSON], seats: int, rng: SeededRandom) -> BriscolaState:
        rng = rng.copy()
        dealer = rng.randbelow(seats)
        sides = 2 if seats == 4 else seats
        blank = BriscolaState(
            options=BriscolaOptions(**options),
            rng=rng,
            seats=seats,
            hand_no=0,
            dealer=dealer,
            phase=OVER,
            hands=(),
            stock=(),
            turned="",
            turn=0,
            trick=(),
            tricks_done=0,
            taken=(),
            last_trick=(),
            hands_won=(0,) * sides,
            points=(0,) * sides,
            score_sheet=(),
            tiebreaks=0,
            tied=(),
            ranking=(0,) * sides,
            last_hand=None,
            end_reason=None,
        )
        return deal(blank, 1, dealer)

    # -- whose move, and which ------------------------------------------------------

    def seats(self, state: BriscolaState) -> int:
        return state.seats

    def to_act(self, state: BriscolaState) -> frozenset[int]:
        return frozenset() if state.phase == OVER else frozenset((state.turn,))

    def timers(self, state: BriscolaState) -> tuple[Timer, ...]:
        """One turn timer, keyed by hand, trick and seat so a late expiry is refused."""
        if state.phase == OVER:
            return ()
        key = f"turn:h{state.hand_no}:t{state.tricks_done + 1}:s{state.turn}"
        return (Timer(key=key, seat=state.turn, kind="turn"),)

    def _legal_actions(self, state: BriscolaState, seat: int) -> list[Action]:
        if seat != state.turn or state.phase == OVER:
            return []
        plays = [_PLAYS[c] for c in state.hands[seat]]
        two = self._swappable_two(state, seat)
        return [*plays, _SWAPS[two]] if two else plays

    def _swappable_two(self, state: BriscolaState, seat: int) -> str | None:
        """The 2 of trumps ``seat`` may swap for the turned card now (BRISCOLA-7)."""
        if not state.options.exchange_two or len(state.stock) < 2 or not state.turned_on_view():
            return None
        two = "2" + state.trumps
        return two if two in state.hands[seat] else None

    def _explain(self, state: BriscolaState, seat: int, action: Action) -> RuleError:
        if state.phase == OVER:
            return GameOver("the game is over")
        if seat != state.turn:
            return NotYourTurn(f"it is not your turn: seat {state.turn} is to play")
        if action.kind is ActionKind.TAKE:
            if not state.options.exchange_two:
                return RuleError(
                    "swapping the 2 of trumps is off at this table", reason="OPTION_OFF"
                )
            return RuleError(
                "only the holder of the 2 of trumps may take the turned card, while it is "
                "under the stock and a face-down card remains",
                reason="RULE_VIOLATION",
            )
        if action.kind is not ActionKind.PLAY or action != Action(
            ActionKind.PLAY, cards=action.cards
        ):
            return RuleError("play one card from your hand", reason="ONE_CARD_EXPECTED")
        if len(action.cards) != 1:
            return RuleError("play exactly one card", reason="ONE_CARD_EXPECTED")
        card = action.cards[0]
        if not italian_cards.is_card(card):
            return RuleError(
                f"{card!r} is not a card; cards are written like AD, 3C, RB",
                reason="CARD_UNKNOWN",
                metadata={"card": card},
            )
        return RuleError(f"you do not hold {card}", reason="CARD_NOT_HELD", metadata={"card": card})

    # -- applying an action ---------------------------------------------------------

    def _apply(
        self, state: BriscolaState, seat: int, action: Action
    ) -> tuple[BriscolaState, list[Event]]:
        if action.kind is ActionKind.EXPIRE:
            return self._play_expiry(state, seat, action)
        if action.kind is ActionKind.TAKE:
            return self._swap_two(state, seat, action.cards[0])
        return self._play(state, seat, action.cards[0])

    def timeout_action(self, state: BriscolaState, seat: int) -> Action:
        """What a turn timeout plays for ``seat``: see the module docstring."""
        return _PLAYS[least_harmful(state.hands[seat], state.trumps)]

    def _swap_two(
        self, state: BriscolaState, seat: int, two: str
    ) -> tuple[BriscolaState, list[Event]]:
        hands = list(state.hands)
        taken = state.turned
        hands[seat] = italian_cards.sort_hand(
            [*(c for c in hands[seat] if c != two), taken], ORDER.strength
        )
        after = state.replace(hands=tuple(hands), stock=(*state.stock[:-1], two), turned=two)
        return after, [{"type": "two_swapped", "seat": seat, "gave": two, "took": taken}]

    def _play(
        self, state: BriscolaState, seat: int, card: str
    ) -> tuple[BriscolaState, list[Event]]:
        st = state.copy()
        st.hands, st.trick, played = tricks.play_card(state.hands, state.trick, seat, card)
        events: list[Event] = [played]
        if len(st.trick) < state.seats:
            st.turn = (seat + 1) % state.seats
            return st, events
        trick, number = st.trick, state.tricks_done + 1
        winner, won = tricks.close_trick(trick, ORDER, state.trumps, number)
        won["points"] = card_points([c for _, c in trick], POINTS)
        events.append(won)
        st.hands, st.stock, _, drawn = tricks.draw_in_turn(st.hands, state.stock, winner, _sorted)
        events.extend(drawn)
        st.taken = tricks.add_to_pile(state.taken, winner, trick)
        st.trick, st.tricks_done, st.last_trick, st.turn = (), number, trick, winner
        if any(st.hands):
            return st, events
        return self._end_hand(st, side_of(state.seats, winner), events)

    def _end_hand(
        self, state: BriscolaState, last_side: int, events: list[Event]
    ) -> tuple[BriscolaState, list[Event]]:
        opts = state.options
        seat_points = [card_points(cards, POINTS) for cards in state.taken]
        points = per_side(seat_points, state.sides)
        winner = hand_winner(points)
        tiebreak = bool(state.tied)
        summary: dict[str, JSON] = {
            "hand": state.hand_no,
            "points": points,
            "winner_side": winner,
            "last_trick_side": last_side,
            "tie_break": tiebreak,
        }
        events.append({"type": "hand_scored", **summary, "points": list(points)})
        state = state.replace(last_hand=summary)
        if tiebreak:
            ranking, level = tiebreak_ranking(
                state.tied, points, state.tiebreaks + 1, last_side, state.ranking
            )
            state = state.replace(tiebreaks=state.tiebreaks + 1, ranking=ranking)
            if not level:
                return self._game_over(state, "tie_break", events)
            return self._next_hand(state.replace(tied=level), events)
        hands_won = list(state.hands_won)
        if winner is not None:
            hands_won[winner] += 1
        totals = [t + p for t, p in zip(state.points, points, strict=True)]
        state = state.replace(
            hands_won=tuple(hands_won),
            points=tuple(totals),
            score_sheet=(*state.score_sheet, tuple(points)),
        )
        measure = match_measure(opts.hands, totals, hands_won)
        if not decided(opts.hands, state.hand_no, measure, hands_won):
            return self._next_hand(state, events)
        tied = tied_at_top(measure)
        if tied and opts.ko:
            events.append({"type": "tie_break_started", "sides": list(tied)})
            return self._next_hand(state.replace(tied=tied), events)
        return self._game_over(state, "drawn" if tied else "match_won", events)

    def _next_hand(
        self, state: BriscolaState, events: list[Event]
    ) -> tuple[BriscolaState, list[Event]]:
        dealer = (state.dealer + 1) % state.seats
        state = deal(state, state.hand_no + 1, dealer)
        events.append(
            {
                "type": "hand_dealt",
                "hand": state.hand_no,
                "dealer": dealer,
                "turned": state.turned,
                "hands": [list(h) for h in state.hands],
            }
        )
        return state, events

    def _game_over(
        self, state: BriscolaState, reason: str, events: list[Event]
    ) -> tuple[BriscolaState, list[Event]]:
        state = state.replace(phase=OVER, end_reason=reason)
        outcome = self.outcome(state)
        assert outcome is not None
        events.append({"type": "game_over", "reason": reason, "places": list(outcome.places)})
        return state, events

    # -- what is seen ---------------------------------------------------------------

    def view(self, state: BriscolaState, seat: int | None) -> View:
        public: dict[str, JSON] = {
            "phase": state.phase,
            "hand_no": state.hand_no,
            "dealer": state.dealer,
            "turn": None if state.phase == OVER else state.turn,
            "sides": [list(side) for side in state.sides],
            "trumps": state.trumps,
            "turned": state.turned if state.turned_on_view() else None,
            "stock_size": len(state.stock),
            "hand_sizes": [len(h) for h in state.hands],
            "trick_number": state.tricks_done + 1,
            "trick": [{"seat": s, "card": c} for s, c in state.trick],
            "last_trick": _trick_json(state),
            "tricks_won": [len(cards) // state.seats for cards in state.taken],
            "hands_won": list(state.hands_won),
            "match_length": state.options.match_length,
            "score_sheet": [list(line) for line in state.score_sheet],
            "last_hand": _copy(state.last_hand),
            "tie_break": state.tiebreaks + 1 if state.tied and state.phase != OVER else None,
        }
        hand = state.hands[seat] if seat is not None else ()
        return View(seat=seat, hand=hand, public=public)

    def outcome(self, state: BriscolaState) -> Outcome | None:
        if state.phase != OVER:
            return None
        opts = state.options
        measure = match_measure(opts.hands, state.points, state.hands_won)
        ranked = [m * 10 + r for m, r in zip(measure, state.ranking, strict=True)]
        by_seat = [ranked[side_of(state.seats, s)] for s in range(state.seats)]
        return Outcome(
            places=places_from_measure(by_seat, lower_is_better=False),
            scores=tuple(state.points[side_of(state.seats, s)] for s in range(state.seats)),
            detail={
                "reason": state.end_reason,
                "hands_won": list(state.hands_won),
                "points": list(state.points),
                "hands": state.hand_no,
                "tie_breaks": state.tiebreaks,
            },
        )

    # -- knock-out play (RULES §0 rule 14, PCG-7) -------------------------------------

    offers_knock_out = True
    own_tie_breaks = True
    """With its ``ko`` option on (a KO table turns it on) a drawn match plays up to three
    tie-break hands, the third lost by the side that took the last trick (BRISCOLA-6)."""

    def last_capture(self, state: BriscolaState) -> int | None:
        return trick_winner(state.last_trick, ORDER, state.trumps) if state.last_trick else None

    def partners(self, state: BriscolaState, seat: int) -> frozenset[int]:
        return frozenset(next(side for side in state.sides if seat in side))

    def cards_in_play(self, state: BriscolaState) -> list[str]:
        return [
            *(c for h in state.hands for c in h),
            *state.stock,
            *(c for _, c in state.trick),
            *(c for cards in state.taken for c in cards),
        ]

    def hidden_cards(self, state: BriscolaState, seat: int | None) -> list[str]:
        stock = state.stock[:-1] if state.turned_on_view() else state.stock
        return [c for s, h in enumerate(state.hands) if s != seat for c in h] + list(stock)


def _trick_json(state: BriscolaState) -> dict[str, JSON] | None:
    if not state.last_trick:
        return None
    return {
        "number": state.tricks_done,
        "plays": [{"seat": s, "card": c} for s, c in state.last_trick],
        "winner": trick_winner(state.last_trick, ORDER, state.trumps),
    }


def _copy(summary: object) -> dict[str, JSON] | None:
    if not isinstance(summary, dict):
        return None
    return {**summary, "points": list(summary["points"])}
