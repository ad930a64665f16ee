"""Pure rules engines for every game, and their bots: no I/O, deterministic given a seed."""

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import Event, Game, OptionSpec, Outcome, Timer, View
from tavolo.cardgames.errors import (
    GameOver,
    InvalidOptions,
    MalformedAction,
    NotYourTurn,
    RuleError,
)

__all__ = [
    "Action",
    "ActionKind",
    "Event",
    "Game",
    "GameOver",
    "InvalidOptions",
    "MalformedAction",
    "NotYourTurn",
    "OptionSpec",
    "Outcome",
    "RuleError",
    "Timer",
    "View",
]
