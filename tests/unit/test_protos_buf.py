"""The API as client apps see it (SDK-1): ``buf lint`` passes, no change breaks the
baseline kept in protos/baseline (a renumbered or removed field fails with buf's message),
and the TypeScript SDK's generated code is what the pinned generators produce.

buf and protoc-gen-es come from clients/typescript's node_modules (``npm ci``, which
``make test`` runs first); without them these tests fail saying so.
"""

from __future__ import annotations

import filecmp
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROTOS = ROOT / "protos"
PACKAGE = ROOT / "clients" / "typescript"
BASELINE = PROTOS / "baseline" / "tavolo-v1.binpb"


@pytest.fixture(scope="module")
def buf() -> str:
    path = PACKAGE / "node_modules" / ".bin" / "buf"
    assert path.exists(), "buf is missing: run `npm ci` in clients/typescript (make test does)"
    return str(path)


def _run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, check=False, timeout=120)


def _copy_protos(tmp_path: Path) -> Path:
    copy = tmp_path / "protos"
    shutil.copytree(PROTOS, copy, ignore=shutil.ignore_patterns("baseline"))
    return copy


def test_the_protos_pass_buf_lint(buf: str) -> None:
    done = _run(buf, "lint", "protos")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_protos_do_not_break_the_baseline(buf: str) -> None:
    done = _run(buf, "breaking", "protos", "--against", str(BASELINE))
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda text: text.replace("int64 expected_version = 3;", "int64 expected_version = 9;"),
         r'present field "3" with name "expected_version" on message "ActRequest" was deleted'),
        (lambda text: text.replace("  string request_id = 4;\n", "", 1),
         r'present field "4" with name "request_id" on message "ActRequest" was deleted'),
        (lambda text: text.replace("rpc Act(ActRequest)", "rpc Play(ActRequest)"),
         r'RPC "Act" on service "Engine" was deleted'),
    ],
    ids=["renumbered", "removed", "rpc-renamed"],
)  # fmt: skip
def test_a_breaking_change_fails_with_bufs_message(
    buf: str, tmp_path: Path, change: Callable[[str], str], message: str
) -> None:
    protos = _copy_protos(tmp_path)
    engine = protos / "tavolo" / "v1" / "engine.proto"
    before = engine.read_text()
    after = change(before)
    assert after != before, "the change applies to engine.proto"
    engine.write_text(after)
    done = _run(buf, "breaking", str(protos), "--against", str(BASELINE))
    assert done.returncode != 0, "buf breaking accepted a breaking change"
    assert re.search(message, done.stdout + done.stderr), done.stdout + done.stderr


@pytest.mark.parametrize(
    ("source", "template", "folder"),
    [
        (PROTOS, "buf.gen.yaml", "gen"),
        # google.rpc's error details, from the vendored proto (API-1).
        (PACKAGE / "proto", "buf.gen.rpc.yaml", "gen-rpc"),
    ],
    ids=["tavolo", "google-rpc"],
)
def test_the_generated_typescript_is_what_the_pinned_generators_produce(
    buf: str, tmp_path: Path, source: Path, template: str, folder: str
) -> None:
    done = _run(
        buf, "generate", str(source), "--template", template, "-o", str(tmp_path),
        cwd=PACKAGE,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    fresh, committed = tmp_path / "src" / folder, PACKAGE / "src" / folder
    names = sorted(p.relative_to(fresh) for p in fresh.rglob("*") if p.is_file())
    assert names and names == sorted(
        p.relative_to(committed) for p in committed.rglob("*") if p.is_file()
    )
    stale = [str(n) for n in names if not filecmp.cmp(fresh / n, committed / n, shallow=False)]
    assert not stale, f"regenerate with `npm run generate` in clients/typescript: {stale}"
