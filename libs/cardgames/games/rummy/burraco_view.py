"""What every seat may see of a Burraco table (RULES 0.7): everything but the hands, the
stock and the pozzetti, which show only their sizes. The discard pile lies spread, so
all of it is on view."""

from __future__ import annotations

from tavolo.cardgames.contract import JSON
from tavolo.cardgames.games.rummy.burraco_scoring import burraco_kind
from tavolo.cardgames.games.rummy.burraco_state import OVER, BurracoState, members
from tavolo.cardgames.games.rummy.deck import pretty


def public_view(state: BurracoState) -> dict[str, JSON]:
    """The table as everyone sees it; a fresh dict each time, safe to change."""
    semi = state.options.semipulito
    return {
        "phase": state.phase,
        "hand": state.hand_no,
        "dealer": state.dealer,
        "turn": None if state.phase == OVER else state.turn,
        "sides": [list(members(state, side)) for side in (0, 1)],
        "hand_sizes": [len(h) for h in state.hands],
        "stock_size": len(state.stock),
        "discard": list(state.discard),
        "pozzetti": [len(p) for p in state.pozzetti],
        "took_pozzetto": list(state.took_pozzetto),
        "melds": [
            [{**m.to_json(), "burraco": burraco_kind(m, semi)} for m in side]
            for side in state.melds
        ],
        "may_not_discard": pretty(state.banned) if state.banned else None,
        "last_turn": state.last_turn,
        "totals": list(state.totals),
        "match_length": state.options.match,
        "semipulito": semi,
        "score_sheet": [list(line) for line in state.score_sheet],
        "last_hand": _copy(state.last_hand),
        "tie_breaks": state.tiebreaks,
        "winner_side": state.winner,
    }


def _copy(summary: object) -> JSON:
    if summary is None:
        return None
    assert isinstance(summary, dict)
    return {
        **summary,
        "sides": [dict(s) for s in summary["sides"]],
        "totals": list(summary["totals"]),
    }
