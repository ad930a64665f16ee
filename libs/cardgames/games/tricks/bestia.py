"""Bestia (RULES §7, BESTIA-1…8): 3 to 6 players, each for themselves, bet table chips on
taking tricks with a turned trump; a player who plays and takes none "goes bestia".

Play is anticlockwise: the turn passes from seat s to s+1 (RULES §0 rule 2). The first
dealer is the generator's first draw; the deal passes to the dealer's right. Each hand:

1. *Pot* (BESTIA-1): the dealer puts ``ante = 3`` into the pot, on top of what earlier
   hands left there; a seat short of chips puts all it has (RULES §0 rule 15).
2. *Deal* (BESTIA-2): 3 each from the dealer's right, then a card turned face up: its
   suit is trumps, and it is never drawn.
3. *Declaration* (BESTIA-3): from the dealer's right, each seat ``PLAY``\\s or ``PASS``\\es;
   a passed hand is set aside face down. Nobody playing voids the hand and the pot stays;
   a lone player takes the whole pot unplayed **[decision]**.
4. *Al buio* (BESTIA-4): then each active player in turn may ``DRAW``: its hand is set
   aside unseen and it takes the next 3 stock cards; or ``KEEP`` its hand.
5. *Play* (BESTIA-5): the first active player from the dealer's right leads; follow suit
   if able, otherwise any card, nobody obliged to trump or overtake; the highest trump
   wins, else the highest card of the suit led (order A 3 R C F 7 6 5 4 2).
6. *Payout* (BESTIA-6): each trick wins ⌊pot ÷ 3⌋; the remainder stays in the pot.
7. *Bestia* (BESTIA-7): an active player with no trick pays this hand's pot into the
   next pot (or all it has).
8. *End* (BESTIA-8): after ``hands = 10``, or a hand that leaves a seat with no chips.
   Seats rank by chips; chips left in the pot belong to nobody.

Turn timeouts take the safest course **[decision]**: pass at the declaration (no bestia
to risk), keep the hand rather than go al buio, and play the card worth least, a
non-trump first, then the weakest.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

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
from tavolo.cardgames.games import italian_cards
from tavolo.cardgames.games.chips import pay
from tavolo.cardgames.games.tricks import core as tricks
from tavolo.cardgames.games.tricks.bestia_state import (
    BUIO,
    DECLARE,
    HAND_SIZE,
    OVER,
    PLAY,
    TRICKS,
    BestiaState,
    deal,
    next_active,
    trick_share,
)
from tavolo.cardgames.games.tricks.briscola import least_harmful
from tavolo.cardgames.games.tricks.briscola_state import ORDER
from tavolo.cardgames.games.tricks.core import following_cards, trick_winner
from tavolo.cardgames.rng import SeededRandom

_PLAYS = {c: Action(ActionKind.PLAY, cards=(c,)) for c in italian_cards.DECK}
PLAYS, PASSES = Action(ActionKind.PLAY), Action(ActionKind.PASS)
GOES_BLIND, KEEPS = Action(ActionKind.DRAW), Action(ActionKind.KEEP)


def _whole(low: int, high: int, step: int = 1) -> Callable[[JSON], str | None]:
    def check(value: JSON) -> str | None:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            return f"must be a whole number from {low} to {high}"
        if value % step:
            return f"must be a multiple of {step}"
        return None

    return check


class Bestia(Game[BestiaState]):
    """Bestia for 3 to 6 players, in table chips."""

    name = "bestia"
    title = "Bestia"
    min_players = 3
    max_players = 6
    option_specs = (
        OptionSpec("players", 4, "seats at the table", (4, 3, 5, 6)),
        OptionSpec("ante", 3, "the dealer's stake, a multiple of 3", check=_whole(3, 30, 3)),
        OptionSpec("hands", 10, "hands in the match", check=_whole(1, 50)),
        OptionSpec(
            "starting_stack", 100, "table chips each seat starts with", check=_whole(10, 10000)
        ),
    )

    def new_game(self, options: Mapping[str, JSON] | None, seats: int, seed: bytes) -> BestiaState:
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

    def _new_game(self, options: dict[str, JSON], seats: int, rng: SeededRandom) -> BestiaState:
        rng = rng.copy()
        dealer = rng.randbelow(seats)
        blank = BestiaState(
            options=options,
            rng=rng,
            seats=seats,
            hand_no=0,
            dealer=dealer,
            phase=OVER,
            hands=(),
            stock=(),
            turned="",
            set_aside=(),
            chips=(int(options["starting_stack"]),) * seats,
            pot=0,
            declared=(),
            buio=(),
            to_decide=(),
            turn=0,
            trick=(),
            tricks_done=0,
            tricks_won=(),
            taken=(),
            last_trick=(),
            last_hand=None,
            end_reason=None,
        )
        return deal(blank, 1, dealer)

    # -- knock-out play (RULES §0 rule 14, PCG-7) -------------------------------------

    offers_knock_out = True

    def tie_break_hand(self, state: BestiaState) -> tuple[BestiaState, list[Event]]:
        """One more hand dealt on from the drawn match, scored alone: every seat starts it
        with the starting stack again and an empty pot, so its chips rank that hand only."""
        stack = int(state.options["starting_stack"])
        fresh = state.replace(
            options={**state.options, "hands": state.hand_no + 1},
            chips=(stack,) * state.seats,
            pot=0,
            end_reason=None,
        )
        dealer = (state.dealer + 1) % state.seats
        dealt = deal(fresh, state.hand_no + 1, dealer)
        event: Event = {
            "type": "hand_dealt",
            "hand": dealt.hand_no,
            "dealer": dealer,
            "turned": dealt.turned,
            "pot": dealt.pot,
            "hands": [list(h) for h in dealt.hands],
        }
        return dealt, [event]

    def last_capture(self, state: BestiaState) -> int | None:
        """The seat that took the last trick of the hand (none if nobody played it)."""
        return trick_winner(state.last_trick, ORDER, state.trumps) if state.last_trick else None

    # -- whose move, and which ------------------------------------------------------

    def seats(self, state: BestiaState) -> int:
        return state.seats

    def to_act(self, state: BestiaState) -> frozenset[int]:
        return frozenset() if state.phase == OVER else frozenset((state.turn,))

    def timers(self, state: BestiaState) -> tuple[Timer, ...]:
        if state.phase == OVER:
            return ()
        key = f"turn:h{state.hand_no}:{state.phase}:t{state.tricks_done + 1}:s{state.turn}"
        return (Timer(key=key, seat=state.turn, kind="turn"),)

    def _legal_actions(self, state: BestiaState, seat: int) -> list[Action]:
        if seat != state.turn or state.phase == OVER:
            return []
        if state.phase == DECLARE:
            return [PLAYS, PASSES]
        if state.phase == BUIO:
            return [GOES_BLIND, KEEPS] if len(state.stock) >= HAND_SIZE else [KEEPS]
        return [_PLAYS[c] for c in following_cards(state.hands[seat], state.trick, ORDER)]

    def _explain(self, state: BestiaState, seat: int, action: Action) -> RuleError:
        if state.phase == OVER:
            return GameOver("the game is over")
        if seat != state.turn:
            return NotYourTurn(f"it is not your turn: seat {state.turn} is to act")
        if state.phase == DECLARE:
            return RuleError(
                "declare first: play (to take tricks) or pass", reason="ACTION_NOT_ALLOWED"
            )
        if state.phase == BUIO:
            return RuleError(
                "go al buio (draw 3 unseen cards for your hand) or keep your hand",
                reason="ACTION_NOT_ALLOWED",
            )
        if action != Action(ActionKind.PLAY, cards=action.cards) or len(action.cards) != 1:
            return RuleError("play one card from your hand", reason="ONE_CARD_EXPECTED")
        card = action.cards[0]
        if not italian_cards.is_card(card):
            return RuleError(
                f"{card!r} is not a card; cards are written like AD, 3C, RB",
                reason="CARD_UNKNOWN",
                metadata={"card": card},
            )
        if card not in state.hands[seat]:
            return RuleError(
                f"you do not hold {card}", reason="CARD_NOT_HELD", metadata={"card": card}
            )
        return RuleError(
            f"you must follow suit ({italian_cards.SUIT_NAMES[state.trick[0][1][-1]]})",
            reason="MUST_FOLLOW_SUIT",
        )

    # -- applying an action ---------------------------------------------------------

    def _apply(
        self, state: BestiaState, seat: int, action: Action
    ) -> tuple[BestiaState, list[Event]]:
        if action.kind is ActionKind.EXPIRE:
            return self._play_expiry(state, seat, action)
        if state.phase == DECLARE:
            return self._declare(state, seat, action == PLAYS)
        if state.phase == BUIO:
            return self._al_buio(state, seat, action == GOES_BLIND)
        return self._play(state, seat, action.cards[0])

    def timeout_action(self, state: BestiaState, seat: int) -> Action:
        if state.phase == DECLARE:
            return PASSES
        if state.phase == BUIO:
            return KEEPS
        legal = following_cards(state.hands[seat], state.trick, ORDER)
        return _PLAYS[least_harmful(legal, state.trumps)]

    def _declare(
        self, state: BestiaState, seat: int, plays: bool
    ) -> tuple[BestiaState, list[Event]]:
        declared = list(state.declared)
        declared[seat] = plays
        hands, set_aside = list(state.hands), state.set_aside
        if not plays:
            set_aside = (*set_aside, *hands[seat])
            hands[seat] = ()
        to_decide = state.to_decide[1:]
        state = state.replace(
            declared=tuple(declared),
            hands=tuple(hands),
            set_aside=set_aside,
            to_decide=to_decide,
        )
        events: list[Event] = [{"type": "declared", "seat": seat, "plays": plays}]
        if to_decide:
            return state.replace(turn=to_decide[0]), events
        active = state.active()
        if not active:
            events.append({"type": "hand_void", "hand": state.hand_no, "pot": state.pot})
            return self._after_hand(state, {"hand": state.hand_no, "void": True}, events)
        if len(active) == 1:
            (alone,) = active
            chips = list(state.chips)
            chips[alone] += state.pot
            summary: dict[str, JSON] = {"hand": state.hand_no, "alone": alone, "won": state.pot}
            events.append({"type": "pot_taken", "seat": alone, "chips": state.pot})
            return self._after_hand(state.replace(chips=tuple(chips), pot=0), summary, events)
        return state.replace(phase=BUIO, to_decide=active, turn=active[0]), events

    def _al_buio(
        self, state: BestiaState, seat: int, blind: bool
    ) -> tuple[BestiaState, list[Event]]:
        events: list[Event] = [{"type": "al_buio", "seat": seat, "blind": blind}]
        if blind:
            hands, buio = list(state.hands), list(state.buio)
            drawn = state.stock[:HAND_SIZE]
            set_aside = (*state.set_aside, *hands[seat])
            hands[seat] = italian_cards.sort_hand(drawn, ORDER.strength)
            buio[seat] = True
            events.append({"type": "cards_drawn", "seat": seat, "cards": list(drawn)})
            state = state.replace(
                hands=tuple(hands),
                buio=tuple(buio),
                set_aside=set_aside,
                stock=state.stock[HAND_SIZE:],
            )
        to_decide = state.to_decide[1:]
        if to_decide:
            return state.replace(to_decide=to_decide, turn=to_decide[0]), events
        leader = state.active()[0]
        events.append({"type": "play_started", "leader": leader})
        return state.replace(phase=PLAY, to_decide=(), turn=leader), events

    def _play(self, state: BestiaState, seat: int, card: str) -> tuple[BestiaState, list[Event]]:
        st = state.copy()
        st.hands, st.trick, played = tricks.play_card(state.hands, state.trick, seat, card)
        events: list[Event] = [played]
        active = state.active()
        if len(st.trick) < len(active):
            st.turn = next_active(active, seat)
            return st, events
        trick, number = st.trick, state.tricks_done + 1
        winner, won = tricks.close_trick(trick, ORDER, state.trumps, number)
        won["chips"] = trick_share(state.pot)  # the pot is paid out only when the hand ends
        events.append(won)
        st.tricks_won = (
            *state.tricks_won[:winner],
            state.tricks_won[winner] + 1,
            *state.tricks_won[winner + 1 :],
        )
        st.taken = (*state.taken, *[c for _, c in trick])
        st.trick, st.tricks_done, st.last_trick, st.turn = (), number, trick, winner
        if number < TRICKS:
            return st, events
        return self._settle(st, events)

    def _settle(self, state: BestiaState, events: list[Event]) -> tuple[BestiaState, list[Event]]:
        """Pay each trick ⌊pot ÷ 3⌋ (BESTIA-6) and make the bestie pay (BESTIA-7)."""
        hand_pot = state.pot
        share = trick_share(hand_pot)
        chips = list(state.chips)
        for seat in range(state.seats):
            chips[seat] += state.tricks_won[seat] * share
        pot = hand_pot - TRICKS * share
        bestie: dict[str, JSON] = {}
        for seat in state.active():
            if state.tricks_won[seat] == 0:
                paid = pay(chips[seat], hand_pot)
                chips[seat] -= paid
                pot += paid
                bestie[str(seat)] = paid
                events.append({"type": "bestia", "seat": seat, "pays": paid})
        summary: dict[str, JSON] = {
            "hand": state.hand_no,
            "pot": hand_pot,
            "per_trick": share,
            "tricks": list(state.tricks_won),
            "bestia": bestie,
            "next_pot": pot,
        }
        events.append({"type": "hand_settled", **summary, "tricks": list(state.tricks_won)})
        return self._after_hand(state.replace(chips=tuple(chips), pot=pot), summary, events)

    def _after_hand(
        self, state: BestiaState, summary: dict[str, JSON], events: list[Event]
    ) -> tuple[BestiaState, list[Event]]:
        state = state.replace(last_hand=summary)
        broke = any(c == 0 for c in state.chips)
        if broke or state.hand_no >= int(state.options["hands"]):
            reason = "no_chips" if broke else "hands"
            state = state.replace(phase=OVER, end_reason=reason)
            outcome = self.outcome(state)
            assert outcome is not None
            events.append({"type": "game_over", "reason": reason, "places": list(outcome.places)})
            return state, events
        dealer = (state.dealer + 1) % state.seats
        state = deal(state, state.hand_no + 1, dealer)
        events.append(
            {
                "type": "hand_dealt",
                "hand": state.hand_no,
                "dealer": dealer,
                "turned": state.turned,
                "pot": state.pot,
                "hands": [list(h) for h in state.hands],
            }
        )
        return state, events

    # -- what is seen ---------------------------------------------------------------

    def view(self, state: BestiaState, seat: int | None) -> View:
        public: dict[str, JSON] = {
            "phase": state.phase,
            "hand_no": state.hand_no,
            "hands": state.options["hands"],
            "dealer": state.dealer,
            "turn": None if state.phase == OVER else state.turn,
            "turned": state.turned,
            "trumps": state.trumps,
            "stock_size": len(state.stock),
            "hand_sizes": [len(h) for h in state.hands],
            "chips": list(state.chips),
            "pot": state.pot,
            "declared": list(state.declared),
            "buio": list(state.buio),
            "sides": [[s] for s in range(state.seats)],
            "trick_number": state.tricks_done + 1,
            "trick": [{"seat": s, "card": c} for s, c in state.trick],
            "last_trick": None
            if not state.last_trick
            else {
                "number": state.tricks_done,
                "plays": [{"seat": s, "card": c} for s, c in state.last_trick],
                "winner": trick_winner(state.last_trick, ORDER, state.trumps),
            },
            "tricks_won": list(state.tricks_won),
            "last_hand": None if state.last_hand is None else dict(state.last_hand),
        }
        hand = state.hands[seat] if seat is not None else ()
        return View(seat=seat, hand=hand, public=public)

    def outcome(self, state: BestiaState) -> Outcome | None:
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
                "pot_left": state.pot,
                "hands": state.hand_no,
            },
        )

    def cards_in_play(self, state: BestiaState) -> list[str]:
        return [
            *(c for h in state.hands for c in h),
            *state.stock,
            state.turned,
            *state.set_aside,
            *(c for _, c in state.trick),
            *state.taken,
        ]

    def hidden_cards(self, state: BestiaState, seat: int | None) -> list[str]:
        held = [c for s, h in enumerate(state.hands) if s != seat for c in h]
        return held + list(state.stock) + list(state.set_aside)
