"""Pika ("Pika Carte"): the platform's Uno-like game with stacking, for 2 to 4 players.

Rules: PRODUCT.md PIKA-1..12 and RULES.md §1. In short: match the top card by colour or
value (black cards always match); draw only when you cannot play, then play the drawn
card or keep it; +2 and +4 stack (on a +4 only a +2 of the named colour or another +4);
call Pika when a play leaves you one card, within ``pika_window`` seconds, or draw 2;
going out on a +2/+4 ends the round only once someone takes the stack; a round where the
pile is dry for a whole table round stalls; places go by cards left, ties sharing.

Actions (card codes are described in :mod:`~tavolo.cardgames.games.shedding.deck`):

- ``PLAY(cards=(card,))``; black cards add ``colour="red"`` (or yellow, green, blue);
  a play that leaves one card may add ``call="pika"`` to call at once;
- ``DRAW`` (only when no card is playable), then ``PLAY`` the drawn card or ``KEEP``;
- ``TAKE`` a pending stack; ``CALL(call="pika")`` while your Pika window is open;
- ``REORDER(cards=your whole hand in the new order)``, at any time;
- ``EXPIRE(timer=key)``: a turn timer draws / takes the stack / keeps; a ``call`` timer
  costs 2 cards if the seat still holds exactly one.

Seats play clockwise (RULES §0.3): the turn passes from seat s to s-1.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Final

from mypy_extensions import mypyc_attr

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
from tavolo.cardgames.games.shedding.deck import COLOUR_LETTERS, COLOUR_NAMES, VALUE_OF
from tavolo.cardgames.games.shedding.pika_explain import explain
from tavolo.cardgames.games.shedding.pika_legal import (
    CALL,
    DRAW,
    KEEP,
    PIKA,
    TAKE,
    is_legal,
    legal_actions,
)
from tavolo.cardgames.games.shedding.pika_state import (
    CLOCKWISE,
    PikaRules,
    PikaState,
    deal,
    draw_cards,
    end_turn,
    match_length_problem,
    parse_match_length,
    playable,
    round_result,
    unchain,
)
from tavolo.cardgames.rng import SeededRandom

PENALTY: Final = 2
"""Cards drawn for a Pika not called in time (PIKA-8)."""

__all__ = ["CALL", "DRAW", "KEEP", "PENALTY", "TAKE", "Pika"]


def _check_window(value: JSON) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 60:
        return "the Pika window is a number of seconds between 0 and 60"
    return None


@mypyc_attr(allow_interpreted_subclasses=True)
class Pika(Game[PikaState]):
    """The Pika rules engine (tests subclass it to break it on purpose)."""

    name = "pika"
    title = "Pika"
    min_players = 2
    max_players = 4
    option_specs = (
        OptionSpec("players", 4, "seats at the table", choices=(2, 3, 4)),
        OptionSpec(
            "pika_window", 3, "seconds to call Pika before the 2-card penalty", check=_check_window
        ),
        OptionSpec(
            "match_length",
            "single",
            "'single' round, 'points:T' (first to T) or 'hands:N' rounds",
            check=match_length_problem,
        ),
    )

    # -- set-up ---------------------------------------------------------------------

    def new_game(self, options: Mapping[str, JSON] | None, seats: int, seed: bytes) -> PikaState:
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

    def _new_game(self, options: dict[str, JSON], seats: int, rng: SeededRandom) -> PikaState:
        hands_limit, points_target = parse_match_length(options["match_length"])
        rules = PikaRules(
            window_ms=round(options["pika_window"] * 1000),
            match=str(options["match_length"]),
            hands_limit=hands_limit,
            points_target=points_target,
        )
        dealer = rng.randbelow(seats)
        state, _ = deal(rules, seats, dealer, 1, (0,) * seats, rng, 0)
        return state

    # -- reading the state ------------------------------------------------------------

    def seats(self, state: PikaState) -> int:
        return state.seats

    def outcome(self, state: PikaState) -> Outcome | None:
        return state.outcome

    def to_act(self, state: PikaState) -> frozenset[int]:
        if state.outcome is not None:
            return _NOBODY
        return _ALONE[state.turn]

    def timers(self, state: PikaState) -> tuple[Timer, ...]:
        """The turn timer of the seat to act, and every open Pika window."""
        if state.outcome is not None:
            return ()
        turn = Timer(key=f"turn:{state.turn_started}", seat=state.turn, kind="turn")
        if not state.windows:
            return (turn,)
        ms = state.rules.window_ms
        calls = tuple(
            Timer(key=f"call:{seat}:{opened}", seat=seat, kind="call", millis=ms)
            for seat, opened in state.windows
        )
        return (turn, *calls)

    # -- knock-out play (RULES §0 rule 14, PCG-7) -------------------------------------

    offers_knock_out = True

    def tie_break_hand(self, state: PikaState) -> tuple[PikaState, list[Event]]:
        """One more hand dealt on from the drawn match, scored alone: its winner wins."""
        rules = replace(state.rules, match="single", hands_limit=None, points_target=None)
        dealer = (state.dealer + CLOCKWISE) % state.seats
        zero = (0,) * state.seats
        rng = state.rng.copy()
        return deal(rules, state.seats, dealer, state.round + 1, zero, rng, state.step)

    def last_capture(self, state: PikaState) -> int | None:
        """Pika has neither captures nor tricks: the seat that played last."""
        for _, who, move, *_ in reversed(unchain(state.recent)):
            if move == "play":
                return who
        return None

    def cards_in_play(self, state: PikaState) -> list[str]:
        cards = [c for hand in state.hands for c in hand]
        cards.extend(state.stock)
        cards.extend(state.discard)
        return cards

    def hidden_cards(self, state: PikaState, seat: int | None) -> list[str]:
        cards = [c for s, hand in enumerate(state.hands) if s != seat for c in hand]
        cards.extend(state.stock)
        return cards

    def view(self, state: PikaState, seat: int | None) -> View:
        public: dict[str, JSON] = {
            "round": state.round,
            "match_length": state.rules.match,
            "dealer": state.dealer,
            "turn": state.turn,
            "direction": "clockwise" if state.direction == CLOCKWISE else "anticlockwise",
            "phase": _phase(state),
            "top": state.top,
            "colour": COLOUR_NAMES[state.colour],
            "stack": state.stack,
            "hand_sizes": [len(h) for h in state.hands],
            "stock_size": len(state.stock),
            "discard": list(state.discard),
            "pika_windows": [s for s, _ in state.windows],
            "idle_turns": state.idle,
            "totals": list(state.totals),
            "recent": [
                {
                    "no": no,
                    "seat": who,
                    "move": move,
                    "card": card,
                    "colour": COLOUR_NAMES[colour],
                    "count": count,
                }
                for no, who, move, card, colour, count in unchain(state.recent)
            ],
        }
        if state.outcome is not None:
            public["places"] = list(state.outcome.places)
            public["scores"] = list(state.outcome.scores)
        private: dict[str, JSON] = {}
        if seat is not None and seat == state.turn and state.drawn is not None:
            private["drawn"] = state.drawn
        hand = state.hands[seat] if seat is not None else ()
        return View(seat=seat, hand=hand, public=public, private=private)

    # -- legality ---------------------------------------------------------------------

    def _legal_actions(self, state: PikaState, seat: int) -> list[Action]:
        return legal_actions(state, seat)

    def _is_legal(self, state: PikaState, seat: int, action: Action) -> bool:
        return is_legal(state, seat, action)

    def _explain(self, state: PikaState, seat: int, action: Action) -> RuleError:
        return explain(state, seat, action, self._legal_actions(state, seat))

    # -- applying ---------------------------------------------------------------------

    def _apply(self, state: PikaState, seat: int, action: Action) -> tuple[PikaState, list[Event]]:
        st = state.copy()
        st.step += 1
        events: list[Event] = []
        kind = action.kind
        if kind is ActionKind.PLAY:
            self._play(st, seat, action, events)
        elif kind is ActionKind.DRAW:
            self._draw(st, seat, events)
        elif kind is ActionKind.KEEP:
            self._keep(st, seat, events)
        elif kind is ActionKind.TAKE:
            self._take(st, seat, events)
        elif kind is ActionKind.CALL:
            st.windows = tuple(w for w in st.windows if w[0] != seat)
            events.append({"type": "pika", "seat": seat})
            st.record(seat, "pika")
        elif kind is ActionKind.REORDER:
            st.set_hand(seat, action.cards)
            events.append({"type": "reorder", "seat": seat, "hand": list(action.cards)})
        elif kind is ActionKind.EXPIRE:
            self._expire(st, seat, str(action.timer), events)
        else:  # pragma: no cover - _is_legal admits nothing else
            raise RuleError(f"{kind.value} is not a Pika action", reason="ACTION_NOT_ALLOWED")
        return st, events

    def _play(self, st: PikaState, seat: int, action: Action, events: list[Event]) -> None:
        card = action.cards[0]
        hand = list(st.hands[seat])
        if st.drawn is not None:
            # The drawn card was appended last: play that very copy.
            at = len(hand) - 1
            while hand[at] != card:
                at -= 1
            del hand[at]
        else:
            hand.remove(card)
        st.set_hand(seat, tuple(hand))
        st.discard += (card,)
        st.colour = card[0] if card[0] != "W" else COLOUR_LETTERS[str(action.colour)]
        value = VALUE_OF[card]
        skip = False
        if value == "skip":
            skip = True
        elif value == "rev":
            if st.seats == 2:
                skip = True  # PIKA-4: with two players a reverse is a skip.
            else:
                st.direction = -st.direction
        elif value == "+2":
            st.stack += 2
        elif value == "W+4":
            st.stack += 4
        event: Event = {"type": "play", "seat": seat, "card": card}
        if card[0] == "W":
            event["colour"] = action.colour
        if st.stack:
            event["stack"] = st.stack
        events.append(event)
        st.record(seat, "play", card)
        if len(hand) == 1:
            others = tuple(w for w in st.windows if w[0] != seat)
            if action.call == PIKA:
                st.windows = others
                events.append({"type": "pika", "seat": seat})
                st.record(seat, "pika")
            else:
                st.windows = (*others, (seat, st.step))
        if not hand and not st.stack:
            self._finish_round(st, "out", events)
            return
        self._pass(st, events, played=True, skip=skip)

    def _draw(self, st: PikaState, seat: int, events: list[Event], may_play: bool = True) -> None:
        """PIKA-2: draw one; a playable card may then be played or kept, else the turn ends."""
        cards = draw_cards(st, seat, 1, events)
        events.append({"type": "draw", "seat": seat, "cards": list(cards)})
        st.record(seat, "draw", count=len(cards))
        if may_play and cards and cards[0] in playable(st.discard[-1], st.colour):
            st.drawn = cards[0]
        else:
            self._pass(st, events, played=False)

    def _keep(self, st: PikaState, seat: int, events: list[Event]) -> None:
        events.append({"type": "keep", "seat": seat})
        st.record(seat, "keep")
        self._pass(st, events, played=False)

    def _take(self, st: PikaState, seat: int, events: list[Event]) -> None:
        owed = st.stack
        cards = draw_cards(st, seat, owed, events)
        st.stack = 0
        events.append(
            {"type": "take", "seat": seat, "cards": list(cards), "lapsed": owed - len(cards)}
        )
        st.record(seat, "take", count=len(cards))
        if any(not hand for hand in st.hands):
            # PIKA-9: someone went out on a +2/+4; the round ends once the stack is taken.
            self._finish_round(st, "out", events)
        else:
            self._pass(st, events, played=False)

    def _expire(self, st: PikaState, seat: int, key: str, events: list[Event]) -> None:
        events.append({"type": "timeout", "seat": seat, "timer": key})
        if key.startswith("call:"):
            st.windows = tuple(w for w in st.windows if w[0] != seat)
            if len(st.hands[seat]) == 1:
                cards = draw_cards(st, seat, PENALTY, events)
                events.append({"type": "penalty", "seat": seat, "cards": list(cards)})
                st.record(seat, "penalty", count=len(cards))
        elif st.drawn is not None:
            self._keep(st, seat, events)
        elif st.stack:
            self._take(st, seat, events)
        else:
            # A lapsed turn draws one card, and the turn passes even if it could be played.
            self._draw(st, seat, events, may_play=False)

    def _pass(self, st: PikaState, events: list[Event], played: bool, skip: bool = False) -> None:
        if end_turn(st, played, skip):
            self._finish_round(st, "stall", events)

    def _finish_round(self, st: PikaState, reason: str, events: list[Event]) -> None:
        places, scores = round_result(st)
        events.append(
            {
                "type": "round_end",
                "round": st.round,
                "reason": reason,
                "hands": [list(h) for h in st.hands],
                "places": list(places),
                "scores": list(scores),
            }
        )
        st.windows = ()
        st.drawn = None
        rules = st.rules
        if rules.hands_limit is None and rules.points_target is None:
            self._finish_match(st, places, scores, reason, events)
            return
        totals = tuple(t + s for t, s in zip(st.totals, scores, strict=True))
        over = (rules.hands_limit is not None and st.round >= rules.hands_limit) or (
            rules.points_target is not None and max(totals) >= rules.points_target
        )
        if over:
            st.totals = totals
            places = places_from_measure(totals, lower_is_better=False)
            self._finish_match(st, places, totals, reason, events)
            return
        # The deal passes to the next player in the direction of play (RULES §0.4).
        rng = st.rng.copy()
        dealer = (st.dealer + CLOCKWISE) % st.seats
        fresh, deal_events = deal(rules, st.seats, dealer, st.round + 1, totals, rng, st.step)
        events.extend(deal_events)
        # ``st`` is this apply's own copy, which the caller returns: it becomes the new deal.
        st.become(fresh)

    def _finish_match(
        self,
        st: PikaState,
        places: tuple[int, ...],
        scores: tuple[int, ...],
        reason: str,
        events: list[Event],
    ) -> None:
        st.outcome = Outcome(
            places=places,
            scores=scores,
            detail={"reason": reason, "cards_left": [len(h) for h in st.hands]},
        )
        events.append({"type": "game_over", "places": list(places), "scores": list(scores)})


_NOBODY: Final[frozenset[int]] = frozenset()
_ALONE: Final = tuple(frozenset((seat,)) for seat in range(Pika.max_players))
"""``to_act`` answers from these: it is asked before every move."""


def _phase(state: PikaState) -> str:
    if state.outcome is not None:
        return "over"
    if state.drawn is not None:
        return "drawn"
    return "stack" if state.stack else "play"
