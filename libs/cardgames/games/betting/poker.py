"""Poker all'italiana (RULES §14, POKER-1…11): 2 to 6 players, each for themselves,
five-card draw with a short deck, in table chips.

Play is clockwise: the turn passes from seat s to s - 1; the buiante sits on the
dealer's left (RULES §0 rule 3). The first dealer is the generator's first draw. Each deal:

1. *Deck* (POKER-1): 11 - players is the lowest rank (7 to ace for 4 players).
2. *Ante and deal* (POKER-2): everyone antes ``ante = 1``; 5 cards each.
3. *Blind* (POKER-5): with ``blind = on`` and jacks to open, the buiante first decides,
   before seeing any card, whether to open blind with the minimum bet (``BET``) or not
   (``CHECK``).
4. *First round* (POKER-6, 7), from the dealer's left: before an opening ``CHECK``
   (busso), ``BET`` (punto, only holding the minimum) or ``FOLD`` (passo); after it
   ``CALL_BET`` (vedo), ``RAISE`` (rilancio) or ``FOLD``.
5. *Nobody opens* (POKER-8): the pot stays, everyone antes again and the cards are
   redealt; the minimum rises jacks → queens → kings → aces → jacks.
6. *Change* (POKER-9): each player still in discards 0-4 cards (``DISCARD``) and draws
   as many; a short stock takes the earlier discards back, shuffled.
7. *Second round* (POKER-10): the opener speaks first; ``CHECK`` (parola), ``BET``,
   then as in the first round. Then the showdown: the best hand wins each pot, side
   pots first capped by the all-in levels (POKER-7).
8. *Match* (POKER-11): ``hands = 20`` played pots, or until one seat has chips.

Turn timeouts take the course that risks no more chips **[decision]**: no blind
opening, a check when free, otherwise a fold, and no change of cards.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

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
from tavolo.cardgames.errors import InvalidOptions, RuleError
from tavolo.cardgames.games import french_deck
from tavolo.cardgames.games.betting import poker_betting, poker_hands, poker_legal
from tavolo.cardgames.games.betting.poker_legal import CHECK, FOLD, STAND_PAT
from tavolo.cardgames.games.betting.poker_state import (
    BLIND,
    CHANGE,
    FIRST,
    JACKS,
    OVER,
    SECOND,
    PokerState,
    blank,
    deal,
    next_minimum,
)
from tavolo.cardgames.rng import SeededRandom


def _whole(low: int, high: int) -> Callable[[JSON], str | None]:
    def check(value: JSON) -> str | None:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            return f"must be a whole number from {low} to {high}"
        return None

    return check


class Poker(Game[PokerState]):
    """Poker all'italiana for 2 to 6 players, in table chips."""

    name = "poker"
    title = "Poker all'italiana"
    min_players = 2
    max_players = 6
    option_specs = (
        OptionSpec("players", 4, "seats at the table", (4, 2, 3, 5, 6)),
        OptionSpec("ante", 1, "what everyone antes each deal", check=_whole(1, 10)),
        OptionSpec("blind", True, "the buiante may open blind while jacks open", (True, False)),
        OptionSpec("min_bet", 2, "the smallest bet and raise", check=_whole(1, 20)),
        OptionSpec("hands", 20, "pots played in the match", check=_whole(1, 100)),
        OptionSpec(
            "starting_stack", 100, "table chips each seat starts with", check=_whole(10, 10000)
        ),
    )

    def new_game(self, options: Mapping[str, JSON] | None, seats: int, seed: bytes) -> PokerState:
        """The seat count decides ``players``; an explicit ``players`` must agree with it."""
        given = dict(options or {})
        if "players" in given and given["players"] != seats:
            raise InvalidOptions(
                f"option 'players' is {given['players']!r} but {seats} seats",
                reason="OPTION_INVALID",
                metadata={"option": "players"},
            )
        if self.min_players <= seats <= self.max_players:
            given["players"] = seats
        return super().new_game(given, seats, seed)

    def _new_game(self, options: dict[str, JSON], seats: int, rng: SeededRandom) -> PokerState:
        rng = rng.copy()
        dealer = rng.randbelow(seats)
        return self._start_deal(blank(options, seats, rng), dealer, [])[0]

    # -- knock-out play (RULES §0 rule 14, PCG-7) -------------------------------------

    offers_knock_out = True

    def tie_break_hand(self, state: PokerState) -> tuple[PokerState, list[Event]]:
        """One more pot dealt on from the drawn match, scored alone: the seats level on
        the most chips start it with the starting stack again, the others sit it out, and
        the chips it ends with rank that pot only (equal chips is the draw)."""
        stack = int(state.options["starting_stack"])
        most = max(c for s, c in enumerate(state.chips) if state.in_match[s])
        tied = tuple(m and c == most for m, c in zip(state.in_match, state.chips, strict=True))
        fresh = replace(
            state,
            options={**state.options, "hands": state.hand_no + 1},
            hand_no=state.hand_no + 1,
            chips=tuple(stack if t else 0 for t in tied),
            in_match=tied,
            end_reason=None,
        )
        return self._start_deal(fresh, fresh.next_dealer(), [])

    def last_capture(self, state: PokerState) -> int | None:
        """Poker has neither captures nor tricks: the seat that acted last in the pot."""
        return state.turn if state.last_hand is not None else None

    # -- whose move, and which ------------------------------------------------------

    def seats(self, state: PokerState) -> int:
        return state.seats

    def to_act(self, state: PokerState) -> frozenset[int]:
        return frozenset() if state.phase == OVER else frozenset((state.turn,))

    def timers(self, state: PokerState) -> tuple[Timer, ...]:
        if state.phase == OVER:
            return ()
        key = f"turn:d{state.deal_no}:{state.phase}:a{state.step}:s{state.turn}"
        return (Timer(key=key, seat=state.turn, kind="turn"),)

    def _legal_actions(self, state: PokerState, seat: int) -> list[Action]:
        return poker_legal.legal_actions(state, seat)

    def _is_legal(self, state: PokerState, seat: int, action: Action) -> bool:
        return poker_legal.is_legal(state, seat, action)

    def _explain(self, state: PokerState, seat: int, action: Action) -> RuleError:
        return poker_legal.explain(state, seat, action)

    # -- applying an action ---------------------------------------------------------

    def _apply(
        self, state: PokerState, seat: int, action: Action
    ) -> tuple[PokerState, list[Event]]:
        state = replace(state, step=state.step + 1)
        if action.kind is ActionKind.EXPIRE:
            return self._play_expiry(state, seat, action)
        if state.phase == BLIND:
            return self._blind(state, seat, action.kind is ActionKind.BET)
        if state.phase == CHANGE:
            return self._change(state, seat, action.cards)
        return self._betting(state, seat, action)

    def timeout_action(self, state: PokerState, seat: int) -> Action:
        if state.phase == CHANGE:
            return STAND_PAT
        if state.phase == BLIND or state.rnd.bet == 0:
            return CHECK
        return FOLD

    def _start_deal(
        self, state: PokerState, dealer: int, events: list[Event]
    ) -> tuple[PokerState, list[Event]]:
        state = deal(state, dealer)
        events.append(
            {
                "type": "hand_dealt",
                "hand": state.hand_no,
                "deal": state.deal_no,
                "dealer": dealer,
                "minimum": state.minimum,
                "antes": list(state.contributed),
                "pot": state.pot,
                "hands": [list(h) for h in state.hands],
            }
        )
        buiante = state.buiante()
        if state.options["blind"] and state.minimum == JACKS and state.chips[buiante] > 0:
            return replace(state, phase=BLIND, turn=buiante), events
        return self._first_round(state, events)

    def _blind(self, state: PokerState, seat: int, opens: bool) -> tuple[PokerState, list[Event]]:
        events: list[Event] = [{"type": "blind", "seat": seat, "opens": opens}]
        if opens:
            amount = min(int(state.options["min_bet"]), state.chips[seat])
            state = self._put(state, seat, amount)
            order = state.clockwise(seat)
            rnd = poker_betting.after_bet(state.rnd, seat, amount, state.can_act, order)
            state = replace(state, rnd=rnd, opener=seat, blind=True, phase=FIRST)
            events.append({"type": "bet", "seat": seat, "amount": amount, "blind": True})
            return self._next_speaker(state, events)
        return self._first_round(state, events)

    def _first_round(
        self, state: PokerState, events: list[Event]
    ) -> tuple[PokerState, list[Event]]:
        speakers = [s for s in state.clockwise(state.buiante()) if state.can_act(s)]
        rnd = poker_betting.open_round(state.seats, speakers)
        return self._next_speaker(replace(state, phase=FIRST, rnd=rnd), events)

    def _put(self, state: PokerState, seat: int, amount: int) -> PokerState:
        chips, contributed = list(state.chips), list(state.contributed)
        chips[seat] -= amount
        contributed[seat] += amount
        return replace(state, chips=tuple(chips), contributed=tuple(contributed))

    def _betting(
        self, state: PokerState, seat: int, action: Action
    ) -> tuple[PokerState, list[Event]]:
        rnd = state.rnd
        kind = action.kind
        event: Event = {"type": kind.value, "seat": seat}
        if kind is ActionKind.FOLD:
            folded = list(state.folded)
            folded[seat] = True
            hands = list(state.hands)
            discards = (*state.discards, *hands[seat])  # face down, never shown
            hands[seat] = ()
            state = replace(state, folded=tuple(folded), hands=tuple(hands), discards=discards)
            rnd = poker_betting.spoke(rnd, seat)
        elif kind is ActionKind.CHECK:
            rnd = poker_betting.spoke(rnd, seat)
        elif kind is ActionKind.CALL_BET:
            paid = min(poker_betting.to_call(rnd, seat), state.chips[seat])
            state = self._put(state, seat, paid)
            rnd = poker_betting.spoke(poker_betting.put_in(rnd, seat, paid), seat)
            event["amount"] = paid
        else:
            amount = int(action.amount or 0)
            paid = amount + (poker_betting.to_call(rnd, seat) if kind is ActionKind.RAISE else 0)
            state = self._put(state, seat, paid)
            rnd = poker_betting.after_bet(rnd, seat, paid, state.can_act, state.clockwise(seat))
            event["amount"] = amount
            if state.opener is None:
                state = replace(state, opener=seat)
        event["all_in"] = state.chips[seat] == 0 and not state.folded[seat]
        return self._next_speaker(replace(state, rnd=rnd), [event])

    def _next_speaker(
        self, state: PokerState, events: list[Event]
    ) -> tuple[PokerState, list[Event]]:
        live = state.live()
        if len(live) == 1 and state.opener is not None:
            return self._uncontested(state, live[0], events)
        if state.rnd.to_speak:
            return replace(state, turn=state.rnd.to_speak[0]), events
        if state.phase == SECOND:
            return self._showdown(state, events)
        nobody_can_act = not any(state.can_act(s) for s in live)
        if state.opener is None and not (nobody_can_act and len(live) > 1):
            return self._no_opening(state, events)
        order = tuple(s for s in state.clockwise(state.dealer - 1) if not state.folded[s])
        events.append({"type": "change_started", "opener": state.opener})
        return replace(state, phase=CHANGE, to_change=order, turn=order[0]), events

    def _no_opening(self, state: PokerState, events: list[Event]) -> tuple[PokerState, list[Event]]:
        """POKER-8: the pot stays, everyone antes again, a redeal; the minimum rises."""
        minimum = next_minimum(state.minimum)
        events.append({"type": "no_opening", "pot": state.pot, "minimum": minimum})
        summary: dict[str, JSON] = {"deal": state.deal_no, "no_opening": True, "pot": state.pot}
        state = replace(state, minimum=minimum, last_hand=summary)
        return self._start_deal(state, state.next_dealer(), events)

    def _change(
        self, state: PokerState, seat: int, cards: tuple[str, ...]
    ) -> tuple[PokerState, list[Event]]:
        stock, discards = state.stock, state.discards
        drawn: tuple[str, ...] = ()
        if len(stock) < len(cards):
            rng = state.rng.copy()
            earlier = list(discards)
            rng.shuffle(earlier)
            stock, discards = (*stock, *earlier), ()
            state = replace(state, rng=rng)
        drawn, stock = stock[: len(cards)], stock[len(cards) :]
        hands = list(state.hands)
        hands[seat] = french_deck.sort_hand([*(c for c in hands[seat] if c not in cards), *drawn])
        changed = list(state.changed)
        changed[seat] = len(cards)
        state = replace(
            state,
            hands=tuple(hands),
            stock=stock,
            discards=(*discards, *cards),
            changed=tuple(changed),
            to_change=state.to_change[1:],
        )
        events: list[Event] = [
            {"type": "changed", "seat": seat, "discarded": list(cards), "drawn": list(drawn)}
        ]
        if state.to_change:
            return replace(state, turn=state.to_change[0]), events
        first = state.opener if state.opener is not None else state.buiante()
        speakers = [s for s in state.clockwise(first) if state.can_act(s)]
        if len(speakers) < 2:  # nobody left to bet against: straight to the showdown
            speakers = []
        rnd = poker_betting.open_round(state.seats, speakers)
        events.append({"type": "second_round", "first": speakers[0] if speakers else None})
        return self._next_speaker(replace(state, phase=SECOND, rnd=rnd), events)

    def _uncontested(
        self, state: PokerState, winner: int, events: list[Event]
    ) -> tuple[PokerState, list[Event]]:
        """POKER-7: a single player left takes the pot, unshown."""
        pot = state.pot
        events.append({"type": "pot_won", "seat": winner, "chips": pot, "shown": False})
        chips = list(state.chips)
        chips[winner] += pot
        won = [0] * state.seats
        won[winner] = pot
        summary: dict[str, JSON] = {
            "hand": state.hand_no,
            "pot": pot,
            "uncontested": winner,
            "won": won,
        }
        return self._after_hand(replace(state, chips=tuple(chips)), summary, events)

    def _showdown(self, state: PokerState, events: list[Event]) -> tuple[PokerState, list[Event]]:
        """POKER-10: the best hand wins each pot, side pots capped by the all-in levels."""
        keys = {s: poker_hands.hand_key(state.hands[s], state.low) for s in state.live()}
        pots = poker_betting.side_pots(state.contributed, state.folded, state.carried)
        chips = list(state.chips)
        won = [0] * state.seats
        paid: list[JSON] = []
        for pot in pots:
            winner = max(pot.eligible, key=keys.__getitem__)
            chips[winner] += pot.chips
            won[winner] += pot.chips
            paid.append({"chips": pot.chips, "eligible": list(pot.eligible), "winner": winner})
        shown = {str(s): poker_hands.describe(state.hands[s], state.low) for s in keys}
        cards: dict[str, JSON] = {str(s): list(state.hands[s]) for s in keys}
        events.append({"type": "showdown", "hands": dict(cards), "pots": paid})
        summary: dict[str, JSON] = {
            "hand": state.hand_no,
            "pot": state.pot,
            "shown": shown,
            "cards": cards,
            "pots": paid,
            "won": won,
        }
        return self._after_hand(replace(state, chips=tuple(chips)), summary, events)

    def _after_hand(
        self, state: PokerState, summary: dict[str, JSON], events: list[Event]
    ) -> tuple[PokerState, list[Event]]:
        """A pot was played: the minimum returns to jacks, the broke leave, the deal passes."""
        in_match = list(state.in_match)
        broke_at = list(state.broke_at)
        for s in range(state.seats):
            if in_match[s] and state.chips[s] == 0:
                in_match[s] = False
                broke_at[s] = state.hand_no
                events.append({"type": "broke", "seat": s, "hand": state.hand_no})
        state = replace(
            state,
            carried=0,
            contributed=(0,) * state.seats,
            in_match=tuple(in_match),
            broke_at=tuple(broke_at),
            minimum=JACKS,
            last_hand=summary,
        )
        if sum(in_match) <= 1 or state.hand_no >= int(state.options["hands"]):
            reason = "hands" if sum(in_match) > 1 else "no_chips"
            state = replace(state, phase=OVER, end_reason=reason)
            outcome = self.outcome(state)
            assert outcome is not None
            events.append({"type": "game_over", "reason": reason, "places": list(outcome.places)})
            return state, events
        state = replace(state, hand_no=state.hand_no + 1)
        return self._start_deal(state, state.next_dealer(), events)

    # -- what is seen ---------------------------------------------------------------

    def view(self, state: PokerState, seat: int | None) -> View:
        rnd = state.rnd
        betting = state.phase in (FIRST, SECOND)
        public: dict[str, JSON] = {
            "phase": state.phase,
            "hand_no": state.hand_no,
            "hands": state.options["hands"],
            "deal_no": state.deal_no,
            "dealer": state.dealer,
            "buiante": state.buiante() if state.phase != OVER else None,
            "turn": None if state.phase == OVER else state.turn,
            "lowest_rank": state.low,
            "minimum": state.minimum,
            "chips": list(state.chips),
            "pot": state.pot,
            "carried": state.carried,
            "contributed": list(state.contributed),
            "bet": rnd.bet if betting else 0,
            "round_bets": list(rnd.put) if betting else [0] * state.seats,
            "to_call": max(0, rnd.bet - rnd.put[state.turn]) if betting else 0,
            "folded": list(state.folded),
            "in_match": list(state.in_match),
            "all_in": [not state.folded[s] and state.chips[s] == 0 for s in range(state.seats)],
            "opener": state.opener,
            "blind": state.blind,
            "changed": list(state.changed),
            "stock_size": len(state.stock),
            "hand_sizes": [0 if state.phase == BLIND else len(h) for h in state.hands],
            "sides": [[s] for s in range(state.seats)],
            "last_hand": None if state.last_hand is None else dict(state.last_hand),
        }
        sees = seat is not None and state.phase not in (BLIND, OVER) and bool(state.hands[seat])
        hand = state.hands[seat] if sees and seat is not None else ()
        private: dict[str, JSON] = {}
        if hand:
            private["hand_name"] = poker_hands.describe(hand, state.low)
            private["may_open"] = poker_hands.opens(hand, state.low, state.minimum)
        return View(seat=seat, hand=hand, public=public, private=private)

    def outcome(self, state: PokerState) -> Outcome | None:
        """POKER-11: seats with chips rank by chips; the broke after them, later first."""
        if state.phase != OVER:
            return None
        stack = int(state.options["starting_stack"])
        measure = [
            c if state.in_match[s] else state.broke_at[s] - 1_000_000
            for s, c in enumerate(state.chips)
        ]
        return Outcome(
            places=places_from_measure(measure, lower_is_better=False),
            scores=state.chips,
            detail={
                "reason": state.end_reason,
                "chips": list(state.chips),
                "chips_won": [c - stack for c in state.chips],
                "pot_left": state.pot,
                "hands": state.hand_no,
            },
        )

    def cards_in_play(self, state: PokerState) -> list[str]:
        return [*(c for h in state.hands for c in h), *state.stock, *state.discards]

    def public_record(self, state: PokerState) -> list[str]:
        """The hands shown at the last showdown (POKER-10): public in ``last_hand`` from
        then on, though their cards are dealt again at once. Folded hands are never
        shown, and an uncontested pot shows none."""
        if state.last_hand is None:
            return []
        shown: Any = state.last_hand.get("cards", {})
        return [c for held in shown.values() for c in held]

    def hidden_cards(self, state: PokerState, seat: int | None) -> list[str]:
        own = seat is not None and state.phase not in (BLIND, OVER)
        held = [c for s, h in enumerate(state.hands) if not (own and s == seat) for c in h]
        return held + list(state.stock) + list(state.discards)
