"""Our Spades and Hearts as OpenSpiel Python games, one deal each, so that OpenSpiel's
information-set MCTS searches our rules (``bench_ismcts.py``).

OpenSpiel's C++ ``ISMCTSBot`` releases Python's lock while it searches, so it cannot
call back into a Python game (it crashes, a segmentation fault); its Python port,
``open_spiel.python.algorithms.ismcts.ISMCTSBot`` (the same algorithm, "adapted from the
C++ implementation"), can, and resamples a world through :meth:`resample_from_infostate`.

- The deal comes from our engine (``seed``): there are no chance nodes. A state wraps one
  of ours; every move goes through our ``legal_actions`` and ``apply``.
- Action ids: a card is its place in the 52-card deck (a pass in Hearts' passing phase,
  a play after), a bid is 52 + the tricks bid (0 is nil).
- Hearts' four seats choose their passes at once in our rules; here they choose in seat
  order, each choice hidden from the other seats (their information states show "?").
- An information state is the seat, its hand, and every move it has seen in order.
- The deal ends when its last trick is scored. Returns: Spades, a side's score change
  less the other side's; Hearts, the mean points the other seats took less the seat's
  own (our scoring: the moon, the Q♠); both over :data:`SCALE`, so one searched move
  weighs points near ±1, where UCT's exploration constant 2 is meant to work.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pyspiel

from spiel.resample import deal
from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.games.french_deck import full_deck
from tavolo.cardgames.registry import get_game

DECK = full_deck()
CARD_ID = {card: n for n, card in enumerate(DECK)}
BID_BASE = 52
SCALE = {"spades": 100.0, "hearts": 13.0}
OPTIONS: dict[str, dict[str, Any]] = {"hearts": {"rules": "standard", "target": 1}, "spades": {}}
"""Spades at its default rules (a match to 500, of which the first deal is played);
Hearts a one-hand match with the standard rules (the first hand passes left)."""


def game_type(name: str) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=f"python_tavolo_{name}",
        long_name=f"Tavolo {name.title()} (one deal, our rules)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=4,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={"seed": "0"},
    )


GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=BID_BASE + 14,
    max_chance_outcomes=0,
    num_players=4,
    min_utility=-10.0,
    max_utility=10.0,
    utility_sum=0.0,
    max_game_length=4 + 3 * 4 + 52,
)


def to_id(action: Action) -> int:
    if action.kind is ActionKind.BID:
        assert action.amount is not None
        return BID_BASE + action.amount
    return CARD_ID[action.cards[0]]


def is_over(name: str, rules: Any, ours: Any) -> bool:
    """The deal is over: Spades' first round scored, Hearts' one-hand match ended."""
    if name == "spades":
        return bool(ours.phase == "over" or ours.round > 1)
    return rules.outcome(ours) is not None


def snapshot(game: OurDeal, ours: Any, moves: tuple[Any, ...], plays: tuple[Any, ...]) -> Snapshot:
    over = is_over(game.name, game.rules, ours)
    player = int(pyspiel.PlayerId.TERMINAL) if over else min(game.rules.to_act(ours))
    return Snapshot(game, ours, moves, plays, over, player)


def scores(name: str, ours: Any) -> list[float]:
    """Each seat's score in our engine: its side's (Spades), its points (Hearts)."""
    if name == "spades":
        return [float(ours.scores[s % 2]) for s in range(4)]
    return [float(x) for x in ours.totals]


BIDS = tuple(Action(ActionKind.BID, amount=n) for n in range(14))
PLAYS = tuple(Action(ActionKind.PLAY, cards=(c,)) for c in DECK)
PASSES = tuple(Action(ActionKind.PASS_CARDS, cards=(c,)) for c in DECK)


def our_action(name: str, ours: Any, action_id: int) -> Action:
    """The action an id stands for now: a bid, a pass (Hearts' passing) or a play."""
    if action_id >= BID_BASE:
        return BIDS[action_id - BID_BASE]
    return PASSES[action_id] if name == "hearts" and ours.phase == "pass" else PLAYS[action_id]


class Rollout:
    """OpenSpiel's random-rollout evaluator (``mcts.RandomRolloutEvaluator``, one
    rollout: uniformly random legal moves to the end, then the returns; a uniform prior)
    played on our state directly rather than through OpenSpiel's state, several times
    faster and the same evaluation."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def evaluate(self, state: OurState) -> list[float]:
        snap = state.snap
        game, ours, rand = snap.game, snap.ours, self.rng.random
        rules, name = game.rules, game.name
        while not is_over(name, rules, ours):
            seat = min(rules.to_act(ours))
            legal = rules.legal_actions(ours, seat)
            ours, _ = rules.apply(ours, seat, legal[int(rand() * len(legal))])
        return outcome_returns(name, scores(name, ours), game.before)

    def prior(self, state: OurState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def outcome_returns(name: str, now: list[float], before: list[float]) -> list[float]:
    change = [a - b for a, b in zip(now, before, strict=True)]
    if name == "spades":
        return [(change[s % 2] - change[1 - s % 2]) / SCALE[name] for s in range(4)]
    return [((sum(change) - change[s]) / 3 - change[s]) / SCALE[name] for s in range(4)]


@dataclass(frozen=True)
class Snapshot:
    """Everything a state holds, immutable, so OpenSpiel's clone (a deep copy of the
    state's attributes) shares it instead of copying our state field by field."""

    game: OurDeal
    ours: Any
    moves: tuple[tuple[int, int, bool], ...]
    """(seat, action id, whether it is a pass: hidden from the other seats)."""
    plays: tuple[tuple[int, str], ...]
    """(seat, card) of every card played, in order: where the voids come from."""
    over: bool
    player: int
    """Who is to move (the lowest of the seats our rules wait for), computed once."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Snapshot:
        return self


class OurDeal(pyspiel.Game):
    """One deal of our ``name`` (``spades`` or ``hearts``), dealt from ``seed``."""

    name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = params or {}
        super().__init__(game_type(self.name), GAME_INFO, params)
        self.rules = get_game(self.name)
        seed = str(params.get("seed", "0")).encode()
        self.start = self.rules.new_game(OPTIONS[self.name], 4, seed)
        self.before = scores(self.name, self.start)
        self.first = snapshot(self, self.start, (), ())

    def new_initial_state(self) -> OurState:
        return OurState(self)


class SpadesDeal(OurDeal):
    name = "spades"


class HeartsDeal(OurDeal):
    name = "hearts"


GAMES = {"spades": SpadesDeal, "hearts": HeartsDeal}
for _cls in GAMES.values():
    pyspiel.register_game(game_type(_cls.name), _cls)


class OurState(pyspiel.State):
    """A moment of the deal: our state, the moves so far, the cards played."""

    def __init__(self, game: OurDeal) -> None:
        super().__init__(game)
        self.snap = game.first

    # -- what OpenSpiel asks -----------------------------------------------------------

    def current_player(self) -> int:
        return self.snap.player

    def is_terminal(self) -> bool:
        return self.snap.over

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(to_id(a) for a in self.snap.game.rules.legal_actions(self.snap.ours, player))

    def _apply_action(self, action_id: int) -> None:
        snap = self.snap
        seat = snap.player
        action = our_action(snap.game.name, snap.ours, action_id)
        ours, _ = snap.game.rules.apply(snap.ours, seat, action)
        hidden = action.kind is ActionKind.PASS_CARDS
        plays = snap.plays
        if action.kind is ActionKind.PLAY:
            plays = (*plays, (seat, action.cards[0]))
        self.snap = snapshot(snap.game, ours, (*snap.moves, (seat, action_id, hidden)), plays)

    def _action_to_string(self, player: int, action_id: int) -> str:
        return f"bid {action_id - BID_BASE}" if action_id >= BID_BASE else DECK[action_id]

    def changes(self) -> list[float]:
        """Each seat's score change over the deal in our engine."""
        game = self.snap.game
        now = scores(game.name, self.snap.ours)
        return [a - b for a, b in zip(now, game.before, strict=True)]

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * 4
        game = self.snap.game
        return outcome_returns(game.name, scores(game.name, self.snap.ours), game.before)

    def information_state_string(self, player: int | None = None) -> str:
        seat = self.current_player() if player is None else player
        seen = ",".join(
            f"{s}:{'?' if hidden and s != seat else a}" for s, a, hidden in self.snap.moves
        )
        return f"{seat}|{' '.join(self.snap.ours.hands[seat])}|{seen}"

    def __str__(self) -> str:
        return self.information_state_string(0)

    # -- a world drawn from one seat's knowledge --------------------------------------

    def resample_from_infostate(self, player: int, sampler: Any = None) -> OurState:
        """Another deal ``player`` cannot tell from this one; ``sampler`` is a seeded
        ``random.Random`` (OpenSpiel's own sampler is not used)."""
        rng = sampler if isinstance(sampler, random.Random) else random.Random()
        snap = self.snap
        ours = snap.ours
        hearts = snap.game.name == "hearts"
        known: dict[int, list[str]] = {}
        if hearts and ours.phase != "pass" and ours.pass_to:
            known[(player + ours.pass_to) % 4] = list(ours.passed[player])
        hands = deal(ours.hands, player, snap.plays, known, rng)
        world = ours.copy()
        world.hands = hands
        if hearts and ours.phase == "pass":
            world.chosen = tuple(
                ours.chosen[s] if s == player else tuple(rng.sample(hands[s], len(ours.chosen[s])))
                for s in range(4)
            )
        clone = OurState(snap.game)
        clone.snap = snapshot(snap.game, world, snap.moves, snap.plays)
        return clone
