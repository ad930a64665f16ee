"""Tresette a vincere (RULES §6, TRESETTE-1…7): two partnerships (seats 0+2 against 1+3),
or two players with a stock, take tricks for aces and thirds, to 21 points.

The deal, following suit and the two-player stock are the shared table's
(:mod:`~tavolo.cardgames.games.tricks.tresette_table`). Each hand:

1. *Deal* 10 each, one at a time (TRESETTE-1); with ``players = 2`` 20 cards form a stock
   and the trick's winner, then the other, draws one, shown to both (TRESETTE-7).
2. *Play* (TRESETTE-2): the player on the dealer's right leads; follow suit if able; the
   highest card of the suit led wins, in the order 3 2 A R C F 7 6 5 4.
3. *Accusi* (TRESETTE-5, ``accusi = off``): on their first turn, before playing, a player
   may ``CALL`` each combination held: ``napoletana`` (A-2-3 of a suit) 3, ``three``
   aces, 2s or 3s 3, ``four`` of them 4. They become public and score at the hand's end.
4. *Score* (TRESETTE-3, 4): each side, aces + ⌊thirds ÷ 3⌋, +1 for the last trick, so a
   hand totals 11, plus its declarations.
5. *Match* (TRESETTE-6): ``match_length = points:21`` (``points:31`` when accusi is on and
   no length is given). If both sides pass the target the higher total wins; equal totals
   play tie-break hands (RULES §0.13): up to 3, their points kept out of the totals, the
   third drawn one lost by the side that took its last trick. With ``hands:N`` the most
   points wins, equal totals draw, and with ``ko`` on a draw plays tie-break hands too.
"""

from __future__ import annotations

from collections.abc import Mapping

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import JSON, Event, OptionSpec, Outcome, places_from_measure
from tavolo.cardgames.errors import RuleError
from tavolo.cardgames.games import italian_cards
from tavolo.cardgames.games.tricks.core import per_side, tiebreak_ranking, trick_winner
from tavolo.cardgames.games.tricks.tresette_cards import (
    HAND_POINTS,
    ORDER,
    aces_and_thirds,
    pile_points,
)
from tavolo.cardgames.games.tricks.tresette_table import TresetteState, TresetteTable

DECLARABLE_RANKS = ("A", "2", "3")
POINTS_FOR = {"napoletana": 3, "three": 3, "four": 4}
ACCUSI_TARGET = "points:31"


def declarations_in(hand: tuple[str, ...]) -> list[tuple[str, tuple[str, ...]]]:
    """Every combination a hand may declare (TRESETTE-5), in a stable order."""
    found: list[tuple[str, tuple[str, ...]]] = []
    for suit in italian_cards.SUITS:
        napoletana = tuple(rank + suit for rank in DECLARABLE_RANKS)
        if all(c in hand for c in napoletana):
            found.append(("napoletana", napoletana))
    for rank in DECLARABLE_RANKS:
        same = tuple(rank + suit for suit in italian_cards.SUITS if rank + suit in hand)
        if len(same) == 4:
            found.append(("four", same))
        elif len(same) == 3:
            found.append(("three", same))
    return found


def parse_length(value: str) -> tuple[str, int]:
    kind, _, number = value.partition(":")
    return kind, int(number)


