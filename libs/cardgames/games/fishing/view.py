"""What every seat may see of a fishing table (RULES §0.7): everything but the hidden hands
and the stock.

Every card played this hand was played face up, so this hand's plays (with what each
took and whether it was a scopa) are public, as they are to a player who watches the
table; so are the sizes of the hands, the stock and each side's captures. A Cirulla hand
declared with an accuso lies face up for the rest of its deal (CIRULLA-6). Cards of
earlier hands are not named: they are back in the shuffled deck.
"""

from __future__ import annotations

from typing import Any

from tavolo.cardgames.contract import JSON
from tavolo.cardgames.games.fishing.state import NOBODY, FishingState


def public_view(state: FishingState, game: str) -> dict[str, JSON]:
    """The table as everyone sees it; a fresh dict each time, safe to change."""
    rules, deck = state.rules, state.deck
    shown = {str(s): list(state.hands[s]) for s in range(state.seats) if state.declared[s]}
    tiebreak: dict[str, Any] | None = None
    if state.tied or state.tiebreaks:
        tiebreak = {"tied": list(state.tied), "hands": [list(r) for r in state.tiebreaks]}
    return {
        "game": game,
        "deck": rules.deck_name,
        "hand": state.hand_no,
        "dealer": state.dealer,
        "turn": None if state.over else state.turn,
        "sides": [list(side) for side in state.sides],
        "table": list(state.table),
        "opening": list(state.opening),
        "hand_sizes": [len(h) for h in state.hands],
        "stock": len(state.stock),
        "captured": [len(p) for p in state.piles],
        "denari": [sum(1 for c in p if deck.is_denari(c)) for p in state.piles],
        "scope": list(state.scope),
        "accusi": list(state.accusi) if rules.accusi else None,
        "declared": list(state.declared) if rules.accusi else None,
        "shown": shown,
        "bonus": list(state.bonus) or None,
        "last_capturer": None if state.last_capturer == NOBODY else state.last_capturer,
        "plays": [
            {"seat": seat, "card": card, "capture": list(taken), "scopa": scopa}
            for seat, card, taken, scopa in state.plays
        ],
        "totals": list(state.totals),
        "sheet": [list(row) for row in state.sheet],
        "match_length": f"{rules.match_kind}:{rules.match_number}",
        "last_count": [c.to_dict() for c in state.last_count] if state.last_count else None,
        "tiebreak": tiebreak,
        "cappotto": None if state.cappotto_side == NOBODY else state.cappotto_side,
        "over": state.over,
    }
