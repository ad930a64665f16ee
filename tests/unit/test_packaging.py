"""Every package of the tree ships: pyproject's explicit package list names each one.

The list is explicit because tavolo.* maps onto two folders (libs/, services/); a package
left out still imports in an editable install but is missing from the wheel the container
image is built from, and a listed one that does not exist breaks every install.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _listed() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return set(config["tool"]["setuptools"]["packages"])


def _on_disk() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    found: set[str] = set()
    for name, folder in config["tool"]["setuptools"]["package-dir"].items():
        base = ROOT / folder
        for init in base.rglob("__init__.py"):
            parts = init.parent.relative_to(base).parts
            found.add(".".join([name, *parts]))
    return found


def _folders(name: str) -> Path:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    top = ".".join(name.split(".")[:2])
    return ROOT / config["tool"]["setuptools"]["package-dir"][top] / "/".join(name.split(".")[2:])


def test_every_package_is_listed_and_every_listed_package_exists() -> None:
    listed, on_disk = _listed(), _on_disk()
    assert sorted(on_disk - listed) == []
    assert sorted(name for name in listed if not _folders(name).is_dir()) == []


def test_the_terminal_clients_catalogues_ship() -> None:
    """The compiled catalogues the client reads (and their .po sources) are package data
    of ``tavolo.cli``: a wheel without them would speak English only (I18N-1)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["tavolo.cli"]
    base = _folders("tavolo.cli")
    shipped = {path for pattern in patterns for path in base.glob(pattern)}
    catalogues = set((base / "locale").rglob("*.po")) | set((base / "locale").rglob("*.mo"))
    assert {p.relative_to(base).as_posix() for p in catalogues} == {
        f"locale/{lang}/LC_MESSAGES/tavolo.{ext}" for lang in ("en", "it") for ext in ("po", "mo")
    }
    assert catalogues <= shipped
