"""The table both Tresette games share (RULES §6.1-6.3, 6.7): the deal, following suit in
the order 3 2 A R C F 7 6 5 4 with no trumps, the two-player stock, the turn timer, and
what each seat sees. Tresette a vincere (:mod:`~tavolo.cardgames.games.tricks.tresette`) and
Ciapanò (:mod:`~tavolo.cardgames.games.tricks.ciapano`) add their scoring and match.

Play is anticlockwise: the turn passes from seat s to s+1 (RULES §0 rule 2). The first
dealer is the generator's first draw; the deal passes to the dealer's right. The deal is
one card at a time from the dealer's right (RULES §0 rule 5); with two players 20 cards
stay as a stock, from which the trick's winner and then the other draw one each, shown to
both (TRESETTE-7).

A turn timeout plays the legal card that gives away least **[decision]**: fewest points,
then the weakest; it declares nothing, since a clock must not show a player's cards.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping, Sequence
from typing import Final

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import JSON, Event, Game, Outcome, Timer, View
from tavolo.cardgames.errors import GameOver, InvalidOptions, NotYourTurn, RuleError
from tavolo.cardgames.games import italian_cards
from tavolo.cardgames.games.italian_cards import SUIT_NAMES
from tavolo.cardgames.games.tricks import core as tricks
from tavolo.cardgames.games.tricks.core import Play, following_cards, sides_of, trick_winner
from tavolo.cardgames.games.tricks.tresette_cards import ORDER, THIRDS
from tavolo.cardgames.rng import SeededRandom
from tavolo.cardgames.slotted import SlottedState

PLAY, OVER = "playing", "over"
TWO_PLAYER_HAND = 10


def _sorted(cards: list[str]) -> tuple[str, ...]:
    """A Tresette hand in display order, strongest first in each suit."""
    return italian_cards.sort_hand(cards, ORDER.strength)


_PLAYS = {c: Action(ActionKind.PLAY, cards=(c,)) for c in italian_cards.DECK}


_FIELDS: Final = (
    "options",
    "rng",
    "seats",
    "partnerships",
    "hand_no",
    "dealer",
    "phase",
    "hands",
    "stock",  # two players only; top first
    "shown",  # cards shown to everyone (draws, declarations) still held
    "last_drawn",
    "turn",
    "trick",
    "tricks_done",
    "taken",  # per seat, the cards of the tricks it won
    "last_trick",
    "has_played",  # per seat: has it played a card this hand
    "declarations",  # per seat
    "totals",  # per side, over the match (tie-breaks excluded)
    "score_sheet",  # per hand, each side's points
    "last_hand",
    "tiebreaks",
    "tied",
    "ranking",
    "end_reason",
)


class TresetteState(SlottedState):
    """The whole table. Treat it as immutable: ``apply`` changes a :meth:`copy`."""

    __slots__ = _FIELDS
    FIELDS = _FIELDS

    def __init__(
        self,
        options: Mapping[str, JSON],
        rng: SeededRandom,
        seats: int,
        partnerships: bool,
        hand_no: int,
        dealer: int,
        phase: str,
        hands: tuple[tuple[str, ...], ...],
        stock: tuple[str, ...],
        shown: tuple[str, ...],
        last_drawn: tuple[Play, ...],
        turn: int,
        trick: tuple[Play, ...],
        tricks_done: int,
        taken: tuple[tuple[str, ...], ...],
        last_trick: tuple[Play, ...],
        has_played: tuple[bool, ...],
        declarations: tuple[tuple[tuple[str, tuple[str, ...], int], ...], ...],
        totals: tuple[int, ...],
        score_sheet: tuple[tuple[int, ...], ...],
        last_hand: Mapping[str, JSON] | None,
        tiebreaks: int,
        tied: tuple[int, ...],
        ranking: tuple[int, ...],
        end_reason: str | None,
    ) -> None:
        self.options = options
        self.rng = rng
        self.seats = seats
        self.partnerships = partnerships
        self.hand_no = hand_no
        self.dealer = dealer
        self.phase = phase
        self.hands = hands
        self.stock = stock
        self.shown = shown
        self.last_drawn = last_drawn
        self.turn = turn
        self.trick = trick
        self.tricks_done = tricks_done
        self.taken = taken
        self.last_trick = last_trick
        self.has_played = has_played
        self.declarations = declarations
        self.totals = totals
        self.score_sheet = score_sheet
        self.last_hand = last_hand
        self.tiebreaks = tiebreaks
        self.tied = tied
        self.ranking = ranking
        self.end_reason = end_reason

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        return sides_of(self.seats, self.partnerships)

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.partnerships else seat


def least_harmful(cards: Sequence[str]) -> str:
    """The turn-timeout card: fewest thirds, then the weakest."""
    return min(cards, key=lambda c: (THIRDS[c], ORDER.strength[c], c))


class TresetteTable(Game[TresetteState]):
    """What Tresette a vincere and Ciapanò share; each adds its scoring and match."""

    @abstractmethod
    def removed(self, seats: int) -> tuple[str, ...]:
        """Cards taken out of the deck for this table size."""

    @abstractmethod
    def partnerships(self, seats: int) -> bool: ...

    @abstractmethod
    def _finish_hand(
        self, state: TresetteState, last_winner: int, events: list[Event]
    ) -> tuple[TresetteState, list[Event]]:
        """Score the hand just played out and go on to the next hand or the end."""

    @abstractmethod
    def _declarations(self, state: TresetteState, seat: int) -> list[Action]:
        """The declarations ``seat`` may make now (none in Ciapanò)."""

    # -- set-up ---------------------------------------------------------------------

    def new_game(
        self, options: Mapping[str, JSON] | None, seats: int, seed: bytes
    ) -> TresetteState:
        """The seat count decides ``players``; an explicit ``players`` must agree with it."""
        given = dict(options or {})
        if "players" in given and given["players"] != seats:
            raise InvalidOptions(
                f"option 'players' is {given['players']!r} but {seats} seats",
                reason="OPTION_INVALID",
                metadata={"option": "players"},
            )
        if seats in self.seat_counts():
            given["players"] = seats
        return super().new_game(given, seats, seed)

    def _new_game(self, options: dict[str, JSON], seats: int, rng: SeededRandom) -> TresetteState:
        rng = rng.copy()
        dealer = rng.randbelow(seats)
        partnerships = self.partnerships(seats)
        sides = len(sides_of(seats, partnerships))
        blank = TresetteState(
            options=options,
            rng=rng,
            seats=seats,
            partnerships=partnerships,
            hand_no=0,
            dealer=dealer,
            phase=OVER,
            hands=(),
            stock=(),
            shown=(),
            last_drawn=(),
            turn=0,
            trick=(),
            tricks_done=0,
            taken=(),
            last_trick=(),
            has_played=(),
            declarations=(),
            totals=(0,) * sides,
            score_sheet=(),
            last_hand=None,
            tiebreaks=0,
            tied=(),
            ranking=(0,) * sides,
            end_reason=None,
        )
        return self.deal(blank, 1, dealer)

    def deal(self, state: TresetteState, hand_no: int, dealer: int) -> TresetteState:
        """A fresh shuffle, dealt one card at a time from the dealer's right."""
        rng = state.rng.copy()
        n = state.seats
        cards = italian_cards.deck(self.removed(n))
        rng.shuffle(cards)
        each = TWO_PLAYER_HAND if n == 2 else len(cards) // n
        order = [(dealer + 1 + i) % n for i in range(n)]
        dealt = each * n
        hands = tuple(
            italian_cards.sort_hand(cards[order.index(s) : dealt : n], ORDER.strength)
            for s in range(n)
        )
        return state.replace(
            rng=rng,
            hand_no=hand_no,
            dealer=dealer,
            phase=PLAY,
            hands=hands,
            stock=tuple(cards[dealt:]),
            shown=(),
            last_drawn=(),
            turn=order[0],
            trick=(),
            tricks_done=0,
            taken=((),) * n,
            last_trick=(),
            has_played=(False,) * n,
            declarations=((),) * n,
        )

    # -- whose move, and which ------------------------------------------------------

    def seats(self, state: TresetteState) -> int:
        return state.seats

    def to_act(self, state: TresetteState) -> frozenset[int]:
        return frozenset() if state.phase == OVER else frozenset((state.turn,))

    def timers(self, state: TresetteState) -> tuple[Timer, ...]:
        if state.phase == OVER:
            return ()
        key = f"turn:h{state.hand_no}:t{state.tricks_done + 1}:s{state.turn}"
        return (Timer(key=key, seat=state.turn, kind="turn"),)

    def playable(self, state: TresetteState, seat: int) -> list[str]:
        return following_cards(state.hands[seat], state.trick, ORDER)

    def _legal_actions(self, state: TresetteState, seat: int) -> list[Action]:
        if seat != state.turn or state.phase == OVER:
            return []
        return [*(_PLAYS[c] for c in self.playable(state, seat)), *self._declarations(state, seat)]

    def _explain(self, state: TresetteState, seat: int, action: Action) -> RuleError:
        if state.phase == OVER:
            return GameOver("the game is over")
        if seat != state.turn:
            return NotYourTurn(f"it is not your turn: seat {state.turn} is to play")
        if action.kind is ActionKind.CALL:
            return self._refuse_declaration(state, seat, action)
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
        if card not in state.hands[seat]:
            return RuleError(
                f"you do not hold {card}", reason="CARD_NOT_HELD", metadata={"card": card}
            )
        led = state.trick[0][1][-1]
        return RuleError(
            f"you must follow suit ({SUIT_NAMES[led]})",
            reason="MUST_FOLLOW_SUIT",
            metadata={"suit": led},
        )

    def _refuse_declaration(self, state: TresetteState, seat: int, action: Action) -> RuleError:
        return RuleError("there are no declarations in this game", reason="ACTION_NOT_ALLOWED")

    # -- applying an action ---------------------------------------------------------

    def _apply(
        self, state: TresetteState, seat: int, action: Action
    ) -> tuple[TresetteState, list[Event]]:
        if action.kind is ActionKind.EXPIRE:
            return self._play_expiry(
                state, seat, action, _PLAYS[least_harmful(self.playable(state, seat))]
            )
        if action.kind is ActionKind.CALL:
            return self._declare(state, seat, action)
        return self._play(state, seat, action.cards[0])

    def _declare(
        self, state: TresetteState, seat: int, action: Action
    ) -> tuple[TresetteState, list[Event]]:
        raise RuleError("there are no declarations in this game", reason="ACTION_NOT_ALLOWED")

    def _play(
        self, state: TresetteState, seat: int, card: str
    ) -> tuple[TresetteState, list[Event]]:
        st = state.copy()
        st.hands, st.trick, played = tricks.play_card(state.hands, state.trick, seat, card)
        st.has_played = (*state.has_played[:seat], True, *state.has_played[seat + 1 :])
        shown = tuple([c for c in state.shown if c != card])
        st.shown = shown
        events: list[Event] = [played]
        if len(st.trick) < state.seats:
            st.turn = (seat + 1) % state.seats
            return st, events
        trick, number = st.trick, state.tricks_done + 1
        winner, won = tricks.close_trick(trick, ORDER, None, number)
        events.append(won)
        # Two players: the winner draws first, each card shown to both.
        st.hands, st.stock, drawn, drawn_events = tricks.draw_in_turn(
            st.hands, state.stock, winner, _sorted
        )
        events.extend(drawn_events)
        st.shown, st.last_drawn = (*shown, *[c for _, c in drawn]), drawn
        st.taken = tricks.add_to_pile(state.taken, winner, trick)
        st.trick, st.tricks_done, st.last_trick, st.turn = (), number, trick, winner
        if any(st.hands):
            return st, events
        return self._finish_hand(st, winner, events)

    def next_hand(
        self, state: TresetteState, events: list[Event]
    ) -> tuple[TresetteState, list[Event]]:
        dealer = (state.dealer + 1) % state.seats
        state = self.deal(state, state.hand_no + 1, dealer)
        events.append(
            {
                "type": "hand_dealt",
                "hand": state.hand_no,
                "dealer": dealer,
                "hands": [list(h) for h in state.hands],
            }
        )
        return state, events

    def game_over(
        self, state: TresetteState, reason: str, events: list[Event]
    ) -> tuple[TresetteState, list[Event]]:
        state = state.replace(phase=OVER, end_reason=reason)
        outcome = self.outcome(state)
        assert outcome is not None
        events.append({"type": "game_over", "reason": reason, "places": list(outcome.places)})
        return state, events

    # -- what is seen ---------------------------------------------------------------

    def view(self, state: TresetteState, seat: int | None) -> View:
        public: dict[str, JSON] = {
            "phase": state.phase,
            "hand_no": state.hand_no,
            "dealer": state.dealer,
            "turn": None if state.phase == OVER else state.turn,
            "sides": [list(side) for side in state.sides],
            "hand_sizes": [len(h) for h in state.hands],
            "stock_size": len(state.stock),
            "shown": [[c for c in h if c in state.shown] for h in state.hands],
            "last_drawn": [{"seat": s, "card": c} for s, c in state.last_drawn],
            "trick_number": state.tricks_done + 1,
            "trick": [{"seat": s, "card": c} for s, c in state.trick],
            "last_trick": _trick_json(state),
            "declarations": [
                [
                    {"call": name, "cards": list(cards), "points": points}
                    for name, cards, points in d
                ]
                for d in state.declarations
            ],
            "totals": list(state.totals),
            "match_length": state.options["match_length"],
            "score_sheet": [list(line) for line in state.score_sheet],
            "last_hand": _copy(state.last_hand),
            "tie_break": state.tiebreaks + 1 if state.tied and state.phase != OVER else None,
        }
        hand = state.hands[seat] if seat is not None else ()
        return View(seat=seat, hand=hand, public=public)

    def cards_in_play(self, state: TresetteState) -> list[str]:
        return [
            *(c for h in state.hands for c in h),
            *state.stock,
            *(c for _, c in state.trick),
            *(c for cards in state.taken for c in cards),
        ]

    def hidden_cards(self, state: TresetteState, seat: int | None) -> list[str]:
        """Others' hands and the stock, less the held cards shown to the whole table (the
        two-player draws, declared combinations)."""
        shown = set(state.shown)
        held = [c for s, h in enumerate(state.hands) if s != seat for c in h if c not in shown]
        return held + list(state.stock)

    @abstractmethod
    def outcome(self, state: TresetteState) -> Outcome | None: ...


def _trick_json(state: TresetteState) -> dict[str, JSON] | None:
    if not state.last_trick:
        return None
    return {
        "number": state.tricks_done,
        "plays": [{"seat": s, "card": c} for s, c in state.last_trick],
        "winner": trick_winner(state.last_trick, ORDER, None),
    }


def _copy(summary: Mapping[str, JSON] | None) -> dict[str, JSON] | None:
    if summary is None:
        return None
    return {k: list(v) if isinstance(v, list) else v for k, v in summary.items()}
