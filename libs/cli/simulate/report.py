"""The final report of a simulation, for people (text) and for programs (JSON)."""

from __future__ import annotations

from typing import Any

from tavolo.cli.simulate.chaos import Chaos
from tavolo.cli.simulate.invariants import Check
from tavolo.cli.simulate.stats import Stats, percentile


def build(
    stats: Stats,
    players: int,
    duration: float,
    checks: list[Check],
    chaos: Chaos | None,
    supervisor: list[str],
    settings: dict[str, Any],
) -> dict[str, Any]:
    """Everything the run measured and found, as plain JSON values."""
    counts = stats.table_counts()
    games = sorted({record.game for record in stats.tables.values()})
    played = stats.elapsed()
    report: dict[str, Any] = {
        "settings": settings,
        "players": players,
        "players_playing": stats.players_ready,
        "seconds": round(played, 1),
        "tables": {
            "total": len(stats.tables),
            "finished": counts.get("FINISHED", 0),
            "aborted": counts.get("ABORTED", 0),
            "live": counts.get("PLAYING", 0),
            "games": games,
            "by_mode": _count(record.mode for record in stats.tables.values()),
        },
        "actions": stats.actions,
        "actions_per_second": round(stats.actions / max(duration, 1.0), 2),
        "calls": sum(stats.calls.values()),
        "calls_by_method": dict(stats.calls.most_common()),
        "latency_ms": {
            "p50": round(percentile(stats.latencies, 0.50) * 1000, 1),
            "p90": round(percentile(stats.latencies, 0.90) * 1000, 1),
            "p99": round(percentile(stats.latencies, 0.99) * 1000, 1),
            "max": round(max(stats.latencies, default=0.0) * 1000, 1),
        },
        "errors_by_status": dict(stats.codes.most_common()),
        "activities": dict(stats.activities.most_common()),
        "chat_messages": stats.chats,
        "come_backs": stats.comebacks,
        "token_refreshes": stats.refreshes,
        "cancelled_stake_tickets": stats.cancelled_stakes,
        "bot_fallbacks": stats.bot_fallbacks,
        "invariants": [check.as_dict() for check in checks],
        "all_invariants_held": all(check.held for check in checks),
        "chaos": None,
        "supervisor": supervisor,
    }
    if chaos is not None:
        report["chaos"] = {
            "summary": chaos.summary(),
            "faults": [
                {
                    "at_s": round(record.at, 1),
                    "fault": record.fault.describe(),
                    "detail": record.detail,
                    "recovered_after_s": None
                    if record.recovered_after is None
                    else round(record.recovered_after, 1),
                }
                for record in chaos.struck
            ],
        }
    return report


def _count(values: Any) -> dict[str, int]:
    found: dict[str, int] = {}
    for value in values:
        found[value] = found.get(value, 0) + 1
    return found


def text(report: dict[str, Any]) -> str:
    """The report as the console prints it at the end."""
    tables = report["tables"]
    latency = report["latency_ms"]
    lines = [
        f"players        {report['players']} ({report['players_playing']} got to play), "
        f"{report['seconds']:.0f}s",
        f"tables         {tables['total']}: {tables['finished']} finished, "
        f"{tables['aborted']} aborted, {tables['live']} live; {len(tables['games'])} games",
        f"actions        {report['actions']} ({report['actions_per_second']}/s), "
        f"{report['calls']} calls",
        f"latency        p50 {latency['p50']} ms, p90 {latency['p90']} ms, "
        f"p99 {latency['p99']} ms, max {latency['max']} ms",
        "refusals       "
        + (", ".join(f"{k} {v}" for k, v in report["errors_by_status"].items()) or "none"),
    ]
    chaos = report["chaos"]
    if chaos is not None:
        summary = chaos["summary"]
        lines.append(
            "chaos          "
            + ", ".join(
                f"{kind}: {summary.get(kind + '_survived', 0)}/{summary.get(kind + '_struck', 0)}"
                for kind in ("kill", "pause", "nats", "postgres")
            )
            + " survived"
        )
    for check in report["invariants"]:
        mark = "held  " if check["held"] else "BROKEN"
        lines.append(f"{mark}  {check['name']}: {check['checked']}")
        lines += [f"          {problem}" for problem in check["problems"]]
    lines.append(
        "every invariant held" if report["all_invariants_held"] else "SOME INVARIANTS BROKE"
    )
    return "\n".join(lines)
