"""What a bot is: a chooser over exactly what a human in its seat would have.

A bot gets ``view(state, seat)`` and ``legal_actions(state, seat)``, never the state, so it
cannot see hidden cards (DESIGN guarantee 5). Every choice that needs chance draws from
the :class:`SeededRandom` it is handed, so a bot's play is fixed by its seed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from tavolo.cardgames.actions import Action
from tavolo.cardgames.contract import View
from tavolo.cardgames.rng import SeededRandom

LEVELS = ("easy", "medium", "hard")


class Bot(Protocol):
    """Picks one of ``legal`` (never anything else) given the seat's view."""

    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action: ...


class RandomBot:
    """Any legal action, uniformly: no level of any game, but the yardstick the bot
    league measures the easy level against (a level must beat a clicker)."""

    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action:
        return legal[rng.randbelow(len(legal))]


SLIP_IN = 8
"""A novice plays a random legal move about one time in this many."""


class Novice:
    """The easy level: a beginner's ``policy`` that now and then slips and plays any
    legal move (drawn from the seat's generator, so a seed fixes its slips too)."""

    def __init__(self, policy: Bot, slip_in: int = SLIP_IN) -> None:
        self.policy = policy
        self.slip_in = slip_in

    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action:
        if len(legal) > 1 and rng.randbelow(self.slip_in) == 0:
            return legal[rng.randbelow(len(legal))]
        return self.policy.choose(view, legal, rng)


@dataclass(slots=True)
class SeatedBot:
    """A bot with its own generator: what a table keeps for each bot seat."""

    game: str
    level: str
    bot: Bot
    rng: SeededRandom

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("a bot cannot choose from no legal actions")
        return self.bot.choose(view, legal, self.rng)


def seed_bytes(seed: bytes | str | int) -> bytes:
    """A bot seed of any handy type, as the bytes its generator starts from."""
    if isinstance(seed, bytes):
        return seed
    return hashlib.sha256(f"bot:{seed}".encode()).digest()


def pick_best(scored: Sequence[tuple[float, Action]], rng: SeededRandom) -> Action:
    """The highest-scored action; equal scores are broken by the generator."""
    best = max(score for score, _ in scored)
    top = [action for score, action in scored if score == best]
    return top[rng.randbelow(len(top))] if len(top) > 1 else top[0]
