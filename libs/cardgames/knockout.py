"""Knock-out play (RULES §0 rule 14, PCG-7): a match that may not end drawn.

A drawn match gets tie-break hands, up to three; among the tied sides the one that does
better in a hand wins (more points, or in games counted in hands won the hand's winner:
each game's outcome of that hand ranks it). If the third is drawn too, the side that made
the last capture in it loses (the last trick in trick games, the last play in games with
neither). Tie-break points never enter the match totals.

Games whose own rules already do this inside the match (``own_tie_breaks``: the fishing
games, Briscola, Tresette, Spades) are taken as they end, their ``ko`` option turned on.

:class:`KnockOut` wraps a game that offers this and is itself a :class:`Game`, so the
engine, replay and the bots (which see only views) treat a KO table like any other: each
tie-break hand is dealt and played in the same event stream, and the outcome's
``detail["knock_out"]`` says how the match was decided.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from tavolo.cardgames.actions import Action
from tavolo.cardgames.contract import JSON, Event, Game, Outcome, Timer, View
from tavolo.cardgames.errors import GameOver, InvalidOptions
from tavolo.cardgames.rng import SeededRandom

MAX_TIE_BREAK_HANDS = 3
# How a game that plays its own tie-break hands names the way its match ended, as the
# knock-out outcome's ``decided_by`` says it.
_OWN_REASONS = {
    "tie_break": "tie_break",
    "ko": "last_capture",
    "last_trick": "last_capture",
    "last_play": "last_capture",
}


@dataclass(frozen=True, slots=True)
class KnockOutState:
    """The match, then each tie-break hand in turn, in ``current``.

    ``tied`` are the seats that shared first place in the match (empty while it runs);
    ``hands`` holds each finished tie-break hand's scores, ``hand_places`` its places.
    """

    current: Any
    match: Outcome | None = None
    tied: tuple[int, ...] = ()
    hands: tuple[tuple[int, ...], ...] = ()
    outcome: Outcome | None = None
    hand_places: tuple[tuple[int, ...], ...] = ()


def knock_out(game: Game[Any]) -> KnockOut:
    """The KO form of ``game``; refused, saying why, for a game that does not offer it."""
    if not game.offers_knock_out:
        raise InvalidOptions(
            f"{game.title} does not offer knock-out play: it supplies no tie-break hand"
            " and last capture (RULES §0 rule 14)",
            reason="KNOCKOUT_UNSUPPORTED",
            metadata={"game": game.name},
        )
    return KnockOut(game)


class KnockOut(Game[KnockOutState]):
    """``game`` played to a decided result; see the module docstring."""

    name = "knock_out"
    title = "Knock-out"
    min_players = 2
    max_players = 10

    def __init__(self, game: Game[Any]) -> None:
        self.game = game

    # -- set-up -----------------------------------------------------------------------

    def options(self, given: Mapping[str, JSON] | None = None) -> dict[str, JSON]:
        return self.game.options(self._ko_options(given))

    def new_game(
        self, options: Mapping[str, JSON] | None, seats: int, seed: bytes
    ) -> KnockOutState:
        return KnockOutState(current=self.game.new_game(self._ko_options(options), seats, seed))

    def _ko_options(self, given: Mapping[str, JSON] | None) -> Mapping[str, JSON] | None:
        """A game with its own ``ko`` option (Briscola, Tresette) plays it turned on."""
        if any(spec.name == "ko" for spec in self.game.option_specs):
            return {**(given or {}), "ko": True}
        return given

    def _new_game(self, options: dict[str, JSON], seats: int, rng: SeededRandom) -> KnockOutState:
        raise NotImplementedError("a knock-out match is dealt by its game's new_game")

    # -- play -------------------------------------------------------------------------

    def apply(
        self, state: KnockOutState, seat: int, action: Action
    ) -> tuple[KnockOutState, list[Event]]:
        if state.outcome is not None:
            raise GameOver("the game is over")
        current, events = self.game.apply(state.current, seat, action)
        return self._after(replace(state, current=current), events)

    def _after(
        self, state: KnockOutState, events: list[Event]
    ) -> tuple[KnockOutState, list[Event]]:
        ended = self.game.outcome(state.current)
        if ended is None:
            return state, events
        match = state.match
        if match is None and self.game.own_tie_breaks:
            how = _OWN_REASONS.get(str(ended.detail.get("reason", "")), "match")
            return self._decide(state, ended, ended.places, how, None, events)
        if match is None:
            tied = ended.winners()
            if self._sides(state, tied) < 2:
                return self._decide(state, ended, ended.places, "match", None, events)
            state = replace(state, match=ended, tied=tied)
            return self._next_hand(state, events)
        hands = (*state.hands, ended.scores)
        state = replace(state, hands=hands, hand_places=(*state.hand_places, ended.places))
        keys = _keys(state)
        best = min(keys.values())
        leaders = tuple(s for s in state.tied if keys[s] == best)
        if self._sides(state, leaders) < 2:
            return self._decide(state, match, _rank(state, keys), "tie_break", None, events)
        if len(hands) < MAX_TIE_BREAK_HANDS:
            return self._next_hand(state, events)
        last = self.game.last_capture(state.current)
        if last is None or last not in leaders:
            # Nobody among the tied sides captured: they share their place (RULES §0.13).
            return self._decide(state, match, _rank(state, keys), "shared", last, events)
        losers = self.game.partners(state.current, last)
        last_loses = {s: (k, s in losers) for s, k in keys.items()}
        return self._decide(state, match, _rank(state, last_loses), "last_capture", last, events)

    def _sides(self, state: KnockOutState, seats: tuple[int, ...]) -> int:
        return len({min(self.game.partners(state.current, s)) for s in seats})

    def _next_hand(
        self, state: KnockOutState, events: list[Event]
    ) -> tuple[KnockOutState, list[Event]]:
        number = len(state.hands) + 1
        current, dealt = self.game.tie_break_hand(state.current)
        events.append({"type": "tie_break_hand", "number": number, "tied": list(state.tied)})
        events.extend(dealt)
        return replace(state, current=current), events

    def _decide(
        self,
        state: KnockOutState,
        match: Outcome,
        places: tuple[int, ...],
        decided_by: str,
        last_capture: int | None,
        events: list[Event],
    ) -> tuple[KnockOutState, list[Event]]:
        how: dict[str, JSON] = {
            "decided_by": decided_by,
            "tie_break_hands": [list(h) for h in state.hands],
        }
        if last_capture is not None:
            how["last_capture"] = last_capture
        outcome = Outcome(
            places=places, scores=match.scores, detail={**match.detail, "knock_out": how}
        )
        events.append({"type": "knock_out_decided", "places": list(places), **how})
        return replace(state, outcome=outcome), events

    # -- delegated to the hand being played -------------------------------------------

    def _legal_actions(self, state: KnockOutState, seat: int) -> list[Action]:
        return self.game.legal_actions(state.current, seat)

    def _apply(
        self, state: KnockOutState, seat: int, action: Action
    ) -> tuple[KnockOutState, list[Event]]:
        return self.apply(state, seat, action)

    def listed_form(self, state: KnockOutState, seat: int, action: Action) -> Action:
        return self.game.listed_form(state.current, seat, action)

    def view(self, state: KnockOutState, seat: int | None) -> View:
        inner = self.game.view(state.current, seat)
        ko: dict[str, JSON] = {"tie_break_hand": len(state.hands) + 1 if state.tied else 0}
        if state.tied:
            ko["tied"] = list(state.tied)
            ko["tie_break_scores"] = [list(h) for h in state.hands]
        return replace(inner, public={**inner.public, "knock_out": ko})

    def outcome(self, state: KnockOutState) -> Outcome | None:
        return state.outcome

    def to_act(self, state: KnockOutState) -> frozenset[int]:
        return frozenset() if state.outcome is not None else self.game.to_act(state.current)

    def seats(self, state: KnockOutState) -> int:
        return self.game.seats(state.current)

    def timers(self, state: KnockOutState) -> tuple[Timer, ...]:
        return () if state.outcome is not None else self.game.timers(state.current)

    def cards_in_play(self, state: KnockOutState) -> list[str]:
        return self.game.cards_in_play(state.current)

    def hidden_cards(self, state: KnockOutState, seat: int | None) -> list[str]:
        return self.game.hidden_cards(state.current, seat)

    def shown_cards(self, state: KnockOutState, seat: int) -> list[str]:
        return self.game.shown_cards(state.current, seat)

    def public_record(self, state: KnockOutState) -> list[str]:
        return self.game.public_record(state.current)


def _keys(state: KnockOutState) -> dict[int, tuple[int, ...]]:
    """Each tied seat's places in the tie-break hands so far, in order: the first hand
    ranks the tied sides, and a later hand only orders those the earlier ones left
    level (RULES §0.13: among the tied sides, more points in the hand ranks higher)."""
    return {s: tuple(places[s] for places in state.hand_places) for s in state.tied}


def _rank(state: KnockOutState, keys: Mapping[int, Any]) -> tuple[int, ...]:
    """The match's places with the tied seats ordered by ``keys`` (lower first): each
    tied seat's place is its group's place plus the tied seats ahead of it, so equal
    keys share a place (RULES §0.12)."""
    assert state.match is not None
    top = min(state.match.places[s] for s in state.tied)
    return tuple(
        top + sum(1 for t in state.tied if keys[t] < keys[s]) if s in state.tied else place
        for s, place in enumerate(state.match.places)
    )
