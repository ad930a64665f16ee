"""Spades ("Piki", ``seeds/004``; RULES §3, SPADES-1…8): two partnerships bid, then play
13 tricks a round with spades always trumps, until a team reaches the target.

Seats 0+2 play against 1+3 (team 0 and team 1). Play is clockwise, so the turn passes
from seat s to s-1 (RULES §0.3). Each round:

1. *Deal.* A fresh shuffle from the table's generator; one card at a time from the top,
   starting with the first bidder and going clockwise (RULES §0.5). The first bidder of
   round 1 is the generator's first draw (``randbelow(4)``), before the first shuffle;
   each later round's first bidder is the seat clockwise of the previous one.
2. *Blind nil* (only with ``blind_nil = True``): each seat of a team trailing by 100 or
   more, in bidding order, says ``BLIND_NIL`` or ``PASS`` before seeing its cards; its
   view shows no hand until it has decided.
3. *Bidding.* Clockwise from the first bidder, ``BID(amount=0…13)``; 0 is nil.
4. *Play.* The first bidder leads; ``PLAY(cards=(card,))``; the rules are in
   :mod:`~tavolo.cardgames.games.tricks.spades_tricks`, the scoring in
   :mod:`~tavolo.cardgames.games.tricks.spades_scoring`.
5. *End* (RULES 3.11, SPADES-8). After a round, a team at ``target`` (500) or more wins;
   if both are there the higher score wins; equal scores play tie-break rounds (RULES
   0.13-14: the higher score after one wins; after a third level one, the team that took
   its last trick loses).

Our addition, not in the seed or RULES: a team at ``lose_at`` (-500) or less also ends
the game, and the higher score wins. Without a floor, a table whose players keep missing
their bids could play for ever; real play does not come
near -500, which leaves the seed's game unchanged in practice.

A turn timeout (``EXPIRE`` of the seat's ``turn`` timer) plays the most modest choice
**[decision]**: the bid 1 (never nil: a timeout must not take the ±100 gamble for the
player), the lowest legal card (by rank, then clubs, diamonds, hearts, spades), and
``PASS`` on blind nil. The expiry is
recorded as ``timer_expired`` followed by the events of the action it stood for.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, TypeVar

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
from tavolo.cardgames.games.french_deck import ACE_HIGH, SUIT_NUMBERS, full_deck
from tavolo.cardgames.games.tricks.core import (
    ALONE,
    NOBODY,
    card_table,
    following_plays,
    holds,
    may_follow_led,
    with_hand,
    without,
)
from tavolo.cardgames.games.tricks.spades_scoring import (
    TRICKS_PER_ROUND,
    game_decided,
    score_round,
    winner_after_round,
    winner_of_tiebreak,
)
from tavolo.cardgames.games.tricks.spades_state import (
    BID,
    BLIND,
    OVER,
    PLAY,
    SEATS,
    SpadesOptions,
    SpadesState,
    bidding_order,
    start_round,
    team_of,
)
from tavolo.cardgames.games.tricks.spades_tricks import (
    SPADES,
    legal_cards,
    lowest_card,
    play_refusal,
    trick_winner,
)
from tavolo.cardgames.games.tricks.spades_view import copy_summary, public_view
from tavolo.cardgames.rng import SeededRandom

MAX_BID: Final = TRICKS_PER_ROUND

_BIDS: Final = tuple(Action(ActionKind.BID, amount=n) for n in range(MAX_BID + 1))
_CARDS: Final = card_table(full_deck(), ACE_HIGH, ActionKind.PLAY, SUIT_NUMBERS)
"""Card → (suit, its one listed play)."""
_PLAYS: Final = {c: play for c, (_, play) in _CARDS.items()}
_BLIND_CHOICES: Final = (Action(ActionKind.BLIND_NIL), Action(ActionKind.PASS))
_SUIT: Final = ACE_HIGH.suit
"""Card → suit letter."""
_SPADE: Final = SUIT_NUMBERS[SPADES]
"""Spades' number in :data:`_CARDS`."""


