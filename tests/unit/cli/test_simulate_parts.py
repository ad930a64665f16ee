"""The pure parts of `tavolo simulate`: the chaos plan, the console it reads from `tavolo
up`, the percentiles and the report's wording."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console as RichConsole

from tavolo.cli.simulate import chaos, keep_only_logs, report
from tavolo.cli.simulate.display import Happenings, render
from tavolo.cli.simulate.invariants import Check
from tavolo.cli.simulate.platform import Console
from tavolo.cli.simulate.stats import Stats, TableRecord, percentile
from tavolo.servicekit.settings import SERVICES


def test_the_plan_kills_every_service_restarts_both_servers_and_pauses() -> None:
    faults = chaos.plan(duration=600.0, seed=7, kills_per_service=3, pause_seconds=25.0)
    kills = [f.target for f in faults if f.kind == "kill"]
    assert sorted(kills) == sorted(s for s in SERVICES for _ in range(3))
    assert [f.kind for f in faults].count("nats") == 1
    assert [f.kind for f in faults].count("postgres") == 1
    pauses = [f for f in faults if f.kind == "pause"]
    assert "engine" in {p.target for p in pauses}
    assert all(p.seconds == 25.0 for p in pauses)


def test_the_plan_is_in_time_order_and_leaves_the_end_of_the_run_quiet() -> None:
    faults = chaos.plan(duration=300.0, seed=1, kills_per_service=2, start_after=10.0)
    times = [f.at for f in faults]
    assert times == sorted(times)
    assert times[0] >= 10.0
    assert times[-1] < 300.0 * chaos.QUIET_FRACTION


def test_the_same_seed_draws_the_same_plan_and_another_seed_another() -> None:
    assert chaos.plan(120.0, 5) == chaos.plan(120.0, 5)
    assert chaos.plan(120.0, 5) != chaos.plan(120.0, 6)


def test_the_console_follows_pids_through_restarts() -> None:
    console = Console()
    console.read("engine       gRPC 127.0.0.1:50052  metrics :0  log /d/engine.log  pid 41\n")
    console.read("all services SERVING; press Ctrl-C to stop\n")
    assert console.ready.is_set()
    assert console.pids == {"engine": 41}
    assert console.addresses == {"engine": "127.0.0.1:50052"}
    console.read("engine exited with signal SIGKILL; restarting in 1s (exit 1 in a row); log x")
    console.read("engine restarted (restart 1, pid 77)")
    console.read("engine SERVING again after restart 1")
    assert console.pids == {"engine": 77}
    assert console.served_again == {"engine": 1}
    assert len(console.supervisor_lines()) == 3


def test_percentiles_are_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.50) == 50.0
    assert percentile(values, 0.99) == 99.0
    assert percentile([], 0.5) == 0.0
    assert percentile([3.0], 0.99) == 3.0


def test_internal_and_unknown_answers_are_kept_for_the_invariant() -> None:
    stats = Stats()
    stats.call_done("Act", 0.01, "OK")
    stats.call_done("Act", 0.01, "ABORTED", "stale version")
    stats.call_done("JoinQueue", 0.02, "INTERNAL", "boom")
    assert stats.actions == 1
    assert stats.codes == {"ABORTED": 1, "INTERNAL": 1}
    assert stats.unexpected == ["JoinQueue: INTERNAL boom"]


def test_the_report_says_which_invariant_broke() -> None:
    stats = Stats()
    stats.table(TableRecord("t1", "briscola", "ONLINE", 0)).status = "FINISHED"
    checks = [Check("ledger", "3 accounts"), Check("league", "2 rows", ["row differs: x"])]
    built = report.build(stats, 2, 60.0, checks, None, [], {})
    assert built["all_invariants_held"] is False
    assert built["tables"]["finished"] == 1
    printed = report.text(built)
    assert "BROKEN  league: 2 rows" in printed
    assert "row differs: x" in printed
    assert printed.endswith("SOME INVARIANTS BROKE")


def test_the_live_view_shows_progress_tables_rates_and_faults() -> None:
    stats = Stats()
    stats.players_ready = 3
    stats.call_done("Act", 0.004, "OK")
    stats.call_done("Act", 0.120, "DEADLINE_EXCEEDED")
    stats.table(TableRecord("t1", "uno", "ONLINE", 0))
    console = RichConsole(record=True, width=120)
    console.print(render(stats, 5, 60.0, "playing", lambda: ["  12s  SIGKILL engine pid 9"]))
    shown = console.export_text()
    assert "3/5 playing" in shown
    assert "1 running" in shown
    assert "DEADLINE_EXCEEDED 1" in shown
    assert "SIGKILL engine pid 9" in shown


def test_plain_lines_tell_each_fault_recovery_and_supervisor_line_once() -> None:
    """``--plain`` prints chaos and supervisor lines while the run goes on, each once and
    in the order they came, not only in the JSON report at the end."""
    happened = Happenings()
    kill = chaos.Struck(chaos.Fault(30.0, "kill", "engine"), at=31.0, detail="pid 41")
    assert happened.fresh([], []) == []
    first = happened.fresh([kill], ["engine exited with signal SIGKILL; restarting in 1s"])
    assert first == [
        "    31s  chaos: SIGKILL engine pid 41",
        "        supervisor: engine exited with signal SIGKILL; restarting in 1s",
    ]
    assert happened.fresh([kill], ["engine exited with signal SIGKILL; restarting in 1s"]) == []
    kill.recovered_after = 4.0
    pause = chaos.Struck(chaos.Fault(50.0, "pause", "lobby", 20.0), at=50.0)
    later = happened.fresh(
        [kill, pause],
        ["engine exited with signal SIGKILL; restarting in 1s", "engine SERVING again"],
    )
    assert later == [
        "    50s  chaos: SIGSTOP lobby for 20s",
        "    35s  chaos: after SIGKILL engine, back in 4s",
        "        supervisor: engine SERVING again",
    ]


def test_a_scratch_platform_keeps_its_logs_and_says_where(tmp_path: Path) -> None:
    """The log paths the run quoted stay readable once it ends; the data goes."""
    folder = tmp_path / "tavolo-simulate-x"
    (folder / "logs").mkdir(parents=True)
    (folder / "logs" / "engine.log").write_text("engine started\n")
    (folder / "postgres" / "base").mkdir(parents=True)
    (folder / "token-secret").write_text("s")
    assert keep_only_logs(folder) == folder / "logs"
    assert sorted(p.name for p in folder.iterdir()) == ["logs"]
    assert (folder / "logs" / "engine.log").read_text() == "engine started\n"
    empty = tmp_path / "no-logs"
    (empty / "nats").mkdir(parents=True)
    assert keep_only_logs(empty) is None and not empty.exists()
