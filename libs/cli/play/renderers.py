"""What every terminal client shares: how a game looks (its renderer), and who sits
where against the bots. Both the offline game (:mod:`tavolo.cli.play.command`) and the seat at
the engine (:mod:`tavolo.cli.play.remote`) import it; it imports neither.

A game's renderer is a module ``tavolo.cli.play.render.<game>`` exposing ``RENDERER``,
registered in :data:`RENDERERS` with one line.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Protocol

from tavolo.cardgames.actions import Action
from tavolo.cardgames.contract import Outcome, View

RENDERERS: dict[str, str] = {
    "pika": "tavolo.cli.play.render.pika",
    "spades": "tavolo.cli.play.render.spades",
    "uno": "tavolo.cli.play.render.uno",
    "hearts": "tavolo.cli.play.render.hearts",
    "scopa": "tavolo.cli.play.render.fishing",
    "scopone": "tavolo.cli.play.render.fishing",
    "asso": "tavolo.cli.play.render.fishing",
    "cirulla": "tavolo.cli.play.render.fishing",
    "burraco": "tavolo.cli.play.render.burraco",
    "scala40": "tavolo.cli.play.render.scala40",
    "solitario": "tavolo.cli.play.render.solitario",
    "briscola": "tavolo.cli.play.render.briscola",
    "tresette": "tavolo.cli.play.render.tresette",
    "ciapano": "tavolo.cli.play.render.tresette",
    "bestia": "tavolo.cli.play.render.bestia",
    "poker": "tavolo.cli.play.render.poker",
    "settemezzo": "tavolo.cli.play.render.settemezzo",
}
"""Game name → module with its ``RENDERER``. One line per game."""

PARTNER_LEVELS: dict[str, str] = {
    "spades": "hard",
}
"""Partnership games where the human's partner (the seat opposite) is always this level,
whatever the opponents' level (SPADES-9)."""

HUMAN = 0


class Renderer(Protocol):
    """How one game looks in the terminal; everything comes from the human's view."""

    def table(self, view: View, names: Sequence[str]) -> str:
        """The table as the seat sees it: its hand numbered, the public state."""

    def news(self, before: View | None, after: View, names: Sequence[str]) -> list[str]:
        """What happened between two views of the same seat, in sentences."""

    def turn(self, view: View, names: Sequence[str]) -> str | None:
        """Whose turn it is and who follows, in playing order (``None``: nobody's)."""

    def choice(self, action: Action, view: View) -> str:
        """A menu line for one legal action."""

    def call_prompt(self, view: View) -> str | None:
        """The question when a timed call is open for the seat (``None``: no question)."""

    def reorder(self, view: View, command: str) -> tuple[str, ...] | None:
        """The new hand order for a reorder command typed at the prompt, if it is one."""

    def outcome(self, outcome: Outcome, view: View, names: Sequence[str]) -> str:
        """The final places."""


def renderer_for(game_name: str) -> Renderer:
    module = importlib.import_module(RENDERERS[game_name])
    renderer: Renderer = module.RENDERER
    return renderer


def bot_levels(game_name: str, players: int, level: str) -> dict[int, str]:
    """Each bot seat's level when the human sits at seat 0: ``level`` everywhere, except a
    partner opposite in a partnership game (:data:`PARTNER_LEVELS`)."""
    levels = {s: level for s in range(1, players)}
    if game_name in PARTNER_LEVELS and players % 2 == 0:
        levels[HUMAN + players // 2] = PARTNER_LEVELS[game_name]
    return levels


def lineup(game_name: str, players: int, level: str) -> str:
    """Who plays whom, as the opening line says it; a stronger partner is named, so the
    line never promises weaker bots than the table has."""
    levels = bot_levels(game_name, players, level)
    if not levels:
        return "you alone"
    partners = [s for s, lv in levels.items() if lv != level]
    opponents = len(levels) - len(partners)
    bots = "bot" if opponents == 1 else "bots"
    if not partners:
        return f"you against {opponents} {level} {bots}"
    named = " and ".join(f"Bot {s} ({levels[s]})" for s in partners)
    return f"you and {named} against {opponents} {level} {bots}"
