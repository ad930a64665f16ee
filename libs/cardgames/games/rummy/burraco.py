"""Burraco (RULES §12, BURRACO-1…10): melds with jokers and pinelle, the pozzetti, and
closing, played to 2005 points or a number of hands.

Two players each play for a side; four play seats 0+2 against 1+3. Play is
anticlockwise (seat s to s+1) and the player on the dealer's right starts; the deal
passes to the right after every hand. A turn is:

1. ``DRAW`` the top of the stock, or ``TAKE_DISCARD`` the whole discard pile;
2. any number of ``MELD(cards=...)`` (cards in table order, see
   :mod:`~tavolo.cardgames.games.rummy.melds`) and ``ATTACH(cards=(card,), meld=i,
   target=low|high for a wild on a run)`` to the side's melds;
3. ``DISCARD(cards=(card,))``.

Which plays are allowed, and why not, is :mod:`~tavolo.cardgames.games.rummy.burraco_legal`;
the scoring is :mod:`~tavolo.cardgames.games.rummy.burraco_scoring`.

A turn timeout (``EXPIRE``) draws from the stock when the seat has not drawn, and
otherwise discards without melding: the cheapest card it may, a wild last **[decision]**.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

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
from tavolo.cardgames.games.rummy.burraco_legal import (
    DRAW_ACTION,
    RULES,
    listed_actions,
    refusal,
    timeout_discard,
)
from tavolo.cardgames.games.rummy.burraco_scoring import SideScore, score_side
from tavolo.cardgames.games.rummy.burraco_state import (
    DRAW,
    LAST_STOCK,
    MAX_TIEBREAKS,
    OVER,
    PLAY,
    BurracoOptions,
    BurracoState,
    members,
    parse_match_length,
    side_of,
    start_hand,
)
from tavolo.cardgames.games.rummy.burraco_view import public_view
from tavolo.cardgames.games.rummy.deck import sort_cards
from tavolo.cardgames.games.rummy.melds import Attached, Meld, attach, describe, read_meld
from tavolo.cardgames.rng import SeededRandom


def _check_match(value: JSON) -> str | None:
    try:
        parse_match_length(value)
    except ValueError as exc:
        return str(exc)
    return None


def _without(hand: Sequence[str], cards: Sequence[str]) -> tuple[str, ...]:
    left = Counter(cards)
    kept = []
    for c in hand:
        if left[c]:
            left[c] -= 1
        else:
            kept.append(c)
    return tuple(kept)


class Burraco(Game[BurracoState]):
    """Burraco for two players or two partnerships."""

    name = "burraco"
    title = "Burraco"
    min_players = 2
    max_players = 4
    option_specs = (
        OptionSpec(
            "match_length",
            "points:2005",
            "'points:T' (first side past T) or 'hands:N' hands",
            check=_check_match,
        ),
        OptionSpec(
            "semipulito",
            True,
            "a burraco with its wild at an end and 7 naturals scores 150",
            (True, False),
        ),
    )

    def seat_counts(self) -> tuple[int, ...]:
        """Two players, or two partnerships of two (BURRACO-1)."""
        return (2, 4)

    # -- knock-out play (RULES §0 rule 14, PCG-7) -------------------------------------

    offers_knock_out = True
    own_tie_breaks = True
    """A tied match already plays up to three tie-break hands, the third lost by the side
    that made the last play (RULES 12.10): a Burraco match is never drawn."""

    def last_capture(self, state: BurracoState) -> int | None:
        """Burraco has neither captures nor tricks: the seat that made the last play."""
        return state.last_player

    def partners(self, state: BurracoState, seat: int) -> frozenset[int]:
        return frozenset(members(state, side_of(state, seat)))

    def _new_game(self, options: dict[str, JSON], seats: int, rng: SeededRandom) -> BurracoState:
        rng = rng.copy()
        hands_limit, points_target = parse_match_length(options["match_length"])
        dealer = rng.randbelow(seats)
        blank = BurracoState(
            options=BurracoOptions(
                semipulito=bool(options["semipulito"]),
                hands_limit=hands_limit,
                points_target=points_target,
                match=str(options["match_length"]),
            ),
            rng=rng,
            seats=seats,
            hand_no=0,
            dealer=dealer,
            turn=0,
            phase=DRAW,
            hands=(),
            stock=(),
            discard=(),
            pozzetti=((), ()),
            took_pozzetto=(False, False),
            melds=((), ()),
            banned=None,
            last_turn=False,
            last_player=dealer,
            totals=(0, 0),
            score_sheet=(),
            last_hand=None,
            tiebreaks=None,
            winner=None,
            end_reason=None,
        )
        return start_hand(blank, 1, dealer)

    # -- whose move, and which ------------------------------------------------------

    def seats(self, state: BurracoState) -> int:
        return state.seats

    def to_act(self, state: BurracoState) -> frozenset[int]:
        return frozenset() if state.phase == OVER else frozenset((state.turn,))

    def timers(self, state: BurracoState) -> tuple[Timer, ...]:
        """One turn timer; its key names the hand, the cards left in the stock, the
        phase and the hand size, so an expiry from an earlier moment is refused."""
        if state.phase == OVER:
            return ()
        step = f"{state.phase}{len(state.hands[state.turn])}"
        key = f"turn:h{state.hand_no}:k{len(state.stock)}:{step}:s{state.turn}"
        return (Timer(key=key, seat=state.turn, kind="turn"),)

    def _legal_actions(self, state: BurracoState, seat: int) -> list[Action]:
        if seat != state.turn or state.phase == OVER:
            return []
        return listed_actions(state, seat)

    def _is_legal(self, state: BurracoState, seat: int, action: Action) -> bool:
        return seat == state.turn and state.phase != OVER and refusal(state, seat, action) is None

    def listed_form(self, state: BurracoState, seat: int, action: Action) -> Action:
        """An attachment naming an end that plays as the same attachment with none (a
        pinella laid in its own place at the low end) is listed without the end."""
        if action.kind is not ActionKind.ATTACH or action.target is None:
            return action
        own = state.melds[side_of(state, seat)]
        index = action.meld
        if len(action.cards) != 1 or index is None or not 0 <= index < len(own):
            return action
        if action != Action(
            ActionKind.ATTACH, cards=action.cards, meld=index, target=action.target
        ):
            return action  # other fields set: no spelling of a play
        named = attach(own[index], action.cards[0], action.target, RULES)
        plain = attach(own[index], action.cards[0], None, RULES)
        if isinstance(named, str) or named != plain:
            return action
        return Action(ActionKind.ATTACH, cards=action.cards, meld=index)

    def _explain(self, state: BurracoState, seat: int, action: Action) -> RuleError:
        if state.phase == OVER:
            return GameOver("the game is over")
        if seat != state.turn:
            return NotYourTurn(f"it is not your turn: seat {state.turn} is playing")
        return RuleError(refusal(state, seat, action) or f"{action} is not allowed now")

    # -- applying an action ---------------------------------------------------------

    def _apply(
        self, state: BurracoState, seat: int, action: Action
    ) -> tuple[BurracoState, list[Event]]:
        kind = action.kind
        if kind is ActionKind.EXPIRE:
            return self._play_expiry(state, seat, action)
        if kind is ActionKind.DRAW:
            return self._draw(state, seat)
        if kind is ActionKind.TAKE_DISCARD:
            return self._take(state, seat)
        if kind is ActionKind.MELD:
            meld = read_meld(action.cards, RULES)
            assert isinstance(meld, Meld)
            return self._meld(state, seat, meld)
        if kind is ActionKind.ATTACH:
            return self._attach(state, seat, action.cards[0], int(action.meld or 0), action.target)
        return self._discard(state, seat, action.cards[0])

    def timeout_action(self, state: BurracoState, seat: int) -> Action:
        """Draw from the stock; once drawn, discard without melding (see the module)."""
        if state.phase == DRAW:
            return DRAW_ACTION
        return Action(ActionKind.DISCARD, cards=(timeout_discard(state, seat),))

    def _draw(self, state: BurracoState, seat: int) -> tuple[BurracoState, list[Event]]:
        card, stock = state.stock[0], state.stock[1:]
        after = self._with_hand(state, seat, sort_cards((*state.hands[seat], card)))
        last = len(stock) <= LAST_STOCK
        after = after.replace(stock=stock, phase=PLAY, banned=None, last_turn=last)
        events: list[Event] = [{"type": "drew", "seat": seat, "card": card}]
        if last:
            events.append({"type": "stock_low", "seat": seat, "left": len(stock)})
        return after, events

    def _take(self, state: BurracoState, seat: int) -> tuple[BurracoState, list[Event]]:
        pile = state.discard
        hand = sort_cards((*state.hands[seat], *pile))
        after = self._with_hand(state, seat, hand)
        banned = pile[0] if len(pile) == 1 else None
        after = after.replace(discard=(), phase=PLAY, banned=banned)
        return after, [{"type": "took_discard", "seat": seat, "cards": list(pile)}]

    def _meld(self, state: BurracoState, seat: int, meld: Meld) -> tuple[BurracoState, list[Event]]:
        side = side_of(state, seat)
        after = self._with_melds(state, side, (*state.melds[side], meld))
        after = self._with_hand(after, seat, _without(state.hands[seat], meld.cards))
        event: Event = {
            "type": "melded",
            "seat": seat,
            "meld": len(after.melds[side]) - 1,
            "cards": list(meld.cards),
            "shown": describe(meld),
        }
        return self._al_volo(after, seat, [event])

    def _attach(
        self, state: BurracoState, seat: int, card: str, index: int, end: str | None
    ) -> tuple[BurracoState, list[Event]]:
        side = side_of(state, seat)
        own = state.melds[side]
        done = attach(own[index], card, end, RULES)
        assert isinstance(done, Attached)
        after = self._with_melds(state, side, (*own[:index], done.meld, *own[index + 1 :]))
        after = self._with_hand(after, seat, _without(state.hands[seat], (card,)))
        event: Event = {
            "type": "attached",
            "seat": seat,
            "meld": index,
            "card": card,
            "cards": list(done.meld.cards),
            "shown": describe(done.meld),
        }
        return self._al_volo(after, seat, [event])

    def _al_volo(
        self, state: BurracoState, seat: int, events: list[Event]
    ) -> tuple[BurracoState, list[Event]]:
        """A hand emptied by melding takes the side's pozzetto and plays on (12.6)."""
        if state.hands[seat]:
            return state, events
        return self._take_pozzetto(state, seat, "al_volo", events)

    def _take_pozzetto(
        self, state: BurracoState, seat: int, how: str, events: list[Event]
    ) -> tuple[BurracoState, list[Event]]:
        side = side_of(state, seat)
        pozzetto = state.pozzetti[side]
        pozzetti = list(state.pozzetti)
        pozzetti[side] = ()
        took = list(state.took_pozzetto)
        took[side] = True
        after = self._with_hand(state, seat, sort_cards(pozzetto))
        after = after.replace(pozzetti=(pozzetti[0], pozzetti[1]), took_pozzetto=(took[0], took[1]))
        events.append({"type": "pozzetto_taken", "seat": seat, "side": side, "how": how})
        return after, events

    def _discard(
        self, state: BurracoState, seat: int, card: str
    ) -> tuple[BurracoState, list[Event]]:
        after = self._with_hand(state, seat, _without(state.hands[seat], (card,)))
        after = after.replace(discard=(*state.discard, card), last_player=seat)
        events: list[Event] = [{"type": "discarded", "seat": seat, "card": card}]
        if not after.hands[seat]:
            side = side_of(state, seat)
            if not state.took_pozzetto[side]:
                after, events = self._take_pozzetto(after, seat, "con_scarto", events)
            else:
                events.append({"type": "closed", "seat": seat, "side": side})
                return self._end_hand(after, closer_side=side, events=events)
        if after.last_turn:
            return self._end_hand(after, closer_side=None, events=events)
        nxt = (seat + 1) % state.seats
        return after.replace(turn=nxt, phase=DRAW, banned=None), events

    def _with_hand(self, state: BurracoState, seat: int, hand: tuple[str, ...]) -> BurracoState:
        hands = list(state.hands)
        hands[seat] = hand
        return state.replace(hands=tuple(hands))

    def _with_melds(self, state: BurracoState, side: int, melds: tuple[Meld, ...]) -> BurracoState:
        both = list(state.melds)
        both[side] = melds
        return state.replace(melds=(both[0], both[1]))

    # -- the end of a hand and of the match ------------------------------------------

    def _end_hand(
        self, state: BurracoState, *, closer_side: int | None, events: list[Event]
    ) -> tuple[BurracoState, list[Event]]:
        scores = self.hand_scores(state, closer_side)
        points = (scores[0].total, scores[1].total)
        counted = state.tiebreaks is None
        totals = (
            (state.totals[0] + points[0], state.totals[1] + points[1]) if counted else state.totals
        )
        summary: dict[str, JSON] = {
            "hand": state.hand_no,
            "closed_by": closer_side,
            "tie_break": not counted,
            "sides": [s.to_json() for s in scores],
            "totals": list(totals),
        }
        events.append({"type": "hand_scored", **summary})
        state = state.replace(
            totals=totals,
            score_sheet=(*state.score_sheet, (*points, *totals)),
            last_hand=summary,
        )
        winner, reason, tiebreaks = self._decide(state, points)
        if winner is None:
            dealer = (state.dealer + 1) % state.seats
            state = start_hand(state.replace(tiebreaks=tiebreaks), state.hand_no + 1, dealer)
            events.append(
                {
                    "type": "hand_dealt",
                    "hand": state.hand_no,
                    "dealer": dealer,
                    "hands": [list(h) for h in state.hands],
                    "discard": list(state.discard),
                    "tie_break": tiebreaks is not None,
                }
            )
            return state, events
        state = state.replace(phase=OVER, winner=winner, end_reason=reason, tiebreaks=tiebreaks)
        outcome = self.outcome(state)
        assert outcome is not None
        events.append(
            {
                "type": "game_over",
                "winner_side": winner,
                "reason": reason,
                "totals": list(totals),
                "places": list(outcome.places),
            }
        )
        return state, events

    def hand_scores(self, state: BurracoState, closer_side: int | None) -> list[SideScore]:
        return [
            score_side(
                state.melds[side],
                [state.hands[s] for s in members(state, side)],
                closed=closer_side == side,
                took_pozzetto=state.took_pozzetto[side],
                semipulito=state.options.semipulito,
            )
            for side in (0, 1)
        ]

    def _decide(
        self, state: BurracoState, points: tuple[int, int]
    ) -> tuple[int | None, str | None, int | None]:
        """(winner side, reason, tie-break hands) after a hand (RULES 12.10, 0.11-0.14)."""
        opts, totals = state.options, state.totals
        if state.tiebreaks is None:
            reached = opts.points_target is not None and max(totals) >= opts.points_target
            played = opts.hands_limit is not None and state.hand_no >= opts.hands_limit
            if not (reached or played):
                return None, None, None
            if totals[0] != totals[1]:
                return (0 if totals[0] > totals[1] else 1), "target" if reached else "hands", None
            return None, None, 0
        played_tb = state.tiebreaks + 1
        if points[0] != points[1]:
            return (0 if points[0] > points[1] else 1), "tie_break", played_tb
        if played_tb >= MAX_TIEBREAKS:
            return 1 - side_of(state, state.last_player), "last_play", played_tb
        return None, None, played_tb

    # -- what is seen ---------------------------------------------------------------

    def view(self, state: BurracoState, seat: int | None) -> View:
        public = public_view(state)
        if seat is None:
            return View(seat=None, hand=(), public=public)
        return View(seat=seat, hand=state.hands[seat], public=public)

    def outcome(self, state: BurracoState) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome(
            places=places_from_measure(
                [int(side_of(state, s) == state.winner) for s in range(state.seats)],
                lower_is_better=False,
            ),
            scores=tuple(state.totals[side_of(state, s)] for s in range(state.seats)),
            detail={
                "winner_side": state.winner,
                "reason": state.end_reason,
                "totals": list(state.totals),
                "hands": state.hand_no,
                "tie_breaks": state.tiebreaks or 0,
            },
        )

    def cards_in_play(self, state: BurracoState) -> list[str]:
        return [
            *(c for h in state.hands for c in h),
            *state.stock,
            *state.discard,
            *(c for p in state.pozzetti for c in p),
            *(c for side in state.melds for m in side for c in m.cards),
        ]

    def hidden_cards(self, state: BurracoState, seat: int | None) -> list[str]:
        return [
            *(c for s, h in enumerate(state.hands) if s != seat for c in h),
            *state.stock,
            *(c for p in state.pozzetti for c in p),
        ]
