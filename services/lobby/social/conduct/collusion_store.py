"""The collusion facts, kept in order so that the projection rebuilds exactly (PCG-3)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from tavolo.lobby.social.conduct.collusion import Fact, SessionSeen, TableResult, TurnPassed
from tavolo.lobby.store import Connection, S


def _payload(fact: Fact) -> tuple[str, dict[str, Any]]:
    if isinstance(fact, TableResult):
        return "table", {
            "table_id": fact.table_id,
            "game": fact.game,
            "seats": fact.seats,
            "places": dict(fact.places),
            "stake": fact.stake,
            "mode": fact.mode,
            "seconds": fact.seconds,
            "finished_on": fact.finished_on,
        }
    if isinstance(fact, TurnPassed):
        return "turn", {
            "table_id": fact.table_id,
            "actor": fact.actor,
            "next_actor": fact.next_actor,
            "penalty": fact.penalty,
        }
    return "session", {
        "player_id": fact.player_id,
        "address": fact.address,
        "installation_id": fact.installation_id,
    }


def _fact(fact_id: str, kind: str, data: dict[str, Any]) -> Fact:
    if kind == "table":
        return TableResult(
            fact_id,
            data["table_id"],
            data["game"],
            data["seats"],
            data["places"],
            data["stake"],
            data.get("mode", ""),
            data.get("seconds"),
            data.get("finished_on", ""),
        )
    if kind == "turn":
        return TurnPassed(
            fact_id, data["table_id"], data["actor"], data["next_actor"], data["penalty"]
        )
    return SessionSeen(fact_id, data["player_id"], data["address"], data["installation_id"])


async def record(conn: Connection, fact: Fact, at: datetime) -> None:
    kind, payload = _payload(fact)
    await conn.execute(
        f"INSERT INTO {S}.collusion_facts (fact_id, kind, payload, recorded_at)"
        " VALUES ($1, $2, $3, $4) ON CONFLICT (fact_id) DO NOTHING",
        fact.fact_id,
        kind,
        json.dumps(payload),
        at,
    )


async def every_fact(conn: Connection) -> list[Fact]:
    rows = await conn.fetch(f"SELECT fact_id, kind, payload FROM {S}.collusion_facts ORDER BY seq")
    return [_fact(r["fact_id"], r["kind"], json.loads(r["payload"])) for r in rows]


async def queue_log(
    conn: Connection, table_id: str, game: str, players: Sequence[str | None], at: datetime
) -> None:
    """A finished table whose log is still to be read for soft play (once per table)."""
    await conn.execute(
        f"INSERT INTO {S}.conduct_logs_to_read (table_id, game, players, queued_at)"
        " VALUES ($1, $2, $3, $4) ON CONFLICT (table_id) DO NOTHING",
        table_id,
        game,
        json.dumps(list(players)),
        at,
    )


async def logs_to_read(conn: Connection, limit: int) -> list[tuple[str, str, list[str | None]]]:
    rows = await conn.fetch(
        f"SELECT table_id, game, players FROM {S}.conduct_logs_to_read ORDER BY queued_at LIMIT $1",
        limit,
    )
    return [(r["table_id"], r["game"], json.loads(r["players"])) for r in rows]


async def log_read(conn: Connection, table_id: str) -> None:
    await conn.execute(f"DELETE FROM {S}.conduct_logs_to_read WHERE table_id = $1", table_id)
