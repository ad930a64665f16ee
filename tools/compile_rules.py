"""Compile the rules engines to C with mypyc: the same Python sources, several times faster.

    .venv/bin/python tools/compile_rules.py      # builds build/compiled/tavolo/cardgames

The Python sources stay the one truth: editable installs, debugging and most tests run
them as they are. The compiled tree is the whole ``tavolo.cardgames`` package, with the
modules below built by mypyc beside their sources; put ``build/compiled`` first on
``PYTHONPATH`` to use it (the rest of ``tavolo`` still comes from the install).
``make test`` runs the rules tests against it as well, ``make bench`` measures both, and
``setup.py`` builds the same extensions into a wheel when ``TAVOLO_COMPILE_RULES=1`` (the
container image does), the way mypy and black ship themselves.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "libs" / "cardgames"
DEFAULT_DEST = ROOT / "build" / "compiled"

COMPILED = (
    "actions.py",
    "errors.py",
    "rng.py",
    "contract.py",
    "selfplay.py",
    "slotted.py",
    "games/shedding/deck.py",
    "games/shedding/pika_state.py",
    "games/shedding/pika_legal.py",
    "games/shedding/pika_explain.py",
    "games/shedding/pika.py",
    "games/fishing/deck.py",
    "games/fishing/captures.py",
    "games/fishing/scoring.py",
    "games/fishing/match.py",
    "games/fishing/accusi.py",
    "games/fishing/state.py",
    "games/fishing/view.py",
    "games/fishing/core.py",
    "games/fishing/scopa.py",
    "games/fishing/scopone.py",
    "games/fishing/asso.py",
    "games/fishing/cirulla.py",
    "games/tricks/core.py",
    "games/french_deck.py",
    "games/tricks/spades_state.py",
    "games/tricks/spades_tricks.py",
    "games/tricks/spades_scoring.py",
    "games/tricks/spades_view.py",
    "games/tricks/spades.py",
    "games/italian_cards.py",
    "games/chips.py",
    "games/tricks/briscola_state.py",
    "games/tricks/briscola_match.py",
    "games/tricks/briscola.py",
    "games/tricks/tresette_cards.py",
    "games/tricks/tresette_table.py",
    "games/tricks/tresette.py",
    "games/tricks/ciapano.py",
    "games/tricks/bestia_state.py",
    "games/tricks/bestia.py",
    "games/betting/poker_hands.py",
    "games/betting/poker_betting.py",
    "games/betting/poker_state.py",
    "games/betting/poker_legal.py",
    "games/betting/poker.py",
    "games/betting/settemezzo_hands.py",
    "games/betting/settemezzo_state.py",
    "games/betting/settemezzo.py",
    "games/shedding/uno_state.py",
    "games/shedding/uno.py",
    "games/tricks/hearts_state.py",
    "games/tricks/hearts.py",
    "games/rummy/deck.py",
    "games/rummy/melds.py",
    "games/rummy/meld_search.py",
    "games/rummy/burraco_scoring.py",
    "games/rummy/burraco_legal.py",
    "games/rummy/burraco_state.py",
    "games/rummy/burraco_view.py",
    "games/rummy/burraco.py",
    "games/rummy/scala40_state.py",
    "games/rummy/scala40_legal.py",
    "games/rummy/scala40_scoring.py",
    "games/rummy/scala40_view.py",
    "games/rummy/scala40.py",
    "games/solitario/piles.py",
    "games/solitario/ends.py",
    "games/solitario/scoring.py",
    "games/solitario/runs.py",
    "games/solitario/solitario.py",
    "bots/solitario/search.py",
)
"""What is compiled, relative to libs/cardgames: the contract and the modules a game's
action runs through when it is hot in self-play. A game or module left out keeps working,
interpreted, on the compiled contract (its base class allows interpreted subclasses)."""


def stage(dest: Path) -> list[str]:
    """Copy the package to ``dest/tavolo/cardgames``; the module paths to compile there."""
    package = dest / "tavolo" / "cardgames"
    shutil.rmtree(package, ignore_errors=True)
    shutil.copytree(SOURCE, package, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    return [f"tavolo/cardgames/{path}" for path in COMPILED]


@contextmanager
def working_directory(path: Path) -> Iterator[None]:
    before = Path.cwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


def extensions(dest: Path) -> list[Any]:
    """Stage the sources in ``dest`` and return mypyc's extensions for them.

    mypyc names a module after its path, so it runs where the staged tree has the
    ``tavolo/cardgames/...`` layout the imports use (the repository has ``libs/...``).
    """
    from mypyc.build import mypycify

    dest.mkdir(parents=True, exist_ok=True)
    paths = stage(dest)
    with working_directory(dest):
        return list(
            mypycify(
                ["--explicit-package-bases", *paths],
                opt_level="3",
                target_dir=str(dest / "c"),
                group_name="tavolo_rules",
            )
        )


def build_in_place(dest: Path = DEFAULT_DEST) -> None:
    """Build the extensions next to the staged sources, so ``dest`` is importable."""
    from setuptools import setup

    modules = extensions(dest)
    with working_directory(dest):
        setup(
            name="tavolo-compiled-rules",
            ext_modules=modules,
            script_args=["--quiet", "build_ext", "--inplace"],
        )


def interpreted() -> list[str]:
    """The modules of :data:`COMPILED` that this process imports from Python sources."""
    import importlib

    names = ["tavolo.cardgames." + path.removesuffix(".py").replace("/", ".") for path in COMPILED]
    return [name for name in names if str(importlib.import_module(name).__file__).endswith(".py")]


if __name__ == "__main__":
    target = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else DEFAULT_DEST
    build_in_place(target)
    print(f"compiled {len(COMPILED)} rules modules into {target}")
