"""The contracts: generated code is fresh, and every message, field and enum is documented."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROTOS = sorted((ROOT / "protos" / "tavolo" / "v1").glob("*.proto"))


def test_generated_code_is_fresh() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_protos.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def test_there_is_one_proto_per_service_plus_events_and_common() -> None:
    names = {p.stem for p in PROTOS}
    assert {"lobby", "engine", "wallet", "leaderboard", "events", "common"} <= names


_DECLARATION = re.compile(
    r"^\s*(message|enum|service|rpc|oneof)\s+\w+"
    r"|^\s*(repeated |optional )?[\w.<>, ]+\s+\w+\s*=\s*\d+;"
)


def test_every_declaration_has_a_comment() -> None:
    undocumented: list[str] = []
    for path in PROTOS:
        lines = path.read_text().splitlines()
        for number, line in enumerate(lines):
            if _DECLARATION.match(line) and not lines[number - 1].strip().startswith("//"):
                undocumented.append(f"{path.name}:{number + 1}: {line.strip()}")
    assert not undocumented, "\n".join(undocumented)


def test_enum_zero_values_are_unspecified() -> None:
    bad: list[str] = []
    for path in PROTOS:
        for match in re.finditer(r"enum (\w+) \{(.*?)\}", path.read_text(), re.S):
            zero = re.search(r"(\w+)\s*=\s*0;", match.group(2))
            if zero is None or not zero.group(1).endswith("_UNSPECIFIED"):
                bad.append(f"{path.name}: enum {match.group(1)}")
    assert not bad, bad
