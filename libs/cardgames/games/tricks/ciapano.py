"""Tresette a perdere, Ciapanò (RULES §6, TRESETTE-1…3 and 8…11): every player for
themselves, and the aim is to take *fewer* points.

The deal, following suit and the order 3 2 A R C F 7 6 5 4 are the shared table's
(:mod:`~tavolo.cardgames.games.tricks.tresette_table`). Each hand:

1. *Deal* (TRESETTE-1, 8): ``players = 4`` deals 10 each; with 3 the 4 of bastoni leaves
   the deck and 13 are dealt each **[decision]**. Nobody is obliged to win a trick.
2. *Penalty points* (TRESETTE-9): each player scores aces + ⌊thirds ÷ 3⌋; the last-trick
   winner also takes 11 minus everyone's sum, so every hand totals 11.
3. *Cappotto* (TRESETTE-10): a player who takes all 11 scores 0, everyone else 11.
4. *Match* (TRESETTE-11): it ends after the hand in which anyone reaches ``limit = 21``
   (31); those at or over it are placed last. Everyone ranks by total, lowest first, and
   equal totals share. With ``match_length = hands:N`` the lowest total after N hands wins.
"""

from __future__ import annotations

from tavolo.cardgames.actions import Action
from tavolo.cardgames.contract import JSON, Event, OptionSpec, Outcome, places_from_measure
from tavolo.cardgames.games.tricks.core import trick_winner
from tavolo.cardgames.games.tricks.tresette_cards import (
    HAND_POINTS,
    ORDER,
    aces_and_thirds,
    pile_points,
)
from tavolo.cardgames.games.tricks.tresette_table import TresetteState, TresetteTable

REMOVED_FOR_THREE = "4B"


def penalty_points(piles: list[tuple[str, ...]], last_winner: int) -> tuple[list[int], bool]:
    """Each player's points for a hand, and whether it was a cappotto (TRESETTE-9, 10)."""
    points = [pile_points(p) for p in piles]
    points[last_winner] += HAND_POINTS - sum(points)
    if HAND_POINTS in points:
        return [0 if p == HAND_POINTS else HAND_POINTS for p in points], True
    return points, False


class Ciapano(TresetteTable):
    """Ciapanò for 3 or 4 players, each for themselves."""

    name = "ciapano"
    title = "Ciapanò (Tresette a perdere)"
    min_players = 3
    max_players = 4
    option_specs = (
        OptionSpec("players", 4, "seats at the table", (4, 3)),
        OptionSpec("limit", 21, "reaching this many points ends the match", (21, 31)),
        OptionSpec(
            "match_length",
            "limit",
            "limit: until someone reaches the limit; hands:N: the lowest after N hands",
            ("limit", "hands:3", "hands:5"),
        ),
    )

    # -- knock-out play (RULES §0 rule 14, PCG-7) -------------------------------------

    offers_knock_out = True

    def tie_break_hand(self, state: TresetteState) -> tuple[TresetteState, list[Event]]:
        """One more hand dealt on from the drawn match, scored alone: fewest points wins."""
        options = {**state.options, "match_length": f"hands:{state.hand_no + 1}"}
        zero = (0,) * len(state.totals)
        fresh = state.replace(options=options, totals=zero, score_sheet=(), end_reason=None)
        return self.next_hand(fresh, [])

    def last_capture(self, state: TresetteState) -> int | None:
        """The seat that took the last trick of the hand."""
        return trick_winner(state.last_trick, ORDER, None) if state.last_trick else None

    def removed(self, seats: int) -> tuple[str, ...]:
        return (REMOVED_FOR_THREE,) if seats == 3 else ()

    def partnerships(self, seats: int) -> bool:
        return False

    def _declarations(self, state: TresetteState, seat: int) -> list[Action]:
        return []

    def _finish_hand(
        self, state: TresetteState, last_winner: int, events: list[Event]
    ) -> tuple[TresetteState, list[Event]]:
        points, cappotto = penalty_points(list(state.taken), last_winner)
        totals = tuple(t + p for t, p in zip(state.totals, points, strict=True))
        summary: dict[str, JSON] = {
            "hand": state.hand_no,
            "aces_and_thirds": [list(aces_and_thirds(p)) for p in state.taken],
            "last_trick_side": last_winner,
            "cappotto": cappotto,
            "points": points,
        }
        events.append({"type": "hand_scored", **summary})
        state = state.replace(
            last_hand=summary,
            totals=totals,
            score_sheet=(*state.score_sheet, tuple(points)),
        )
        length = str(state.options["match_length"])
        if length == "limit":
            if max(totals) >= int(state.options["limit"]):
                return self.game_over(state, "limit", events)
        elif state.hand_no >= int(length.partition(":")[2]):
            return self.game_over(state, "hands", events)
        return self.next_hand(state, events)

    def outcome(self, state: TresetteState) -> Outcome | None:
        if state.phase != "over":
            return None
        return Outcome(
            places=places_from_measure(list(state.totals), lower_is_better=True),
            scores=state.totals,
            detail={
                "reason": state.end_reason,
                "totals": list(state.totals),
                "hands": state.hand_no,
                "limit": state.options["limit"],
            },
        )
