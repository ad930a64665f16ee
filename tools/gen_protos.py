"""Generate tavolo.v1 (libs/protocol/tavolo/v1) from protos/tavolo/v1/*.proto.

``python tools/gen_protos.py`` writes the generated package; ``--check`` regenerates into a
temporary folder and exits 1 if anything differs (the freshness test runs that).
"""

from __future__ import annotations

import argparse
import filecmp
import sys
import tempfile
from importlib import resources
from pathlib import Path

from grpc_tools import protoc

ROOT = Path(__file__).resolve().parent.parent
PROTOS = ROOT / "protos"
OUT = ROOT / "libs" / "protocol"
# mypy-protobuf's plugins are installed beside the interpreter running this script.
BIN = Path(sys.executable).parent
HEADER = "# Generated from protos/ by tools/gen_protos.py (make protos). Do not edit.\n"


def generate(out: Path) -> None:
    sources = sorted(str(p.relative_to(PROTOS)) for p in (PROTOS / "tavolo" / "v1").glob("*.proto"))
    well_known = str(resources.files("grpc_tools") / "_proto")
    target = out / "tavolo" / "v1"
    target.mkdir(parents=True, exist_ok=True)
    args = [
        "protoc",
        f"-I{PROTOS}",
        f"-I{well_known}",
        f"--python_out={out}",
        f"--grpc_python_out={out}",
        f"--plugin=protoc-gen-mypy={BIN / 'protoc-gen-mypy'}",
        f"--plugin=protoc-gen-mypy_grpc={BIN / 'protoc-gen-mypy_grpc'}",
        f"--mypy_out={out}",
        f"--mypy_grpc_out={out}",
        *sources,
    ]
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed")
    for path in sorted(target.glob("*_pb2*.py*")):
        path.write_text(HEADER + path.read_text())
    (target / "__init__.py").write_text(
        HEADER + '"""Protobuf messages and gRPC stubs of the Tavolo API (package tavolo.v1)."""\n'
    )
    (target / "py.typed").write_text("")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="fail if the generated code is stale")
    args = parser.parse_args()
    if not args.check:
        generate(OUT)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        generate(Path(tmp))
        fresh = Path(tmp) / "tavolo" / "v1"
        current = OUT / "tavolo" / "v1"
        names = {p.name for p in fresh.iterdir()} | {
            p.name for p in current.iterdir() if p.name != "__pycache__"
        }
        stale = sorted(
            n
            for n in names
            if not (fresh / n).exists()
            or not (current / n).exists()
            or not filecmp.cmp(fresh / n, current / n, shallow=False)
        )
    if stale:
        print("generated code is stale, run `make protos`: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