class Tresette(TresetteTable):
    """Tresette a vincere for two partnerships, or two players with a stock."""

    name = "tresette"
    title = "Tresette"
    min_players = 2
    max_players = 4
    option_specs = (
        OptionSpec("players", 4, "4 in two partnerships, or 2 with a stock", (4, 2)),
        OptionSpec("accusi", False, "declare napoletana, three or four A/2/3", (False, True)),
        OptionSpec(
            "match_length",
            "points:21",
            "points:T ends at T points (31 is usual with accusi); hands:N after N hands",
            ("points:21", "points:31", "hands:3", "hands:5"),
        ),
        OptionSpec(
            "ko", False, "a drawn hands:N match plays up to 3 tie-break hands", (False, True)
        ),
    )

    def seat_counts(self) -> tuple[int, ...]:
        return (2, 4)

    # -- knock-out play (RULES §0 rule 14, PCG-7) -------------------------------------

    offers_knock_out = True
    own_tie_breaks = True
    """With its ``ko`` option on (a KO table turns it on) a drawn match plays up to three
    tie-break hands, the third lost by the side that took the last trick."""

    def last_capture(self, state: TresetteState) -> int | None:
        return trick_winner(state.last_trick, ORDER, None) if state.last_trick else None

    def partners(self, state: TresetteState, seat: int) -> frozenset[int]:
        return frozenset(state.sides[state.side_of(seat)])

    def new_game(
        self, options: Mapping[str, JSON] | None, seats: int, seed: bytes
    ) -> TresetteState:
        """With accusi on and no length given, the match is to 31 (TRESETTE-6)."""
        given = dict(options or {})
        if given.get("accusi") is True and "match_length" not in given:
            given["match_length"] = ACCUSI_TARGET
        return super().new_game(given, seats, seed)

    def removed(self, seats: int) -> tuple[str, ...]:
        return ()

    def partnerships(self, seats: int) -> bool:
        return seats == 4

    # -- accusi ---------------------------------------------------------------------

    def _declarations(self, state: TresetteState, seat: int) -> list[Action]:
        if not state.options["accusi"] or state.has_played[seat]:
            return []
        done = {(name, cards) for name, cards, _ in state.declarations[seat]}
        return [
            Action(ActionKind.CALL, call=name, cards=cards)
            for name, cards in declarations_in(state.hands[seat])
            if (name, cards) not in done
        ]

    def _refuse_declaration(self, state: TresetteState, seat: int, action: Action) -> RuleError:
        if not state.options["accusi"]:
            return RuleError("accusi is off at this table", reason="OPTION_OFF")
        if state.has_played[seat]:
            return RuleError(
                "declarations are made on your first turn, before you play",
                reason="DECLARATION_INVALID",
            )
        return RuleError(
            "declare a combination you hold, once: napoletana (A-2-3 of a suit), "
            "three or four aces, 2s or 3s",
            reason="DECLARATION_INVALID",
        )

    def _declare(
        self, state: TresetteState, seat: int, action: Action
    ) -> tuple[TresetteState, list[Event]]:
        name, cards = str(action.call), action.cards
        points = POINTS_FOR[name]
        declared = list(state.declarations)
        declared[seat] = (*declared[seat], (name, cards, points))
        shown = (*state.shown, *(c for c in cards if c not in state.shown))
        after = state.replace(declarations=tuple(declared), shown=shown)
        event: Event = {
            "type": "declared",
            "seat": seat,
            "call": name,
            "cards": list(cards),
            "points": points,
        }
        return after, [event]

    # -- the hand's score and the match -----------------------------------------------

    def _finish_hand(
        self, state: TresetteState, last_winner: int, events: list[Event]
    ) -> tuple[TresetteState, list[Event]]:
        last_side = state.side_of(last_winner)
        piles = [[c for s in side for c in state.taken[s]] for side in state.sides]
        card_points = [pile_points(p) for p in piles]  # a side's thirds count together
        declared = per_side([sum(p for _, _, p in d) for d in state.declarations], state.sides)
        points = [
            card_points[i] + declared[i] + (1 if i == last_side else 0)
            for i in range(len(state.sides))
        ]
        assert sum(points) - sum(declared) == HAND_POINTS
        summary: dict[str, JSON] = {
            "hand": state.hand_no,
            "aces_and_thirds": [list(aces_and_thirds(p)) for p in piles],
            "declared": declared,
            "last_trick_side": last_side,
            "points": points,
            "tie_break": bool(state.tied),
        }
        events.append({"type": "hand_scored", **summary})
        state = state.replace(last_hand=summary)
        kind, number = parse_length(str(state.options["match_length"]))
        if state.tied:
            ranking, level = tiebreak_ranking(
                state.tied, points, state.tiebreaks + 1, last_side, state.ranking
            )
            state = state.replace(tiebreaks=state.tiebreaks + 1, ranking=ranking)
            if not level:
                return self.game_over(state, "tie_break", events)
            return self.next_hand(state.replace(tied=level), events)
        totals = tuple(t + p for t, p in zip(state.totals, points, strict=True))
        state = state.replace(totals=totals, score_sheet=(*state.score_sheet, tuple(points)))
        if kind == "points":
            if max(totals) < number:
                return self.next_hand(state, events)
            if totals[0] == totals[1]:
                # RULES 6.6 with §0.13: tie-break hands order the sides, at most 3, and
                # their points stay out of the totals.
                events.append({"type": "tie_break_started", "sides": [0, 1]})
                return self.next_hand(state.replace(tied=(0, 1)), events)
            return self.game_over(state, "target", events)
        if state.hand_no < number:
            return self.next_hand(state, events)
        if totals[0] == totals[1] and state.options["ko"]:
            events.append({"type": "tie_break_started", "sides": [0, 1]})
            return self.next_hand(state.replace(tied=(0, 1)), events)
        return self.game_over(state, "drawn" if totals[0] == totals[1] else "hands", events)

    def outcome(self, state: TresetteState) -> Outcome | None:
        if state.phase != "over":
            return None
        ranked = [t * 10 + r for t, r in zip(state.totals, state.ranking, strict=True)]
        return Outcome(
            places=places_from_measure(
                [ranked[state.side_of(s)] for s in range(state.seats)], lower_is_better=False
            ),
            scores=tuple(state.totals[state.side_of(s)] for s in range(state.seats)),
            detail={
                "reason": state.end_reason,
                "totals": list(state.totals),
                "hands": state.hand_no,
                "tie_breaks": state.tiebreaks,
            },
        )
