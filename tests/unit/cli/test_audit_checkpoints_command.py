"""`tavolo audit checkpoints` listens where `tavolo up` runs NATS unless told otherwise."""

from __future__ import annotations

import pytest

from tavolo.cli.main import build_parser
from tavolo.cli.platform.up import EMBEDDED_NATS_PORT


def test_the_collector_listens_on_the_embedded_nats_by_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """AUDIT-3: an auditor beside `make run` collects without naming the port."""
    monkeypatch.delenv("TAVOLO_NATS_URL", raising=False)
    args = build_parser().parse_args(["audit", "checkpoints", "-o", "kept.jsonl"])
    assert args.nats == f"nats://127.0.0.1:{EMBEDDED_NATS_PORT}"
    monkeypatch.setenv("TAVOLO_NATS_URL", "nats://elsewhere:4222")
    args = build_parser().parse_args(["audit", "checkpoints", "-o", "kept.jsonl"])
    assert args.nats == "nats://elsewhere:4222"
