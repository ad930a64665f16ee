"""Uno, the classic rules, for 2 to 10 players (RULES.md §2, UNO-1..9).

The round, step by step:

1. **Deal** (UNO-1): 7 cards each from the player on the dealer's left; the top stock
   card is turned. A turned wild +4 goes back and the stock is reshuffled; a turned wild
   lets the first player name the colour; +2, reverse and skip act as if the dealer had
   played them.
2. **Play** (UNO-2) a card matching the colour in play, the number or the symbol, or any
   wild. A wild +4 is legal only with no card of the colour in play; with the challenge
   on, a bluffed +4 is allowed and the challenge punishes it (UNO-5) **[decision]**.
3. **Draw** (UNO-3): you may always draw 1 instead of playing; only that card may then
   be played, if it is legal, or kept. An empty stock is rebuilt from the discards.
4. **Effects** (UNO-4): skip, reverse (a skip with two players), +2 (draw 2 and lose the
   turn), wild, wild +4 (draw 4 and lose the turn). No stacking: that is Pika's rule.
5. **Challenge** (UNO-5): the player hit by a wild +4 accepts it or challenges; the +4
   player's hand is shown to the challenger alone. A bluff costs its player 4 and the
   challenger then plays; an honest +4 costs the challenger 6 and the turn.
6. **UNO** (UNO-6): a play that leaves one card opens a window of ``uno_window`` seconds;
   call UNO with the play or before it closes, or draw 2.
7. **Going out** (UNO-7) ends the hand; a final +2 or +4 still makes the next player
   draw (a final +4 cannot be a bluff, so it is not challenged **[decision]**). A stall
   (a table round with nothing played and nothing to draw) ends the hand too.
8. **Scoring** (UNO-8): the winner scores the points left in the other hands.
9. **Match** (UNO-9): ``match_length = points:500``; ``single`` ranks the others by the
   points they hold, lowest first.

Actions: ``PLAY(cards=(card,), colour=..., call="uno")`` (a colour for wilds only, the
call only on a play that leaves one card); ``DRAW``; ``KEEP`` the drawn card;
``ACCEPT`` or ``CHALLENGE`` a wild +4; ``CALL(call="uno")``; ``CALL(call="colour",
colour=...)`` to name the colour of a turned wild; ``REORDER`` the hand; ``EXPIRE``.

Timeouts **[decision]** (docs/decisions.md): a turn timer accepts a wild +4 (drawing 4
rather than risking 6), keeps a drawn card, names the colour the seat holds most, and
otherwise draws one card and passes; an UNO window that closes costs 2 cards.
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
from tavolo.cardgames.games.shedding.deck import (
    CODES,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    COLOURS,
    DRAW_TWO,
    REVERSE,
    SKIP,
    VALUE_OF,
    WILD_DRAW_FOUR,
    describe,
)
from tavolo.cardgames.games.shedding.pika_state import (
    match_length_problem,
    parse_match_length,
    playable,
)
from tavolo.cardgames.games.shedding.uno_state import (
    ANSWER_PLUS4,
    CLOCKWISE,
    NAME_COLOUR,
    UnoRules,
    UnoState,
    deal,
    draw_cards,
    hand_points,
    hand_result,
    pass_turn,
)
from tavolo.cardgames.rng import SeededRandom

UNO: Final = "uno"
COLOUR_CALL: Final = "colour"
PENALTY: Final = 2
"""Cards drawn for an UNO not called in time (UNO-6)."""
CHALLENGE_LOST: Final = 6
"""Cards a challenger draws when the +4 was legal (UNO-5)."""

DRAW: Final = Action(ActionKind.DRAW)
KEEP: Final = Action(ActionKind.KEEP)
ACCEPT: Final = Action(ActionKind.ACCEPT)
CHALLENGE: Final = Action(ActionKind.CHALLENGE)
CALL_UNO: Final = Action(ActionKind.CALL, call=UNO)
NAME: Final = tuple(Action(ActionKind.CALL, call=COLOUR_CALL, colour=c) for c in COLOURS)


def _check_window(value: JSON) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 60:
        return "the UNO window is a number of seconds between 0 and 60"
    return None


def _play_options(card: str, call: bool) -> tuple[Action, ...]:
    calls: tuple[str | None, ...] = (None, UNO) if call else (None,)
    colours: tuple[str | None, ...] = COLOURS if card[0] == "W" else (None,)
    return tuple(
        Action(ActionKind.PLAY, cards=(card,), colour=colour, call=c)
        for colour in colours
        for c in calls
    )


# Legal-action lists are built from these prebuilt actions: enumeration is the hot path.
_PLAYS: Final = {card: _play_options(card, False) for card in CODES}
_PLAYS_CALLING: Final = {card: _play_options(card, True) for card in CODES}


@mypyc_attr(allow_interpreted_subclasses=True)
class Uno(Game[UnoState]):
    """The Uno rules engine."""

    name = "uno"
    title = "Uno"
    min_players = 2
    max_players = 10
    option_specs = (
        OptionSpec("players", 4, "seats at the table", choices=tuple(range(2, 11))),
        OptionSpec(
            "uno_window", 3, "seconds to call UNO before the 2-card penalty", check=_check_window
        ),
        OptionSpec(
            "challenge",
            "on",
            "'on': a wild +4 may be bluffed and challenged; 'off': only a legal +4 is played",
            choices=("on", "off"),
        ),
        OptionSpec(
            "match_length",
            "points:500",
            "'points:T' (first to T), 'hands:N' hands, or a 'single' hand",
            check=match_length_problem,
        ),
    )

    # -- set-up ---------------------------------------------------------------------

    def new_game(self, options: Mapping[str, JSON] | None, seats: int, seed: bytes) -> UnoState:
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

    def _new_game(self, options: dict[str, JSON], seats: int, rng: SeededRandom) -> UnoState:
        hands_limit, points_target = parse_match_length(options["match_length"])
        rules = UnoRules(
            window_ms=round(options["uno_window"] * 1000),
            challenge=options["challenge"] == "on",
            match=str(options["match_length"]),
            hands_limit=hands_limit,
            points_target=points_target,
        )
        dealer = rng.randbelow(seats)
        state, _ = deal(rules, seats, dealer, 1, (0,) * seats, rng, 0)
        return state

    # -- reading the state ------------------------------------------------------------

    def seats(self, state: UnoState) -> int:
        return state.seats

    def outcome(self, state: UnoState) -> Outcome | None:
        return state.outcome

    def to_act(self, state: UnoState) -> frozenset[int]:
        return frozenset() if state.outcome is not None else frozenset((state.turn,))

    def timers(self, state: UnoState) -> tuple[Timer, ...]:
        """The turn timer of the seat to act, and every open UNO window."""
        if state.outcome is not None:
            return ()
        turn = Timer(key=f"turn:{state.turn_started}", seat=state.turn, kind="turn")
        calls = tuple(
            Timer(key=f"call:{seat}:{opened}", seat=seat, kind="call", millis=state.rules.window_ms)
            for seat, opened in state.windows
        )
        return (turn, *calls)

    # -- knock-out play (RULES §0 rule 14, PCG-7) -------------------------------------

    offers_knock_out = True

    def tie_break_hand(self, state: UnoState) -> tuple[UnoState, list[Event]]:
        """One more hand dealt on from the drawn match, scored alone: its winner wins."""
        rules = replace(state.rules, match="single", hands_limit=None, points_target=None)
        dealer = (state.dealer + CLOCKWISE) % state.seats
        zero = (0,) * state.seats
        rng = state.rng.copy()
        return deal(rules, state.seats, dealer, state.round + 1, zero, rng, state.step)

    def last_capture(self, state: UnoState) -> int | None:
        """Uno has neither captures nor tricks: the seat that played last."""
        for _, who, move, *_ in reversed(state.recent):
            if move == "play":
                return who
        return None

    def cards_in_play(self, state: UnoState) -> list[str]:
        cards = [c for hand in state.hands for c in hand]
        cards.extend(state.stock)
        cards.extend(state.discard)
        return cards

    def hidden_cards(self, state: UnoState, seat: int | None) -> list[str]:
        cards = [c for s, hand in enumerate(state.hands) if s != seat for c in hand]
        cards.extend(state.stock)
        for card in self.shown_cards(state, seat) if seat is not None else ():
            cards.remove(card)  # the challenged hand, shown to the challenger (UNO-5)
        return cards

    def shown_cards(self, state: UnoState, seat: int) -> list[str]:
        if state.shown is None or state.shown[0] != seat:
            return []
        return list(state.shown[2])

    def view(self, state: UnoState, seat: int | None) -> View:
        public: dict[str, JSON] = {
            "round": state.round,
            "match_length": state.rules.match,
            "challenge": "on" if state.rules.challenge else "off",
            "dealer": state.dealer,
            "turn": state.turn,
            "direction": "clockwise" if state.direction == CLOCKWISE else "anticlockwise",
            "phase": _phase(state),
            "top": state.discard[-1],
            "colour": COLOUR_NAMES[state.colour] if state.colour else None,
            "hand_sizes": [len(h) for h in state.hands],
            "stock_size": len(state.stock),
            "discard": list(state.discard),
            "uno_windows": [s for s, _ in state.windows],
            "totals": list(state.totals),
            "recent": [
                {
                    "no": no,
                    "seat": who,
                    "move": move,
                    "card": card,
                    "colour": COLOUR_NAMES.get(colour),
                }
                for no, who, move, card, colour in state.recent
            ],
        }
        if state.pending == ANSWER_PLUS4:
            public["plus4_by"] = state.plus4_by
        if state.outcome is not None:
            public["places"] = list(state.outcome.places)
            public["scores"] = list(state.outcome.scores)
        private: dict[str, JSON] = {}
        if seat is not None and seat == state.turn and state.drawn is not None:
            private["drawn"] = state.drawn
        if seat is not None and state.shown is not None and state.shown[0] == seat:
            private["shown"] = {"seat": state.shown[1], "hand": list(state.shown[2])}
        hand = state.hands[seat] if seat is not None else ()
        return View(seat=seat, hand=hand, public=public, private=private)

    # -- legality ---------------------------------------------------------------------

    def _legal_actions(self, state: UnoState, seat: int) -> list[Action]:
        actions: list[Action] = []
        if seat == state.turn:
            actions.extend(self._turn_actions(state, seat))
        if any(s == seat for s, _ in state.windows):
            actions.append(CALL_UNO)
        return actions

    def _turn_actions(self, state: UnoState, seat: int) -> list[Action]:
        if state.pending == NAME_COLOUR:
            return list(NAME)
        if state.pending == ANSWER_PLUS4:
            return [ACCEPT, CHALLENGE]
        hand = state.hands[seat]
        plays = _PLAYS_CALLING if len(hand) == 2 else _PLAYS
        if state.drawn is not None:
            return [*plays[state.drawn], KEEP]
        allowed = playable(state.discard[-1], state.colour)
        honest = state.rules.challenge or not any(c[0] == state.colour for c in hand)
        actions: list[Action] = []
        for card in sorted({c for c in hand if c in allowed}):
            if card != WILD_DRAW_FOUR or honest:
                actions.extend(plays[card])
        actions.append(DRAW)
        return actions

    def _is_legal(self, state: UnoState, seat: int, action: Action) -> bool:
        if action.kind is ActionKind.REORDER:
            hand = state.hands[seat]
            return sorted(action.cards) == sorted(hand) and action == Action(
                ActionKind.REORDER, cards=action.cards
            )
        return action in self._legal_actions(state, seat)

    def _explain(self, state: UnoState, seat: int, action: Action) -> RuleError:
        return _explain(state, seat, action)

    # -- applying ---------------------------------------------------------------------

    def _apply(self, state: UnoState, seat: int, action: Action) -> tuple[UnoState, list[Event]]:
        st = state.copy()
        st.step += 1
        st.shown = None
        events: list[Event] = []
        kind = action.kind
        if kind is ActionKind.PLAY:
            self._play(st, seat, action, events)
        elif kind is ActionKind.DRAW:
            self._draw(st, seat, events, may_play=True)
        elif kind is ActionKind.KEEP:
            events.append({"type": "keep", "seat": seat})
            st.record(seat, "keep")
            self._pass(st, events, played=False)
        elif kind is ActionKind.ACCEPT:
            self._accept(st, seat, events)
        elif kind is ActionKind.CHALLENGE:
            self._challenge(st, seat, events)
        elif kind is ActionKind.CALL and action.call == COLOUR_CALL:
            self._name_colour(st, seat, str(action.colour), events)
        elif kind is ActionKind.CALL:
            st.windows = tuple(w for w in st.windows if w[0] != seat)
            events.append({"type": "uno", "seat": seat})
            st.record(seat, "uno")
        elif kind is ActionKind.REORDER:
            st.set_hand(seat, action.cards)
            events.append({"type": "reorder", "seat": seat, "hand": list(action.cards)})
        elif kind is ActionKind.EXPIRE:
            self._expire(st, seat, str(action.timer), events)
        else:  # pragma: no cover - _is_legal admits nothing else
            raise RuleError(f"{kind.value} is not an Uno action", reason="ACTION_NOT_ALLOWED")
        return st, events

    def _play(self, st: UnoState, seat: int, action: Action, events: list[Event]) -> None:
        card = action.cards[0]
        hand = list(st.hands[seat])
        if st.drawn is not None:
            del hand[len(hand) - 1 - hand[::-1].index(card)]  # the very copy just drawn
        else:
            hand.remove(card)
        if card == WILD_DRAW_FOUR:
            # What a challenge finds out: did they hold the colour in play? (UNO-2, UNO-5)
            st.plus4_bluff = any(c[0] == st.colour for c in hand)
            st.plus4_by = seat
        st.set_hand(seat, tuple(hand))
        st.discard += (card,)
        st.colour = card[0] if card[0] != "W" else COLOUR_LETTERS[str(action.colour)]
        event: Event = {"type": "play", "seat": seat, "card": card}
        if card[0] == "W":
            event["colour"] = action.colour
        events.append(event)
        st.record(seat, "play", card)
        if len(hand) == 1:
            others = tuple(w for w in st.windows if w[0] != seat)
            if action.call == UNO:
                st.windows = others
                events.append({"type": "uno", "seat": seat})
                st.record(seat, "uno")
            else:
                st.windows = (*others, (seat, st.step))
        value = VALUE_OF[card]
        victim = st.next_seat()
        if not hand:
            # UNO-7: out; a final +2 or +4 still makes the next player draw.
            owed = {DRAW_TWO: 2, WILD_DRAW_FOUR: 4}.get(value, 0)
            if owed:
                self._draw_owed(st, victim, owed, "last card", events)
            self._finish_hand(st, seat, "out", events)
        elif value == SKIP or (value == REVERSE and st.seats == 2):
            self._pass(st, events, played=True, skip=True)
        elif value == REVERSE:
            st.direction = -st.direction
            self._pass(st, events, played=True)
        elif value == DRAW_TWO:
            self._draw_owed(st, victim, 2, "+2", events)
            self._pass(st, events, played=True, skip=True)
        elif value == WILD_DRAW_FOUR and st.rules.challenge:
            self._pass(st, events, played=True)
            st.pending = ANSWER_PLUS4
        elif value == WILD_DRAW_FOUR:
            self._draw_owed(st, victim, 4, "+4", events)
            self._pass(st, events, played=True, skip=True)
        else:
            self._pass(st, events, played=True)

    def _draw(self, st: UnoState, seat: int, events: list[Event], may_play: bool) -> None:
        """UNO-3: draw one; a playable drawn card may then be played or kept."""
        cards = draw_cards(st, seat, 1, events)
        events.append({"type": "draw", "seat": seat, "cards": list(cards)})
        st.record(seat, "draw")
        if may_play and cards and self._drawn_is_playable(st, seat, cards[0]):
            st.drawn = cards[0]
        else:
            self._pass(st, events, played=False)

    def _drawn_is_playable(self, st: UnoState, seat: int, card: str) -> bool:
        if card not in playable(st.discard[-1], st.colour):
            return False
        if card == WILD_DRAW_FOUR and not st.rules.challenge:
            return not any(c[0] == st.colour for c in st.hands[seat][:-1])
        return True

    def _draw_owed(
        self, st: UnoState, seat: int, count: int, why: str, events: list[Event]
    ) -> None:
        cards = draw_cards(st, seat, count, events)
        events.append({"type": "penalty_draw", "seat": seat, "why": why, "cards": list(cards)})
        st.record(seat, f"draws {len(cards)}")

    def _accept(self, st: UnoState, seat: int, events: list[Event]) -> None:
        events.append({"type": "accept", "seat": seat})
        self._draw_owed(st, seat, 4, "+4", events)
        self._pass(st, events, played=False)

    def _challenge(self, st: UnoState, seat: int, events: list[Event]) -> None:
        """UNO-5: the +4 player's hand is shown to the challenger; the loser draws."""
        by = st.plus4_by
        st.shown = (seat, by, st.hands[by])
        events.append({"type": "challenge", "seat": seat, "of": by, "bluff": st.plus4_bluff})
        st.record(seat, "challenge")
        st.pending = ""
        if st.plus4_bluff:
            self._draw_owed(st, by, 4, "bluffed +4", events)
            st.turn_started = st.step  # the challenger now plays a turn of their own
        else:
            self._draw_owed(st, seat, CHALLENGE_LOST, "lost challenge", events)
            self._pass(st, events, played=False)

    def _name_colour(self, st: UnoState, seat: int, colour: str, events: list[Event]) -> None:
        st.colour = COLOUR_LETTERS[colour]
        st.pending = ""
        st.turn_started = st.step
        events.append({"type": "colour", "seat": seat, "colour": colour})
        st.record(seat, "names")

    def _expire(self, st: UnoState, seat: int, key: str, events: list[Event]) -> None:
        events.append({"type": "timeout", "seat": seat, "timer": key})
        if key.startswith("call:"):
            st.windows = tuple(w for w in st.windows if w[0] != seat)
            if len(st.hands[seat]) == 1:
                self._draw_owed(st, seat, PENALTY, "UNO not called", events)
        elif st.pending == NAME_COLOUR:
            self._name_colour(st, seat, _most_held_colour(st.hands[seat]), events)
        elif st.pending == ANSWER_PLUS4:
            self._accept(st, seat, events)
        elif st.drawn is not None:
            events.append({"type": "keep", "seat": seat})
            self._pass(st, events, played=False)
        else:
            self._draw(st, seat, events, may_play=False)

    def _pass(self, st: UnoState, events: list[Event], played: bool, skip: bool = False) -> None:
        if pass_turn(st, played, skip):
            self._finish_hand(st, None, "stall", events)

    def _finish_hand(
        self, st: UnoState, winner: int | None, reason: str, events: list[Event]
    ) -> None:
        places, scores = hand_result(st, winner)
        events.append(
            {
                "type": "hand_end",
                "round": st.round,
                "reason": reason,
                "hands": [list(h) for h in st.hands],
                "points_held": [hand_points(h) for h in st.hands],
                "places": list(places),
                "scores": list(scores),
            }
        )
        st.windows = ()
        st.drawn = None
        st.pending = ""
        rules = st.rules
        totals = tuple(t + s for t, s in zip(st.totals, scores, strict=True))
        st.totals = totals
        if rules.hands_limit is None and rules.points_target is None:
            self._finish_match(st, places, scores, reason, events)
            return
        over = (rules.hands_limit is not None and st.round >= rules.hands_limit) or (
            rules.points_target is not None and max(totals) >= rules.points_target
        )
        if over:
            places = places_from_measure(totals, lower_is_better=False)
            self._finish_match(st, places, totals, reason, events)
            return
        # The deal passes to the next player in the direction of play (RULES §0.4).
        rng = st.rng.copy()
        dealer = (st.dealer + CLOCKWISE) % st.seats
        fresh, deal_events = deal(rules, st.seats, dealer, st.round + 1, totals, rng, st.step)
        events.extend(deal_events)
        st.become(fresh)

    def _finish_match(
        self,
        st: UnoState,
        places: tuple[int, ...],
        scores: tuple[int, ...],
        reason: str,
        events: list[Event],
    ) -> None:
        st.outcome = Outcome(places=places, scores=scores, detail={"reason": reason})
        events.append({"type": "game_over", "places": list(places), "scores": list(scores)})


