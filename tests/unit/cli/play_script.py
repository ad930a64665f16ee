"""A scripted player for ``tavolo play``: reads the menu it was shown and answers."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Callable

from tavolo.cli.i18n import _
from tavolo.cli.play.command import DEFAULT_PLAYERS, play
from tavolo.cli.play.render.solitario import STOP, STOP_ONLY

MENU_LINE = re.compile(r"^\s+(\d+)\) (.*)$")


class Player:
    """Answers each prompt with a random numbered choice of the menu above it, writing
    prompt and answer as a terminal shows them; after ``patience`` answers it takes a
    choice that ends the game when there is one (Solitario's stop), and gives up (Ctrl-D)
    after ``limit``."""

    def __init__(self, seed: str, patience: int = 400, limit: int = 5000) -> None:
        self.out = io.StringIO()
        self.rng = random.Random(seed)
        self.patience, self.limit = patience, limit
        self.answers = 0
        self.script: list[str] = []

    @staticmethod
    def prompt() -> str:
        """How the choice prompt starts in the client's language: "Your choice"."""
        return _("Your choice (number; {words}): ").split(" (")[0]

    def menu(self) -> list[tuple[int, str]]:
        """The numbered choices of the last menu printed."""
        choices: list[tuple[int, str]] = []
        tail = self.out.getvalue()[-6000:].splitlines()[:-1]
        for line in reversed(tail):
            found = MENU_LINE.match(line)
            if found:
                choices.append((int(found[1]), found[2]))
            elif choices or line.startswith(self.prompt()):
                break
        return list(reversed(choices))

    def __call__(self, prompt: str) -> str | None:
        self.answers += 1
        self.out.write(prompt)
        if self.answers > self.limit:
            return None
        if self.script:
            answer = self.script.pop(0)
        elif "1) " in prompt:  # a timed call: "1) Pika!  2) say nothing"
            answer = self.rng.choice(["1", "2"])
        else:
            answer = self.pick(self.menu())
        self.out.write(answer + "\n")
        return answer

    def pick(self, menu: list[tuple[int, str]]) -> str:
        if not menu:
            return "1"
        words = {_(STOP), _(STOP_ONLY)}
        stops = [n for n, label in menu if label in words]
        if stops and (self.answers > self.patience or len(stops) == len(menu)):
            return str(stops[0])
        return str(self.rng.choice([n for n, _label in menu if n not in stops]))


def play_game(
    game: str,
    seed: str,
    level: str = "easy",
    players: int | None = None,
    player: Player | None = None,
    **kwargs: object,
) -> tuple[int, str]:
    """One offline game with a :class:`Player`; (exit code, the whole screen)."""
    player = player or Player(seed)
    seats = players or DEFAULT_PLAYERS.get(game, 4)
    read: Callable[[str], str | None] = player
    code = play(game, seats, level, seed, input_line=read, out=player.out, **kwargs)  # type: ignore[arg-type]
    return code, player.out.getvalue()
