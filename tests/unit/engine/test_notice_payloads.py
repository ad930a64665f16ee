"""Table notices are packed into payloads PostgreSQL accepts, losing none."""

from __future__ import annotations

from tavolo.engine.notifications import MAX_PAYLOAD, payloads


def test_many_tables_fit_in_few_payloads_under_the_limit() -> None:
    versions = {f"table-{n:05d}-{'x' * 20}": n for n in range(2000)}
    chunks = payloads(versions)
    assert len(chunks) > 1
    assert all(len(chunk.encode()) <= MAX_PAYLOAD for chunk in chunks)
    lines = [line for chunk in chunks for line in chunk.splitlines()]
    assert lines == [f"{t} {v}" for t, v in versions.items()]


def test_no_tables_no_payload() -> None:
    assert payloads({}) == []
