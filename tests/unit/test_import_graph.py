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
