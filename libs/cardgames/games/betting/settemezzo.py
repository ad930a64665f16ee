"""Sette e mezzo (RULES §15, SETTEMEZZO-1…9): 2 to 8 players bet table chips against a
banker on reaching 7½ without going over.

Play is anticlockwise: the turn passes from seat s to s+1 (RULES §0 rule 2). Cards are
worth A-7 at face value and ½ for F, C and R; the matta (Re di denari) counts what suits
the hand best (:mod:`~tavolo.cardgames.games.betting.settemezzo_hands`). Each hand:

1. *The bank* (SETTEMEZZO-1): the first banker is the generator's first draw; after each
   hand the bank passes to the next seat with chips, unless a punter won with a
   *sette e mezzo reale*: then the first such punter in turn order takes it.
2. *Shuffle* (SETTEMEZZO-2): all 40 cards, every hand.
3. *Deal* (SETTEMEZZO-3): one face-down card to each punter from the banker's right, then
   one to the banker. Seats with no chips are out of the match and get nothing.
4. *Bets* (SETTEMEZZO-4): each punter in turn ``BET``\\s ``min_bet`` to ``max_bet``, never
   more than it holds nor more than ⌊(banker's chips - 2 x bets already placed) ÷ 2⌋, so
   the bank can always pay; a punter whose limit is below the minimum sits the hand out.
   With ``fixed_bet`` every punter bets that amount without being asked, or sits out.
5. *Punters play* (SETTEMEZZO-5): each in turn ``HIT``\\s (a face-up card) or ``STAND``\\s;
   one who goes over 7½ shows its hand and pays its bet at once. An empty stock leaves
   only ``STAND``.
6. *The banker* (SETTEMEZZO-6) turns its card up and draws or stands freely, unless no
   punter is left standing; if it busts, every punter still standing wins.
7. *Comparing* (SETTEMEZZO-7): the higher total wins; equal totals go to the banker.
8. *Payouts* (SETTEMEZZO-8): 1:1; a winning reale (two cards making 7½) is paid double
   and takes the bank; a banker's reale collects 1:1.
9. *End* (SETTEMEZZO-9): after ``hands`` hands (2 x players unless set), or when only
   one seat has chips. Seats rank by chips, equal chips sharing a place.

Turn timeouts take the least harmful course **[decision]**: the smallest bet allowed, and
standing rather than drawing a card on a player's behalf.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

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
from tavolo.cardgames.errors import GameOver, InvalidOptions, NotYourTurn, RuleError
from tavolo.cardgames.games.betting.settemezzo_hands import busted, is_reale, settle, total
from tavolo.cardgames.games.betting.settemezzo_state import (
    BANKER,
    BETTING,
    OVER,
    PUNTERS,
    SetteMezzoState,
    deal,
)
from tavolo.cardgames.games.chips import pay
from tavolo.cardgames.rng import SeededRandom

HITS, STANDS = Action(ActionKind.HIT), Action(ActionKind.STAND)


_BETS = tuple(Action(ActionKind.BET, amount=a) for a in range(1001))
"""Every bet the options allow, built once: listing the legal bets is hot in self-play."""


def bets(amount: int) -> Action:
    return _BETS[amount] if 0 <= amount < len(_BETS) else Action(ActionKind.BET, amount=amount)


def _whole(low: int, high: int) -> Callable[[JSON], str | None]:
    def check(value: JSON) -> str | None:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            return f"must be a whole number from {low} to {high}"
        return None

    return check


def _fixed_bet(value: JSON) -> str | None:
    if value == "none":
        return None
    problem = _whole(1, 1000)(value)
    return None if problem is None else "must be 'none' or a whole number from 1 to 1000"


class SetteMezzo(Game[SetteMezzoState]):
    """Sette e mezzo for 2 to 8 players, in table chips."""

    name = "settemezzo"
    title = "Sette e mezzo"
    min_players = 2
    max_players = 8
    option_specs = (
        OptionSpec("players", 4, "seats at the table", (4, 2, 3, 5, 6, 7, 8)),
        OptionSpec("hands", 8, "hands in the match (2 x players unless set)", check=_whole(1, 100)),
        OptionSpec("min_bet", 1, "the smallest bet", check=_whole(1, 1000)),
        OptionSpec("max_bet", 10, "the largest bet", check=_whole(1, 1000)),
        OptionSpec(
            "fixed_bet",
            "none",
            "an amount every punter bets ('none': each chooses)",
            check=_fixed_bet,
        ),
        OptionSpec(
            "starting_stack", 100, "table chips each seat starts with", check=_whole(10, 10000)
        ),
    )

    def options(self, given: Mapping[str, JSON] | None = None) -> dict[str, JSON]:
        """``hands = 2 x players`` unless given (SETTEMEZZO-9), wherever the options are
        filled in: at a new game and at the lobby's tables alike."""
        given = dict(given or {})
        players = given.get("players", 4)
        if "hands" not in given and isinstance(players, int) and not isinstance(players, bool):
            given["hands"] = 2 * players
        return super().options(given)

    def new_game(
        self, options: Mapping[str, JSON] | None, seats: int, seed: bytes
    ) -> SetteMezzoState:
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

    def _new_game(self, options: dict[str, JSON], seats: int, rng: SeededRandom) -> SetteMezzoState:
        if int(options["min_bet"]) > int(options["max_bet"]):
            raise InvalidOptions(
                f"option 'max_bet' must be at least min_bet ({options['min_bet']}), "
                f"not {options['max_bet']!r}",
                reason="OPTION_INVALID",
                metadata={"option": "max_bet"},
            )
        rng = rng.copy()
        banker = rng.randbelow(seats)
        blank = SetteMezzoState(
            options=options,
            rng=rng,
            seats=seats,
            hand_no=0,
            banker=banker,
            phase=OVER,
            hands=(),
            revealed=(),
            stock=(),
            chips=(int(options["starting_stack"]),) * seats,
            bets=(),
            sitting_out=(),
            queue=(),
            last_hand=None,
            end_reason=None,
        )
        state, _ = self._start_hand(blank, 1, banker, [])
        return state

    # -- knock-out play (RULES §0 rule 14, PCG-7) -------------------------------------

    offers_knock_out = True

    def tie_break_hand(self, state: SetteMezzoState) -> tuple[SetteMezzoState, list[Event]]:
        """One more hand dealt on from the drawn match, scored alone: the seats level on
        the most chips start it with the starting stack again, the others sit it out with
        none, and the chips it ends with rank that hand only."""
        stack = int(state.options["starting_stack"])
        most = max(state.chips)
        fresh = replace(
            state,
            options={**state.options, "hands": state.hand_no + 1},
            chips=tuple(stack if c == most else 0 for c in state.chips),
            end_reason=None,
        )
        return self._start_hand(fresh, state.hand_no + 1, self._next_banker(fresh), [])

    def last_capture(self, state: SetteMezzoState) -> int | None:
        """Sette e mezzo has neither captures nor tricks: the seat that played last, the
        banker if it played its hand, else the last punter who bet."""
        if state.last_hand is None:
            return None
        if state.last_hand.get("banker_total") is not None:
            return state.banker
        bettors = [s for s in state.order() if state.bets[s]]
        return bettors[-1] if bettors else None

    # -- whose move, and which ------------------------------------------------------

    def seats(self, state: SetteMezzoState) -> int:
        return state.seats

    def to_act(self, state: SetteMezzoState) -> frozenset[int]:
        turn = state.turn
        return frozenset() if turn is None else frozenset((turn,))

    def timers(self, state: SetteMezzoState) -> tuple[Timer, ...]:
        turn = state.turn
        if turn is None:
            return ()
        key = f"turn:h{state.hand_no}:{state.phase}:s{turn}:c{len(state.hands[turn])}"
        return (Timer(key=key, seat=turn, kind="turn"),)

    def _legal_actions(self, state: SetteMezzoState, seat: int) -> list[Action]:
        if seat != state.turn:
            return []
        if state.phase == BETTING:
            limits = state.bet_limits(seat)
            assert limits is not None  # seats that cannot bet are sat out before their turn
            return [bets(a) for a in range(limits[0], limits[1] + 1)]
        return [HITS, STANDS] if state.stock else [STANDS]

    def _explain(self, state: SetteMezzoState, seat: int, action: Action) -> RuleError:
        if state.phase == OVER:
            return GameOver("the game is over")
        if seat != state.turn:
            return NotYourTurn(f"it is not your turn: seat {state.turn} is to act")
        if state.phase == BETTING:
            limits = state.bet_limits(seat)
            assert limits is not None
            return RuleError(
                f"bet from {limits[0]} to {limits[1]} chips; the bank must be able to pay "
                "every bet double",
                reason="AMOUNT_OUT_OF_RANGE",
            )
        if action == HITS:
            return RuleError("the stock is empty: you can only stand", reason="STOCK_EMPTY")
        return RuleError("draw a card (hit) or stand", reason="ACTION_NOT_ALLOWED")

    # -- applying an action ---------------------------------------------------------

    def _apply(
        self, state: SetteMezzoState, seat: int, action: Action
    ) -> tuple[SetteMezzoState, list[Event]]:
        if action.kind is ActionKind.EXPIRE:
            return self._play_expiry(state, seat, action)
        if state.phase == BETTING:
            assert action.amount is not None
            return self._bet(state, seat, action.amount)
        if action == HITS:
            return self._hit(state, seat)
        stood: list[Event] = [{"type": "stood", "seat": seat}]
        if state.phase == BANKER:
            return self._settle(state, stood)
        return self._next_punter(replace(state, queue=state.queue[1:]), stood)

    def timeout_action(self, state: SetteMezzoState, seat: int) -> Action:
        if state.phase == BETTING:
            limits = state.bet_limits(seat)
            assert limits is not None
            return bets(limits[0])
        return STANDS

    def _start_hand(
        self, state: SetteMezzoState, hand_no: int, banker: int, events: list[Event]
    ) -> tuple[SetteMezzoState, list[Event]]:
        state = deal(state, hand_no, banker)
        events.append(
            {
                "type": "hand_dealt",
                "hand": hand_no,
                "banker": banker,
                "hands": [list(h) for h in state.hands],
            }
        )
        return self._next_bettor(state, events)

    def _next_bettor(
        self, state: SetteMezzoState, events: list[Event]
    ) -> tuple[SetteMezzoState, list[Event]]:
        """Sit out the punters who cannot bet and place fixed bets, until a punter must
        choose a bet or everyone has bet."""
        while state.queue:
            seat = state.queue[0]
            limits = state.bet_limits(seat)
            if limits is None:
                sitting = list(state.sitting_out)
                sitting[seat] = True
                state = replace(state, sitting_out=tuple(sitting), queue=state.queue[1:])
                events.append({"type": "sits_out", "seat": seat})
            elif state.options["fixed_bet"] != "none":
                state = self._place(state, seat, limits[0], events)
            else:
                return state, events
        playing = state.playing()
        if not playing:
            summary: dict[str, JSON] = {
                "hand": state.hand_no,
                "banker": state.banker,
                "no_bets": True,
            }
            events.append({"type": "hand_settled", **summary})
            return self._after_hand(state, summary, self._next_banker(state), events)
        state = replace(state, phase=PUNTERS, queue=playing)
        return state, events

    def _place(
        self, state: SetteMezzoState, seat: int, amount: int, events: list[Event]
    ) -> SetteMezzoState:
        placed = list(state.bets)
        placed[seat] = amount
        events.append({"type": "bet", "seat": seat, "amount": amount})
        return replace(state, bets=tuple(placed), queue=state.queue[1:])

    def _bet(
        self, state: SetteMezzoState, seat: int, amount: int
    ) -> tuple[SetteMezzoState, list[Event]]:
        events: list[Event] = []
        return self._next_bettor(self._place(state, seat, amount, events), events)

    def _hit(self, state: SetteMezzoState, seat: int) -> tuple[SetteMezzoState, list[Event]]:
        card = state.stock[0]
        hands = list(state.hands)
        hands[seat] = (*hands[seat], card)
        state = replace(state, hands=tuple(hands), stock=state.stock[1:])
        events: list[Event] = [{"type": "card_drawn", "seat": seat, "card": card}]
        if not busted(hands[seat]):
            return state, events
        shown = list(state.revealed)
        shown[seat] = True
        state = replace(state, revealed=tuple(shown))
        events.append({"type": "busted", "seat": seat, "cards": list(hands[seat])})
        if state.phase == BANKER:
            return self._settle(state, events)
        chips = list(state.chips)
        lost = pay(chips[seat], state.bets[seat] or 0)
        chips[seat] -= lost
        chips[state.banker] += lost
        events.append({"type": "bet_lost", "seat": seat, "chips": lost})
        state = replace(state, chips=tuple(chips), queue=state.queue[1:])
        return self._next_punter(state, events)

    def _next_punter(
        self, state: SetteMezzoState, events: list[Event]
    ) -> tuple[SetteMezzoState, list[Event]]:
        """The next punter plays; after the last, the banker turns its card up and
        plays if anyone is still standing (SETTEMEZZO-6)."""
        if state.queue:
            return state, events
        if not any(not busted(state.hands[s]) for s in state.playing()):
            return self._settle(state, events)
        shown = list(state.revealed)
        shown[state.banker] = True
        events.append(
            {"type": "banker_shows", "seat": state.banker, "card": state.hands[state.banker][0]}
        )
        state = replace(state, phase=BANKER, revealed=tuple(shown), queue=(state.banker,))
        return state, events

    def _settle(
        self, state: SetteMezzoState, events: list[Event]
    ) -> tuple[SetteMezzoState, list[Event]]:
        """Pay the punters still standing against the banker (SETTEMEZZO-6…8)."""
        banker = state.banker
        bank_hand = state.hands[banker]
        banker_played = state.phase == BANKER
        chips = list(state.chips)
        punters: list[JSON] = []
        takes_bank: int | None = None
        for seat in state.order():
            if seat == banker or not state.hands[seat]:
                continue
            bet = state.bets[seat]
            hand = state.hands[seat]
            line: dict[str, JSON] = {"seat": seat, "bet": bet}
            if bet:
                result = settle(hand, bank_hand, bet)
                if not busted(hand):  # a bust was paid when it happened
                    if result.punter_gain > 0:
                        moved = pay(chips[banker], result.punter_gain)
                        chips[banker] -= moved
                        chips[seat] += moved
                    else:
                        moved = -pay(chips[seat], -result.punter_gain)
                        chips[seat] += moved
                        chips[banker] -= moved
                    line["gain"] = moved
                else:
                    line["gain"] = result.punter_gain
                line.update(total=total(hand), busted=busted(hand), reale=is_reale(hand))
                if result.takes_bank and takes_bank is None:
                    takes_bank = seat
            punters.append(line)
        summary: dict[str, JSON] = {
            "hand": state.hand_no,
            "banker": banker,
            "banker_total": total(bank_hand) if banker_played else None,
            "banker_busted": banker_played and busted(bank_hand),
            "banker_reale": banker_played and is_reale(bank_hand),
            "punters": punters,
            "bank_taken_by": takes_bank,
        }
        events.append({"type": "hand_settled", **summary, "chips": chips})
        state = replace(state, chips=tuple(chips))
        following = takes_bank if takes_bank is not None else self._next_banker(state)
        return self._after_hand(state, summary, following, events)

    def _next_banker(self, state: SetteMezzoState) -> int:
        """The bank passes to the next seat with chips (SETTEMEZZO-1)."""
        for seat in state.order():
            if state.chips[seat] > 0:
                return seat
        return state.banker

    def _after_hand(
        self,
        state: SetteMezzoState,
        summary: dict[str, JSON],
        banker: int,
        events: list[Event],
    ) -> tuple[SetteMezzoState, list[Event]]:
        state = replace(state, last_hand=summary, queue=())
        alone = sum(1 for c in state.chips if c > 0) <= 1
        if alone or state.hand_no >= int(state.options["hands"]):
            reason = "one_seat_left" if alone else "hands"
            state = replace(state, phase=OVER, end_reason=reason)
            outcome = self.outcome(state)
            assert outcome is not None
            events.append({"type": "game_over", "reason": reason, "places": list(outcome.places)})
            return state, events
        return self._start_hand(state, state.hand_no + 1, banker, events)

    # -- what is seen ---------------------------------------------------------------

    def face_up(self, state: SetteMezzoState, seat: int) -> tuple[str | None, ...]:
        """The seat's cards as the table sees them: ``None`` for the face-down one."""
        return tuple(
            None if i == 0 and not state.revealed[seat] else c
            for i, c in enumerate(state.hands[seat])
        )

    def view(self, state: SetteMezzoState, seat: int | None) -> View:
        """Totals are in half points (7½ is 15)."""
        shown = [self.face_up(state, s) for s in range(state.seats)]
        public: dict[str, JSON] = {
            "phase": state.phase,
            "hand_no": state.hand_no,
            "hands": state.options["hands"],
            "banker": state.banker,
            "turn": state.turn,
            "chips": list(state.chips),
            "bets": list(state.bets),
            "sitting_out": list(state.sitting_out),
            "cards": [list(cards) for cards in shown],
            "shown_totals": [total([c for c in cards if c]) for cards in shown],
            "busted": [bool(h) and busted(h) for h in state.hands],
            "stock_size": len(state.stock),
            "min_bet": state.options["min_bet"],
            "max_bet": state.options["max_bet"],
            "fixed_bet": state.options["fixed_bet"],
            "sides": [[s] for s in range(state.seats)],
            "last_hand": None if state.last_hand is None else dict(state.last_hand),
        }
        if seat is None:
            return View(seat=None, hand=(), public=public)
        hand = state.hands[seat]
        private: dict[str, JSON] = {"total": total(hand) if hand else 0}
        if state.phase == BETTING and seat == state.turn:
            private["bet_limits"] = list(state.bet_limits(seat) or ())
        return View(seat=seat, hand=hand, public=public, private=private)

    def outcome(self, state: SetteMezzoState) -> Outcome | None:
        if state.phase != OVER:
            return None
        stack = int(state.options["starting_stack"])
        return Outcome(
            places=places_from_measure(state.chips, lower_is_better=False),
            scores=state.chips,
            detail={
                "reason": state.end_reason,
                "chips": list(state.chips),
                "chips_won": [c - stack for c in state.chips],
                "hands": state.hand_no,
            },
        )

    def cards_in_play(self, state: SetteMezzoState) -> list[str]:
        return [*(c for h in state.hands for c in h), *state.stock]

    def hidden_cards(self, state: SetteMezzoState, seat: int | None) -> list[str]:
        down = [
            h[0] for s, h in enumerate(state.hands) if h and s != seat and not state.revealed[s]
        ]
        return down + list(state.stock)