def _legal_plays(
    hand: tuple[str, ...],
    trick: tuple[tuple[int, str], ...],
    first_trick: bool,
    spades_broken: bool,
) -> list[Action]:
    """:func:`legal_cards`' cards as their interned actions, in one pass over the hand
    (the list of cards and then of actions cost two): the legal actions of the play."""
    table = _CARDS
    if trick:
        return following_plays(hand, table[trick[0][1]][0], table)
    if first_trick or not spades_broken:
        others: list[Action] = []
        for c in hand:
            suit, play = table[c]
            if suit != _SPADE:
                others.append(play)
        if others:
            return others
    plays = _PLAYS
    return [plays[c] for c in hand]


def _whole(low: int, high: int) -> Callable[[JSON], str | None]:
    def check(value: JSON) -> str | None:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            return f"must be a whole number from {low} to {high}"
        return None

    return check


T = TypeVar("T")


def _with(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``values`` with the one at ``index`` replaced."""
    changed = list(values)
    changed[index] = value
    return tuple(changed)


def _may_play(
    hand: tuple[str, ...],
    trick: tuple[tuple[int, str], ...],
    card: str,
    first_trick: bool,
    spades_broken: bool,
) -> bool:
    """``spades_tricks.may_play`` over the card table, for a card of the deck: the
    legality check on every play."""
    table = _CARDS
    if trick:
        return may_follow_led(hand, table[trick[0][1]][0], card, table)
    if not holds(hand, card):
        return False
    if (first_trick or not spades_broken) and table[card][0] == _SPADE:
        for c in hand:  # a spade leads early only from a hand of spades
            if table[c][0] != _SPADE:
                return False
    return True


_TEAMS: Final = tuple(frozenset(s for s in range(SEATS) if team_of(s) == t) for t in (0, 1))


class Spades(Game[SpadesState]):
    """Partnership Spades with nil, bags and the seed's house rules."""

    name = "spades"
    title = "Spades (Piki)"
    min_players = 4
    max_players = 4
    option_specs = (
        OptionSpec("target", 500, "points a team needs to win", check=_whole(100, 1000)),
        OptionSpec("bag_points", -1, "points per bag: -1 (seed) or +1 (standard)", (-1, 1)),
        OptionSpec("boston_bonus", 0, "bonus for taking all 13 tricks", check=_whole(0, 500)),
        OptionSpec("blind_nil", False, "allow blind nil (±200) when 100 behind", (False, True)),
        OptionSpec(
            "lose_at", -500, "a team at this score or lower loses", check=_whole(-1000, -100)
        ),
    )

    offers_knock_out = True
    own_tie_breaks = True
    """A Spades match is never drawn: level scores at the end already play tie-break
    rounds, the third decided by the last trick (RULES §0 rules 13-14)."""

    def partners(self, state: SpadesState, seat: int) -> frozenset[int]:
        return _TEAMS[team_of(seat)]

    def _new_game(self, options: dict[str, JSON], seats: int, rng: SeededRandom) -> SpadesState:
        rng = rng.copy()
        first = rng.randbelow(SEATS)
        blank = SpadesState(
            options=SpadesOptions(**options),
            rng=rng,
            round=0,
            first_bidder=first,
            phase=BID,
            hands=((),) * SEATS,
            bids=(None,) * SEATS,
            blind=(False,) * SEATS,
            undecided=(),
            turn=first,
            trick=(),
            tricks_done=0,
            tricks_won=(0,) * SEATS,
            taken=(),
            last_trick=(),
            spades_broken=False,
            scores=(0, 0),
            bags=(0, 0),
            score_sheet=(),
            last_round=None,
            bostons=(0, 0),
            tiebreak_rounds=None,
            winner=None,
            end_reason=None,
        )
        return start_round(blank, 1, first)

    # -- whose move, and which ------------------------------------------------------

    def seats(self, state: SpadesState) -> int:
        return SEATS

    def to_act(self, state: SpadesState) -> frozenset[int]:
        return NOBODY if state.phase == OVER else ALONE[state.turn]

    def timers(self, state: SpadesState) -> tuple[Timer, ...]:
        """One turn timer, keyed by round, phase and trick so a late expiry is refused."""
        if state.phase == OVER:
            return ()
        step = f"t{state.tricks_done + 1}" if state.phase == PLAY else state.phase
        key = f"turn:r{state.round}:{step}:s{state.turn}"
        return (Timer(key=key, seat=state.turn, kind="turn"),)

    def _legal_actions(self, state: SpadesState, seat: int) -> list[Action]:
        # The play's phase first: a phase found by identity compares no characters.
        if seat != state.turn:
            return []
        if state.phase == PLAY:
            return _legal_plays(
                state.hands[seat], state.trick, state.tricks_done == 0, state.spades_broken
            )
        if state.phase == OVER:
            return []
        if state.phase == BLIND:
            return list(_BLIND_CHOICES)
        return list(_BIDS)

    def _is_legal(self, state: SpadesState, seat: int, action: Action) -> bool:
        """As the contract's, without building the list of actions: a bid or a card is
        checked against its one interned action (and a card against the playable ones)."""
        if seat != state.turn:
            return False
        if state.phase == PLAY:
            cards = action.cards
            if len(cards) != 1:
                return False
            canonical = _PLAYS.get(cards[0])
            if canonical is None or (action is not canonical and action != canonical):
                return False
            return _may_play(
                state.hands[seat],
                state.trick,
                cards[0],
                state.tricks_done == 0,
                state.spades_broken,
            )
        if state.phase == OVER:
            return False
        if state.phase == BID:
            amount = action.amount
            if action.kind is not ActionKind.BID or amount is None or not 0 <= amount <= MAX_BID:
                return False
            bid = _BIDS[amount]
            return action is bid or action == bid
        return action in _BLIND_CHOICES  # deciding on blind nil

    def _playable(self, state: SpadesState, seat: int) -> list[str]:
        return legal_cards(
            state.hands[seat],
            state.trick,
            first_trick=state.tricks_done == 0,
            spades_broken=state.spades_broken,
        )

    def _explain(self, state: SpadesState, seat: int, action: Action) -> RuleError:
        if state.phase == OVER:
            return GameOver("the game is over")
        if seat != state.turn:
            doing = "play" if state.phase == PLAY else "bid"
            return NotYourTurn(f"it is not your turn: seat {state.turn} is to {doing}")
        kind = action.kind
        if state.phase == BLIND:
            return RuleError(
                "first decide on blind nil: blind_nil to bid it unseen, or pass to see your cards",
                reason="ACTION_NOT_ALLOWED",
            )
        if state.phase == BID:
            if kind is ActionKind.BLIND_NIL:
                if not state.options.blind_nil:
                    return RuleError(
                        "blind nil is off at this table: bid 0 to 13 (0 is nil)",
                        reason="OPTION_OFF",
                    )
                return RuleError(
                    "blind nil is bid before seeing your cards, by a team 100 or more behind",
                    reason="RULE_VIOLATION",
                )
            if kind is not ActionKind.BID or action != Action(kind, amount=action.amount):
                return RuleError(
                    "it is the bidding: bid 0 to 13 tricks (0 is nil)", reason="ACTION_NOT_ALLOWED"
                )
            return RuleError(
                "a bid is a whole number of tricks from 0 (nil) to 13", reason="AMOUNT_OUT_OF_RANGE"
            )
        if kind is not ActionKind.PLAY or action != Action(kind, cards=action.cards):
            return RuleError(
                "the bidding is over: play one card from your hand", reason="ACTION_NOT_ALLOWED"
            )
        return play_refusal(
            state.hands[seat],
            state.trick,
            action.cards,
            first_trick=state.tricks_done == 0,
            spades_broken=state.spades_broken,
        )

    # -- applying an action ---------------------------------------------------------

    def _apply(
        self, state: SpadesState, seat: int, action: Action
    ) -> tuple[SpadesState, list[Event]]:
        if action.kind is ActionKind.EXPIRE:
            return self._play_expiry(state, seat, action)
        if state.phase == PLAY:
            return self._play(state, seat, action.cards[0])
        if state.phase == BLIND:
            return self._decide_blind(state, seat, action.kind is ActionKind.BLIND_NIL)
        if state.phase == BID:
            return self._bid(state, seat, int(action.amount or 0))
        return self._play(state, seat, action.cards[0])

    def timeout_action(self, state: SpadesState, seat: int) -> Action:
        """What a turn timeout plays for ``seat``: bid 1, else the lowest legal card."""
        if state.phase == BLIND:
            return _BLIND_CHOICES[1]
        if state.phase == BID:
            return _BIDS[1]
        return _PLAYS[lowest_card(self._playable(state, seat))]

    def _decide_blind(
        self, state: SpadesState, seat: int, blind_nil: bool
    ) -> tuple[SpadesState, list[Event]]:
        st = state.copy()
        if blind_nil:
            st.bids = _with(st.bids, seat, 0)
            st.blind = _with(st.blind, seat, True)
        st.undecided = state.undecided[1:]
        events: list[Event] = [{"type": "blind_nil", "seat": seat, "bid": blind_nil}]
        if st.undecided:
            st.turn = st.undecided[0]
            return st, events
        return self._next_bidder(st, events)

    def _bid(self, state: SpadesState, seat: int, amount: int) -> tuple[SpadesState, list[Event]]:
        st = state.copy()
        st.bids = _with(st.bids, seat, amount)
        return self._next_bidder(st, [{"type": "bid", "seat": seat, "amount": amount}])

    def _next_bidder(self, st: SpadesState, events: list[Event]) -> tuple[SpadesState, list[Event]]:
        """Hand the turn to the next seat to bid, or start the play (``st`` is the
        apply's own copy, changed in place)."""
        for s in bidding_order(st.first_bidder):
            if st.bids[s] is None:
                st.phase, st.turn = BID, s
                return st, events
        events.append({"type": "play_started", "leader": st.first_bidder})
        st.phase, st.turn = PLAY, st.first_bidder
        return st, events

    def _play(self, state: SpadesState, seat: int, card: str) -> tuple[SpadesState, list[Event]]:
        st = state.copy()
        st.hands = with_hand(state.hands, seat, without(state.hands[seat], card))
        # Concatenated, not unpacked: compiled, the unpacking builds a list first.
        trick = state.trick + ((seat, card),)  # noqa: RUF005
        events: list[Event] = [{"type": "card_played", "seat": seat, "card": card}]
        if not state.spades_broken and _SUIT[card] == SPADES:
            st.spades_broken = True
            events.append({"type": "spades_broken", "seat": seat})
        if len(trick) < SEATS:
            st.trick = trick
            st.turn = (seat - 1) % SEATS
            return st, events
        winner = trick_winner(trick)
        st.trick = ()
        st.tricks_done = state.tricks_done + 1
        st.tricks_won = _with(state.tricks_won, winner, state.tricks_won[winner] + 1)
        cards = (trick[0][1], trick[1][1], trick[2][1], trick[3][1])
        st.taken = state.taken + cards
        st.last_trick = trick
        st.turn = winner
        events.append(
            {
                "type": "trick_won",
                "seat": winner,
                "number": st.tricks_done,
                "cards": [[s, c] for s, c in trick],
            }
        )
        if st.tricks_done < TRICKS_PER_ROUND:
            return st, events
        return self._end_round(st, last_trick_team=team_of(winner), events=events)

    def _end_round(
        self, state: SpadesState, *, last_trick_team: int, events: list[Event]
    ) -> tuple[SpadesState, list[Event]]:
        """Score the round ``state`` (the apply's own copy, changed in place) has just
        played out, then end the game or deal the next round."""
        opts = state.options
        results = score_round(
            state.scores,
            state.bags,
            tuple(int(b or 0) for b in state.bids),
            state.tricks_won,
            state.blind,
            bag_points=opts.bag_points,
            boston_bonus=opts.boston_bonus,
        )
        scores = (results[0].score, results[1].score)
        deltas = (results[0].delta, results[1].delta)
        teams = [r.to_dict() for r in results]
        if state.tiebreak_rounds is not None:  # its points stay out (§0.13): the match
            for t, team in enumerate(teams):  # score and bags are said as they stay
                team["score"], team["bags"] = state.scores[t], state.bags[t]
        summary: dict[str, JSON] = {
            "round": state.round,
            "bids": list(state.bids),
            "blind_nil": list(state.blind),
            "tricks": list(state.tricks_won),
            "teams": teams,
        }
        if state.tiebreak_rounds is not None:
            summary["tie_break"] = state.tiebreak_rounds + 1
        events.append({"type": "round_scored", **copy_summary(summary)})
        st = state  # the apply's own copy
        tiebreaks = st.tiebreak_rounds
        if tiebreaks is None:
            st.scores = scores
            st.bags = (results[0].bags, results[1].bags)
        # else RULES §0.13: a tie-break round orders the level teams only; its points
        # (and bags) never enter the match scores.
        st.score_sheet = (*state.score_sheet, (*deltas, *st.scores))
        st.last_round = summary
        st.bostons = (state.bostons[0] + results[0].boston, state.bostons[1] + results[1].boston)
        if tiebreaks is None:
            winner = winner_after_round(scores, opts.target, opts.lose_at)
            reason = "target" if max(scores) >= opts.target else "floor"
            if winner is None and game_decided(scores, opts.target, opts.lose_at):
                tiebreaks = 0
        else:
            tiebreaks += 1
            winner = winner_of_tiebreak(deltas, tiebreaks, last_trick_team)
            reason = "tie_break" if deltas[0] != deltas[1] else "last_trick"
        if winner is not None:
            st.phase, st.winner, st.end_reason = OVER, winner, reason
            outcome = self.outcome(st)
            assert outcome is not None
            events.append(
                {
                    "type": "game_over",
                    "winner_team": winner,
                    "reason": reason,
                    "scores": list(st.scores),
                    "places": list(outcome.places),
                }
            )
            return st, events
        next_first = (st.first_bidder - 1) % SEATS
        st.tiebreak_rounds = tiebreaks
        st = start_round(st, st.round + 1, next_first)
        events.append(
            {
                "type": "round_dealt",
                "round": st.round,
                "first_bidder": next_first,
                "hands": [list(h) for h in st.hands],
                "blind_nil_offered": list(st.undecided),
            }
        )
        return st, events

    # -- what is seen ---------------------------------------------------------------

    def view(self, state: SpadesState, seat: int | None) -> View:
        public = public_view(state)
        if seat is None or seat in state.undecided:
            return View(seat=seat, hand=(), public=public)
        return View(seat=seat, hand=state.hands[seat], public=public)

    def outcome(self, state: SpadesState) -> Outcome | None:
        if state.winner is None:
            return None
        won = [1 if team_of(s) == state.winner else 0 for s in range(SEATS)]
        return Outcome(
            places=places_from_measure(won, lower_is_better=False),
            scores=tuple(state.scores[team_of(s)] for s in range(SEATS)),
            detail={
                "winner_team": state.winner,
                "reason": state.end_reason,
                "team_scores": list(state.scores),
                "bags": list(state.bags),
                "rounds": state.round,
                "bostons": list(state.bostons),
            },
        )

    def cards_in_play(self, state: SpadesState) -> list[str]:
        return [c for h in state.hands for c in h] + [c for _, c in state.trick] + [*state.taken]

    def hidden_cards(self, state: SpadesState, seat: int | None) -> list[str]:
        return [
            c
            for s, hand in enumerate(state.hands)
            if s != seat or s in state.undecided
            for c in hand
        ]
