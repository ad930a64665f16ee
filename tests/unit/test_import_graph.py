"""The import arrows point one way: services/* use libs/*, libs never use a service, no
service imports another, and no module imports itself back through others.

Read from the source with ``ast`` (imports inside functions count too: a lazy import is
still an arrow), so a circle or a wrong-way arrow fails here before it fails at runtime.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVICES = frozenset(p.name for p in (ROOT / "services").iterdir() if p.is_dir())
GENERATED = {"protocol"}  # libs/protocol is tavolo.v1, generated code


def _modules() -> dict[str, Path]:
    """Module name → file, for every tavolo module under libs/ and services/."""
    found: dict[str, Path] = {}
    for top in ("libs", "services"):
        for package in sorted((ROOT / top).iterdir()):
            if not package.is_dir() or package.name in GENERATED:
                continue
            for path in package.rglob("*.py"):
                parts = [p for p in path.relative_to(package).with_suffix("").parts]
                parts = [p for p in parts if p != "__init__"]
                found[".".join(["tavolo", package.name, *parts])] = path
    return found


MODULES = _modules()


def _imported(name: str, path: Path) -> Iterator[str]:
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            for alias in node.names:
                yield f"{module}.{alias.name}" if f"{module}.{alias.name}" in MODULES else module


def _graph() -> dict[str, set[str]]:
    """Each module's arrows to other tavolo modules (to the nearest known module)."""
    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        targets = set()
        for target in _imported(name, path):
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name:
                targets.add(target)
        graph[name] = targets
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _package(module: str) -> str:
    return module.split(".")[1]


def test_the_walk_sees_the_whole_tree() -> None:
    assert {"tavolo.cli.play.command", "tavolo.engine.app", "tavolo.tablelog.replay"} <= set(
        MODULES
    )
    assert "tavolo.cli.play.remote" in _graph()["tavolo.cli.play.command"]  # lazy imports count


def test_no_import_circles() -> None:
    assert _cycles(_graph()) == []


def test_libs_never_import_a_service() -> None:
    wrong = [
        f"{source} -> {target}"
        for source, targets in _graph().items()
        if _package(source) not in SERVICES
        for target in sorted(targets)
        if _package(target) in SERVICES
    ]
    assert wrong == []


def test_no_service_imports_another() -> None:
    wrong = [
        f"{source} -> {target}"
        for source, targets in _graph().items()
        if _package(source) in SERVICES
        for target in sorted(targets)
        if _package(target) in SERVICES and _package(target) != _package(source)
    ]
    assert wrong == []


def test_the_check_finds_a_circle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


FAMILY_ROOTS = ("tavolo.cardgames.games.", "tavolo.cardgames.bots.")
"""The packages whose sub-packages are families of games (and of their bots)."""


def _family(module: str) -> str | None:
    """``tricks`` for ``tavolo.cardgames.games.tricks.briscola`` (and for its bots)."""
    for root in FAMILY_ROOTS:
        if module.startswith(root) and module.count(".") > root.count("."):
            return module[len(root) :].split(".")[0]
    return None


def _wrong_family_arrows(graph: dict[str, set[str]]) -> list[str]:
    """Arrows from one family into another family's internals: only a family's ``core``
    module (the shared core it names) may be imported from outside the family."""
    wrong = []
    for source, targets in graph.items():
        family = _family(source)
        if family is None:
            continue
        for target in sorted(targets):
            other = _family(target)
            if other is not None and other != family and not target.endswith(".core"):
                wrong.append(f"{source} -> {target}")
    return wrong


def test_the_tree_has_families_of_games_and_bots() -> None:
    families = {_family(name) for name in MODULES} - {None}
    assert {"fishing", "tricks", "shedding", "rummy", "betting", "solitario"} <= families


def test_a_family_uses_only_another_familys_core() -> None:
    assert _wrong_family_arrows(_graph()) == []


def test_the_family_check_finds_a_wrong_arrow() -> None:
    graph = {
        "tavolo.cardgames.games.betting.settemezzo": {
            "tavolo.cardgames.games.tricks.bestia_state",
            "tavolo.cardgames.games.tricks.core",
            "tavolo.cardgames.games.chips",
        },
        "tavolo.cardgames.bots.tricks.briscola": {"tavolo.cardgames.games.tricks.briscola"},
    }
    assert _wrong_family_arrows(graph) == [
        "tavolo.cardgames.games.betting.settemezzo -> tavolo.cardgames.games.tricks.bestia_state"
    ]