def _most_held_colour(hand: tuple[str, ...]) -> str:
    """The colour a timed-out seat names: the one it holds most (table order breaks ties)."""
    counts = {letter: sum(1 for c in hand if c[0] == letter) for letter in COLOUR_NAMES}
    return COLOUR_NAMES[max(COLOUR_NAMES, key=lambda letter: counts[letter])]


def _phase(state: UnoState) -> str:
    if state.outcome is not None:
        return "over"
    if state.pending:
        return state.pending
    return "drawn" if state.drawn is not None else "play"


def _explain(state: UnoState, seat: int, action: Action) -> RuleError:
    """Why ``action`` is refused, in words that say what to do instead."""
    kind = action.kind
    if kind is ActionKind.CALL and action.call == UNO:
        return RuleError(
            "call UNO only while your window is open, after a play leaving one card",
            reason="CALL_NOT_ALLOWED",
        )
    if seat != state.turn:
        return RuleError(f"it is not your turn: seat {state.turn} plays", reason="NOT_YOUR_TURN")
    if state.pending == NAME_COLOUR:
        return RuleError(
            "name the colour first: call 'colour' with red, yellow, green or blue",
            reason="COLOUR_REQUIRED",
        )
    if state.pending == ANSWER_PLUS4:
        return RuleError(
            "a wild +4 was played on you: accept it (draw 4) or challenge it",
            reason="RULE_VIOLATION",
        )
    if kind is ActionKind.PLAY:
        if len(action.cards) != 1:
            return RuleError("play exactly one card", reason="ONE_CARD_EXPECTED")
        card = action.cards[0]
        if card not in state.hands[seat]:
            return RuleError(
                f"you do not hold {card!r}", reason="CARD_NOT_HELD", metadata={"card": card}
            )
        if state.drawn is not None and card != state.drawn:
            return RuleError(
                f"after drawing you may only play the card drawn ({state.drawn})",
                reason="RULE_VIOLATION",
            )
        if card[0] == "W" and action.colour not in COLOURS:
            return RuleError(
                "a wild names a colour: red, yellow, green or blue", reason="COLOUR_REQUIRED"
            )
        if card[0] != "W" and action.colour is not None:
            return RuleError("only a wild names a colour", reason="COLOUR_NOT_ALLOWED")
        if card not in playable(state.discard[-1], state.colour):
            colour = COLOUR_NAMES[state.colour]
            return RuleError(
                f"{describe(card)} does not match: play {colour}, the same number or symbol "
                f"as {describe(state.discard[-1])}, or a wild",
                reason="CARD_DOES_NOT_MATCH",
                metadata={"card": card},
            )
        if card == WILD_DRAW_FOUR:
            colour = COLOUR_NAMES[state.colour]
            return RuleError(
                f"a wild +4 is legal only when you hold no {colour} card", reason="RULE_VIOLATION"
            )
        if action.call is not None:
            return RuleError(
                "call UNO only with a play that leaves you one card", reason="CALL_NOT_ALLOWED"
            )
    if kind is ActionKind.KEEP:
        return RuleError("you may keep only a card you just drew", reason="RULE_VIOLATION")
    if kind is ActionKind.REORDER:
        return RuleError(
            "a reorder lists every card of your hand once, in the new order",
            reason="RULE_VIOLATION",
        )
    return RuleError(f"{action} is not allowed now", reason="ACTION_NOT_ALLOWED")
