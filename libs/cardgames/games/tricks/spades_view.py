"""What every seat may see of a Spades table (RULES 0.7): everything but the hands.

The public part is the same for every seat and for spectators; the engine adds the
seat's own hand. Finished tricks are not kept on view, except the last one (as a
player can look at the last trick at a real table); the bots' memory of earlier tricks
is built from these views alone.
"""

from __future__ import annotations

from collections.abc import Mapping

from tavolo.cardgames.contract import JSON
from tavolo.cardgames.games.tricks.spades_scoring import TRICKS_PER_ROUND
from tavolo.cardgames.games.tricks.spades_state import OVER, SEATS, TEAMS, SpadesState
from tavolo.cardgames.games.tricks.spades_tricks import trick_winner


def public_view(state: SpadesState) -> dict[str, JSON]:
    """The table as everyone sees it; a fresh dict each time, safe to change."""
    return {
        "phase": state.phase,
        "round": state.round,
        "first_bidder": state.first_bidder,
        "dealer": (state.first_bidder + 1) % SEATS,
        "turn": None if state.phase == OVER else state.turn,
        "teams": [list(t) for t in TEAMS],
        "bids": list(state.bids),
        "blind_nil": list(state.blind),
        "deciding_blind_nil": list(state.undecided),
        "tricks_won": list(state.tricks_won),
        "trick_number": min(state.tricks_done + 1, TRICKS_PER_ROUND),
        "trick": [{"seat": s, "card": c} for s, c in state.trick],
        "last_trick": trick_json(state.last_trick, state.tricks_done),
        "spades_broken": state.spades_broken,
        "hand_sizes": [len(h) for h in state.hands],
        "scores": list(state.scores),
        "bags": list(state.bags),
        "target": state.options.target,
        "bag_points": state.options.bag_points,
        "score_sheet": [list(line) for line in state.score_sheet],
        "last_round": copy_summary(state.last_round) if state.last_round else None,
        "winner_team": state.winner,
    }


def trick_json(trick: tuple[tuple[int, str], ...], number: int) -> dict[str, JSON] | None:
    if not trick:
        return None
    return {
        "number": number,
        "plays": [{"seat": s, "card": c} for s, c in trick],
        "winner": trick_winner(trick),
    }


def copy_summary(summary: Mapping[str, JSON]) -> dict[str, JSON]:
    """A round summary that its receiver may change without touching the state."""
    return {
        **summary,
        "bids": list(summary["bids"]),
        "blind_nil": list(summary["blind_nil"]),
        "tricks": list(summary["tricks"]),
        "teams": [dict(team) for team in summary["teams"]],
    }
