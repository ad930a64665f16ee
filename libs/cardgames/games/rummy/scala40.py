"""Scala 40 (RULES §13, SCALA40-1…8): runs and sets with the jokers wild, an opening of
40 points, and elimination at 101, played by 2 to 6 players each for themselves.

Play is anticlockwise (seat s to s+1); the player on the dealer's right starts and the
deal passes to the right. A turn is ``DRAW`` (the stock) or ``TAKE_DISCARD`` (the top of
the pozzo), then ``MELD`` / ``ATTACH`` (as in Burraco, see
:mod:`~tavolo.cardgames.games.rummy.melds`), then ``DISCARD``; ``PASS`` takes back an opening
that does not reach 40. Which plays are allowed is
:mod:`~tavolo.cardgames.games.rummy.scala40_legal`; the points are
:mod:`~tavolo.cardgames.games.rummy.scala40_scoring`.

A hand in which nothing can be laid ends as a stall **[decision]**: when the stock runs
out after two stocks rebuilt from the pozzo in a row were drawn with no card laid on the
table (meld, attachment or joker swap), it is not rebuilt a third time; nobody closed and
everyone scores the cards in hand (RULES 13.7), as when stock and pozzo are both spent.

A turn timeout draws from the stock; once drawn it takes back an unfinished opening,
and otherwise discards the card that costs most in hand, a joker last **[decision]**.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import JSON, Event, Game, OptionSpec, Outcome, Timer, View
from tavolo.cardgames.errors import GameOver, NotYourTurn, RuleError
from tavolo.cardgames.games.rummy.deck import pretty_all, sort_cards
from tavolo.cardgames.games.rummy.melds import Attached, Meld, attach, describe, read_meld
from tavolo.cardgames.games.rummy.scala40_legal import (
    RULES,
    listed_actions,
    pending_melds,
    refusal,
    timeout_action,
)
from tavolo.cardgames.games.rummy.scala40_scoring import hand_penalty, opening_value
from tavolo.cardgames.games.rummy.scala40_state import (
    DRAW,
    DRY_REBUILDS,
    OVER,
    PLAY,
    Scala40Options,
    Scala40State,
    laid_measure,
    next_player,
    parse_match_length,
    players_in,
    start_hand,
)
from tavolo.cardgames.games.rummy.scala40_view import public_view
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


def _set(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return (*values[:index], value, *values[index + 1 :])


class Scala40(Game[Scala40State]):
    """Scala 40, each for themselves."""

    name = "scala40"
    title = "Scala 40"
    min_players = 2
    max_players = 6
    option_specs = (
        OptionSpec(
            "match_length",
            "elimination",
            "'elimination' (the last player left wins) or 'hands:N' (most hands closed)",
            check=_check_match,
        ),
        OptionSpec("elimination", 101, "the total that eliminates a player", (101, 201, 301)),
        OptionSpec(
            "no_attachable_discard",
            False,
            "a card that fits a meld on the table may not be discarded",
            (False, True),
        ),
    )

    def _new_game(self, options: dict[str, JSON], seats: int, rng: SeededRandom) -> Scala40State:
        rng = rng.copy()
        dealer = rng.randbelow(seats)
        blank = Scala40State(
            options=Scala40Options(
                elimination=int(options["elimination"]),
                hands_limit=parse_match_length(options["match_length"]),
                no_attachable_discard=bool(options["no_attachable_discard"]),
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
            pozzo=(),
            melds=(),
            pending=0,
            opened=(False,) * seats,
            taken=None,
            turns_done=0,
            dry_rebuilds=0,
            laid_mark=0,
            alive=(True,) * seats,
            totals=(0,) * seats,
            hands_won=(0,) * seats,
            out_order=(),
            score_sheet=(),
            last_hand=None,
            places=None,
            end_reason=None,
        )
        return start_hand(blank, 1, dealer)

    # -- knock-out play (RULES §0 rule 14, PCG-7) -------------------------------------

    offers_knock_out = True

    def tie_break_hand(self, state: Scala40State) -> tuple[Scala40State, list[Event]]:
        """One more hand dealt on from the drawn match to the seats placed first, a match
        of one hand: whoever closes it wins (RULES 13.8 counts hands won)."""
        assert state.places is not None
        tied = tuple(p == 1 for p in state.places)
        options = replace(state.options, hands_limit=1, match="hands:1")
        fresh = state.replace(
            options=options,
            alive=tied,
            totals=(0,) * state.seats,
            hands_won=(0,) * state.seats,
            out_order=(),
            score_sheet=(),
            places=None,
            end_reason=None,
        )
        dealer = next_player(fresh, state.dealer)
        dealt = start_hand(fresh, state.hand_no + 1, dealer)
        event: Event = {
            "type": "hand_dealt",
            "hand": dealt.hand_no,
            "dealer": dealer,
            "hands": [list(h) for h in dealt.hands],
            "pozzo": list(dealt.pozzo),
        }
        return dealt, [event]

    def last_capture(self, state: Scala40State) -> int | None:
        """Scala 40 has neither captures nor tricks: the seat that made the last play, the
        closer, or with the stock run out the last to discard before it."""
        if state.last_hand is None:
            return None
        closer = state.last_hand.get("closed_by")
        if isinstance(closer, int):
            return closer
        ahead = [s for s in reversed(range(state.turn)) if state.alive[s]]
        behind = [s for s in reversed(range(state.turn + 1, state.seats)) if state.alive[s]]
        before = [*ahead, *behind]
        return before[0] if before else state.turn

    # -- whose move, and which ------------------------------------------------------

    def seats(self, state: Scala40State) -> int:
        return state.seats

    def to_act(self, state: Scala40State) -> frozenset[int]:
        return frozenset() if state.phase == OVER else frozenset((state.turn,))

    def timers(self, state: Scala40State) -> tuple[Timer, ...]:
        if state.phase == OVER:
            return ()
        step = f"{state.phase}{len(state.hands[state.turn])}p{state.pending}"
        key = f"turn:h{state.hand_no}:t{state.turns_done}:{step}:s{state.turn}"
        return (Timer(key=key, seat=state.turn, kind="turn"),)

    def _legal_actions(self, state: Scala40State, seat: int) -> list[Action]:
        if seat != state.turn or state.phase == OVER:
            return []
        return listed_actions(state, seat)

    def _is_legal(self, state: Scala40State, seat: int, action: Action) -> bool:
        return seat == state.turn and state.phase != OVER and refusal(state, seat, action) is None

    def _explain(self, state: Scala40State, seat: int, action: Action) -> RuleError:
        if state.phase == OVER:
            return GameOver("the game is over")
        if seat != state.turn:
            return NotYourTurn(f"it is not your turn: seat {state.turn} is playing")
        return RuleError(refusal(state, seat, action) or f"{action} is not allowed now")

    # -- applying an action ---------------------------------------------------------

    def _apply(
        self, state: Scala40State, seat: int, action: Action
    ) -> tuple[Scala40State, list[Event]]:
        kind = action.kind
        if kind is ActionKind.EXPIRE:
            return self._play_expiry(state, seat, action, timeout_action(state, seat))
        if kind is ActionKind.DRAW:
            return self._draw(state, seat, [])
        if kind is ActionKind.TAKE_DISCARD:
            card = state.pozzo[-1]
            after = self._with_hand(state, seat, sort_cards((*state.hands[seat], card)))
            after = after.replace(pozzo=state.pozzo[:-1], phase=PLAY, taken=card)
            return after, [{"type": "took_discard", "seat": seat, "card": card}]
        if kind is ActionKind.MELD:
            meld = read_meld(action.cards, RULES)
            assert isinstance(meld, Meld)
            return self._meld(state, seat, meld)
        if kind is ActionKind.ATTACH:
            return self._attach(state, seat, action.cards[0], int(action.meld or 0), action.target)
        if kind is ActionKind.PASS:
            return self._take_back(state, seat)
        return self._discard(state, seat, action.cards[0])

    def _draw(
        self, state: Scala40State, seat: int, events: list[Event]
    ) -> tuple[Scala40State, list[Event]]:
        if not state.stock:
            if len(state.pozzo) <= 1:
                events.append({"type": "stock_exhausted", "seat": seat})
                return self._end_hand(state, closer=None, in_mano=False, events=events)
            laid = laid_measure(state.melds)
            dry = 0 if laid > state.laid_mark else state.dry_rebuilds
            if dry >= DRY_REBUILDS:
                events.append({"type": "hand_stalled", "seat": seat, "rebuilds": dry})
                return self._end_hand(state, closer=None, in_mano=False, events=events)
            rng = state.rng.copy()
            cards = list(state.pozzo[:-1])
            rng.shuffle(cards)
            state = state.replace(
                rng=rng,
                stock=tuple(cards),
                pozzo=state.pozzo[-1:],
                dry_rebuilds=dry + 1,
                laid_mark=laid,
            )
            events.append({"type": "stock_rebuilt", "cards": len(cards)})
        card = state.stock[0]
        after = self._with_hand(state, seat, sort_cards((*state.hands[seat], card)))
        events.append({"type": "drew", "seat": seat, "card": card})
        return after.replace(stock=state.stock[1:], phase=PLAY, taken=None), events

    def _meld(self, state: Scala40State, seat: int, meld: Meld) -> tuple[Scala40State, list[Event]]:
        pending = state.pending + (0 if state.opened[seat] else 1)
        after = state.replace(melds=(*state.melds, (seat, meld)), pending=pending)
        after = self._with_hand(after, seat, _without(state.hands[seat], meld.cards))
        event: Event = {
            "type": "melded",
            "seat": seat,
            "meld": len(after.melds) - 1,
            "cards": list(meld.cards),
            "shown": describe(meld),
        }
        return after, [event]

    def _attach(
        self, state: Scala40State, seat: int, card: str, index: int, end: str | None
    ) -> tuple[Scala40State, list[Event]]:
        owner, meld = state.melds[index]
        done = attach(meld, card, end, RULES)
        assert isinstance(done, Attached)
        melds = (*state.melds[:index], (owner, done.meld), *state.melds[index + 1 :])
        hand = _without(state.hands[seat], (card,))
        if done.freed is not None:
            hand = sort_cards((*hand, done.freed))
        after = self._with_hand(state.replace(melds=melds), seat, hand)
        event: Event = {
            "type": "attached",
            "seat": seat,
            "meld": index,
            "card": card,
            "shown": describe(done.meld),
            "joker_back": done.freed is not None,
        }
        return after, [event]

    def _take_back(self, state: Scala40State, seat: int) -> tuple[Scala40State, list[Event]]:
        """An opening short of 40 comes back to the hand; a pozzo card taken to open
        with goes back on the pozzo, and the player draws instead."""
        back = [c for m in pending_melds(state) for c in m.cards]
        hand = sort_cards((*state.hands[seat], *back))
        kept = state.melds[: len(state.melds) - state.pending]
        after = self._with_hand(state.replace(melds=kept, pending=0), seat, hand)
        events: list[Event] = [{"type": "opening_taken_back", "seat": seat, "cards": back}]
        if state.taken is None:
            return after, events
        taken = state.taken
        after = self._with_hand(after, seat, _without(after.hands[seat], (taken,)))
        after = after.replace(pozzo=(*after.pozzo, taken), taken=None)
        events.append({"type": "pozzo_card_returned", "seat": seat, "card": taken})
        return self._draw(after, seat, events)

    def _discard(
        self, state: Scala40State, seat: int, card: str
    ) -> tuple[Scala40State, list[Event]]:
        in_mano = not state.opened[seat]
        opened = state.opened
        events: list[Event] = []
        if state.pending:
            opened = tuple(o or s == seat for s, o in enumerate(opened))
            worth = opening_value(pending_melds(state))
            events.append({"type": "opened", "seat": seat, "worth": worth})
        after = self._with_hand(state, seat, _without(state.hands[seat], (card,)))
        after = after.replace(pozzo=(*state.pozzo, card), opened=opened, pending=0, taken=None)
        events.append({"type": "discarded", "seat": seat, "card": card})
        if not after.hands[seat]:
            events.append({"type": "closed", "seat": seat, "in_mano": in_mano})
            return self._end_hand(after, closer=seat, in_mano=in_mano, events=events)
        after = after.replace(
            turn=next_player(state, seat), phase=DRAW, turns_done=state.turns_done + 1
        )
        return after, events

    def _with_hand(self, state: Scala40State, seat: int, hand: tuple[str, ...]) -> Scala40State:
        return state.replace(hands=(*state.hands[:seat], hand, *state.hands[seat + 1 :]))

    # -- the end of a hand and of the match ------------------------------------------

    def _end_hand(
        self, state: Scala40State, *, closer: int | None, in_mano: bool, events: list[Event]
    ) -> tuple[Scala40State, list[Event]]:
        points = [0] * state.seats
        lines: list[JSON] = []
        for seat in players_in(state):
            if seat == closer:
                lines.append({"seat": seat, "closed": True, "points": 0, "cards": ""})
                continue
            hand = state.hands[seat]
            pts = hand_penalty(hand, opened=state.opened[seat], in_mano=in_mano)
            points[seat] = pts
            lines.append(
                {
                    "seat": seat,
                    "closed": False,
                    "opened": state.opened[seat],
                    "cards": pretty_all(hand),  # shown at the end, for people
                    "points": pts,
                }
            )
        totals = tuple(t + p for t, p in zip(state.totals, points, strict=True))
        won = (
            state.hands_won
            if closer is None
            else _set(state.hands_won, closer, state.hands_won[closer] + 1)
        )
        out: tuple[int, ...] = ()
        alive = state.alive
        if state.options.hands_limit is None:
            out = tuple(s for s in players_in(state) if totals[s] >= state.options.elimination)
            alive = tuple(a and s not in out for s, a in enumerate(alive))
        summary: dict[str, JSON] = {
            "hand": state.hand_no,
            "closed_by": closer,
            "in_mano": in_mano,
            "players": lines,
            "totals": list(totals),
            "eliminated": list(out),
        }
        events.append({"type": "hand_scored", **summary})
        state = state.replace(
            totals=totals,
            hands_won=won,
            alive=alive,
            out_order=(*state.out_order, out) if out else state.out_order,
            score_sheet=(*state.score_sheet, tuple(points)),
            last_hand=summary,
        )
        places, reason = self._decide(state)
        if places is None:
            dealer = next_player(state, state.dealer)
            state = start_hand(state, state.hand_no + 1, dealer)
            events.append(
                {
                    "type": "hand_dealt",
                    "hand": state.hand_no,
                    "dealer": dealer,
                    "hands": [list(h) for h in state.hands],
                    "pozzo": list(state.pozzo),
                }
            )
            return state, events
        state = state.replace(phase=OVER, places=places, end_reason=reason, taken=None)
        events.append(
            {"type": "game_over", "reason": reason, "places": list(places), "totals": list(totals)}
        )
        return state, events

    def _decide(self, state: Scala40State) -> tuple[tuple[int, ...] | None, str | None]:
        """The places once the match is over (RULES 13.8), else ``None``."""
        limit = state.options.hands_limit
        if limit is not None:
            majority = limit // 2 + 1
            if max(state.hands_won) < majority and state.hand_no < limit:
                return None, None
            ranked = [-w for w in state.hands_won]
            return _competition(ranked), "hands"
        if len(players_in(state)) > 1:
            return None, None
        # Rank: the survivor, then the later eliminated; within a hand, the lower total.
        key: list[tuple[int, int]] = [(0, 0)] * state.seats
        for order, group in enumerate(reversed(state.out_order), start=1):
            for seat in group:
                key[seat] = (order, state.totals[seat])
        return _competition(key), "elimination"

    # -- what is seen ---------------------------------------------------------------

    def view(self, state: Scala40State, seat: int | None) -> View:
        public = public_view(state)
        if seat is None:
            return View(seat=None, hand=(), public=public)
        return View(seat=seat, hand=state.hands[seat], public=public)

    def outcome(self, state: Scala40State) -> Outcome | None:
        if state.places is None:
            return None
        return Outcome(
            places=state.places,
            scores=state.totals,
            detail={
                "reason": state.end_reason,
                "totals": list(state.totals),
                "hands_won": list(state.hands_won),
                "hands": state.hand_no,
                "eliminated": [list(g) for g in state.out_order],
            },
        )

    def cards_in_play(self, state: Scala40State) -> list[str]:
        return [
            *(c for h in state.hands for c in h),
            *state.stock,
            *state.pozzo,
            *(c for _, m in state.melds for c in m.cards),
        ]

    def hidden_cards(self, state: Scala40State, seat: int | None) -> list[str]:
        return [*(c for s, h in enumerate(state.hands) if s != seat for c in h), *state.stock]


def _competition(measure: Sequence[object]) -> tuple[int, ...]:
    """1-based competition places, lower measure first; equal measures share a place."""
    ordered = sorted(measure)  # type: ignore[type-var]
    return tuple(ordered.index(m) + 1 for m in measure)
