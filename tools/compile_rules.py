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
    "games/uno_deck.py",
    "games/pika_state.py",
    "games/pika_legal.py",
    "games/pika_explain.py",
    "games/pika.py",
    "games/fishing_deck.py",
    "games/fishing_captures.py",
    "games/fishing_scoring.py",
    "games/fishing_match.py",
    "games/fishing_accusi.py",
    "games/fishing_state.py",
    "games/fishing_view.py",
    "games/fishing.py",
    "games/scopa.py",
    "games/scopone.py",
    "games/asso.py",
    "games/cirulla.py",
    "games/tricks.py",
    "games/french_deck.py",
    "games/spades_state.py",
    "games/spades_tricks.py",
    "games/spades_scoring.py",
    "games/spades_view.py",
    "games/spades.py",
    "games/italian_cards.py",
    "games/briscola_state.py",
    "games/briscola_match.py",
    "games/briscola.py",
    "games/tresette_cards.py",
    "games/tresette_table.py",
    "games/tresette.py",
    "games/ciapano.py",
    "games/bestia_state.py",
    "games/bestia.py",
    "games/poker_hands.py",
    "games/poker_betting.py",
    "games/poker_state.py",
    "games/poker_legal.py",
    "games/poker.py",
    "games/settemezzo_hands.py",
    "games/settemezzo_state.py",
    "games/settemezzo.py",
    "games/uno_state.py",
    "games/uno.py",
    "games/hearts_state.py",
    "games/hearts.py",
    "games/rummy_deck.py",
    "games/melds.py",
    "games/meld_search.py",
    "games/burraco_scoring.py",
    "games/burraco_legal.py",
    "games/burraco_state.py",
    "games/burraco_view.py",
    "games/burraco.py",
    "games/scala40_state.py",
    "games/scala40_legal.py",
    "games/scala40_scoring.py",
    "games/scala40_view.py",
    "games/scala40.py",
    "games/solitario_piles.py",
    "games/solitario_scoring.py",
    "games/solitario.py",
    "bots/solitario_search.py",
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
