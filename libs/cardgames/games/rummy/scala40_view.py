"""What every seat may see of a Scala 40 table (RULES 0.7): everything but the hands and
the stock. The pozzo's cards were all played face up, so all of it is on view."""

from __future__ import annotations

from tavolo.cardgames.contract import JSON
from tavolo.cardgames.games.rummy.deck import pretty
from tavolo.cardgames.games.rummy.scala40_scoring import opening_value
from tavolo.cardgames.games.rummy.scala40_state import OVER, Scala40State


def public_view(state: Scala40State) -> dict[str, JSON]:
    """The table as everyone sees it; a fresh dict each time, safe to change."""
    first_pending = len(state.melds) - state.pending
    pending = [m for _, m in state.melds[first_pending:]]
    return {
        "phase": state.phase,
        "hand": state.hand_no,
        "dealer": state.dealer,
        "turn": None if state.phase == OVER else state.turn,
        "hand_sizes": [len(h) for h in state.hands],
        "stock_size": len(state.stock),
        "pozzo": list(state.pozzo),
        "melds": [
            {**m.to_json(), "owner": owner, "pending": i >= first_pending}
            for i, (owner, m) in enumerate(state.melds)
        ],
        "opening_so_far": opening_value(pending) if pending else 0,
        "opened": list(state.opened),
        "pozzo_card_taken": pretty(state.taken) if state.taken else None,
        "first_round": state.turns_done < sum(state.alive),
        "alive": list(state.alive),
        "totals": list(state.totals),
        "hands_won": list(state.hands_won),
        "elimination": state.options.elimination,
        "match_length": state.options.match,
        "score_sheet": [list(line) for line in state.score_sheet],
        "last_hand": _copy(state.last_hand),
        "places": list(state.places) if state.places else None,
    }


def _copy(summary: object) -> JSON:
    if summary is None:
        return None
    assert isinstance(summary, dict)
    return {
        **summary,
        "players": [dict(p) for p in summary["players"]],
        "totals": list(summary["totals"]),
        "eliminated": list(summary["eliminated"]),
    }
