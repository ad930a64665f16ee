"""Migrations apply once, in order, even when several replicas start together (PLAT-5)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg
import pytest

from tavolo.servicekit.migrations import MigrationError, apply_migrations

# The second file counts how often it ran: a migration applied twice shows as 2.
FILES = {
    "001_counter.sql": "CREATE TABLE runs (file text PRIMARY KEY, times int NOT NULL);",
    "002_count.sql": (
        "INSERT INTO runs VALUES ('002', 1)"
        " ON CONFLICT (file) DO UPDATE SET times = runs.times + 1;"
    ),
}


def _folder(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, sql in files.items():
        (tmp_path / name).write_text(sql)
    return tmp_path


async def test_replicas_starting_together_apply_each_file_once(
    database_url: str, tmp_path: Path
) -> None:
    folder = _folder(tmp_path, FILES)
    pools = [await asyncpg.create_pool(database_url, min_size=1, max_size=1) for _ in range(8)]
    try:
        results = await asyncio.gather(*(apply_migrations(p, "svc", folder) for p in pools))
        assert sorted(map(tuple, results)) == [()] * 7 + [("001_counter.sql", "002_count.sql")]
        times = await pools[0].fetchval("SELECT times FROM svc.runs WHERE file = '002'")
        assert times == 1
    finally:
        for pool in pools:
            await pool.close()


async def test_a_changed_applied_file_is_refused(database_url: str, tmp_path: Path) -> None:
    folder = _folder(tmp_path, FILES)
    async with asyncpg.create_pool(database_url, min_size=1, max_size=2) as pool:
        await apply_migrations(pool, "svc", folder)
        (folder / "002_count.sql").write_text("SELECT 1;")
        with pytest.raises(MigrationError, match=r"002_count\.sql of schema svc changed"):
            await apply_migrations(pool, "svc", folder)


async def test_a_failing_release_applies_none_of_its_files(
    database_url: str, tmp_path: Path
) -> None:
    folder = _folder(tmp_path, {**FILES, "003_broken.sql": "SELECT * FROM no_such_table;"})
    async with asyncpg.create_pool(database_url, min_size=1, max_size=2) as pool:
        with pytest.raises(asyncpg.UndefinedTableError):
            await apply_migrations(pool, "svc", folder)
        assert await pool.fetchval("SELECT to_regclass('svc.runs')") is None
        (folder / "003_broken.sql").unlink()
        assert await apply_migrations(pool, "svc", folder) == ["001_counter.sql", "002_count.sql"]
