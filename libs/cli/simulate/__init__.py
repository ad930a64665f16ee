"""``tavolo simulate``: a population of simulated players on a whole platform, and chaos.

It starts its own platform as ``tavolo up`` would (embedded PostgreSQL and NATS, the four
services supervised by ``tavolo up``) in a scratch folder, then lets ``--players`` simulated
people play for ``--minutes`` (:mod:`.player`): each registers its own account, takes the
welcome grant, and plays every game offered through the same RPCs a client app uses.
With ``--chaos`` (:mod:`.chaos`) services are killed and paused and NATS and PostgreSQL
restarted while they play. At the end the invariants (:mod:`.invariants`) are checked;
the report is printed and, with ``--report FILE``, written as JSON. Exit 0 only if every
invariant held.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.live import Live

from tavolo.cli.simulate import chaos as chaos_module
from tavolo.cli.simulate import report as reports
from tavolo.cli.simulate.client import Client, Stubs
from tavolo.cli.simulate.display import Happenings, render
from tavolo.cli.simulate.invariants import Checker
from tavolo.cli.simulate.platform import OPERATOR, PlatformError, SimPlatform
from tavolo.cli.simulate.player import PACES, GameChoice, Player, Population
from tavolo.cli.simulate.stats import Stats
from tavolo.servicekit.embedded import EmbeddedServerError
from tavolo.v1 import lobby_pb2

TURN_SECONDS = 10
LOBBY_ENV = {
    "TAVOLO_LOBBY_BOT_FILL_SECONDS": "3",
    "TAVOLO_LOBBY_STAKE_TIMEOUT_SECONDS": "15",
    "TAVOLO_LOBBY_TURN_SECONDS": str(TURN_SECONDS),
    "TAVOLO_LOBBY_BOT_THINK_MILLIS": "300",
}
"""Quick matchmaking and a turn clock short enough that a paused engine runs past it."""
WALK_AWAY_SECONDS = 60.0
"""After the run's time is up, players finish the table they sit at for this long (at
most half the run's length), then leave it running."""
PLAIN_EVERY = 15.0
"""Seconds between two lines of figures with ``--plain``."""
RAMP_SECONDS = 60.0
"""Players arrive over this long (at most a quarter of the run), not all at once."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="simulated players on a whole platform, with --chaos breaking it",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )
    parser.add_argument("--players", type=int, default=20, help="simulated players (20)")
    parser.add_argument("--minutes", type=float, default=5.0, help="how long they play (5)")
    parser.add_argument("--chaos", action="store_true", help="kill, pause and restart parts")
    parser.add_argument(
        "--kills-per-service", type=int, default=3, help="SIGKILLs of each service (3)"
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of the players and chaos")
    parser.add_argument("--games", default="", help="comma-separated games (default: all)")
    parser.add_argument("--report", type=Path, help="write the report as JSON to this file")
    parser.add_argument(
        "--data-dir", type=Path, help="where the platform keeps its data (default: a temp dir)"
    )
    parser.add_argument(
        "--pace",
        choices=sorted(PACES),
        default="human",
        help="human: seconds to think a move (default); fast: for short runs",
    )
    parser.add_argument("--plain", action="store_true", help="progress lines, no live view")
    parser.add_argument(
        "--nats-cluster",
        type=int,
        default=1,
        metavar="NODES",
        help="NATS as a JetStream cluster of this many nodes; chaos then kills the node"
        " leading the events stream instead of restarting NATS (default: one node)",
    )
    parser.set_defaults(handler=run_simulate)


def keep_only_logs(folder: Path) -> Path | None:
    """Remove a scratch platform's data but keep ``tavolo up``'s logs, which the run's
    lines quote; the logs folder (``None`` when there is none)."""
    logs = folder / "logs"
    for part in folder.iterdir() if folder.exists() else []:
        if part != logs:
            if part.is_dir():
                shutil.rmtree(part, ignore_errors=True)
            else:
                part.unlink(missing_ok=True)
    if logs.is_dir():
        return logs
    shutil.rmtree(folder, ignore_errors=True)
    return None


def run_simulate(args: argparse.Namespace) -> int:
    if args.players < 2 or args.minutes <= 0:
        print("--players must be at least 2 and --minutes above 0")
        return 2
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    folder = args.data_dir or Path(tempfile.mkdtemp(prefix="tavolo-simulate-"))
    if args.nats_cluster < 1:
        print("--nats-cluster takes 1 node or more")
        return 2
    platform = SimPlatform(folder, LOBBY_ENV, args.nats_cluster)
    console = Console()
    console.print(f"starting the platform in {folder} (seed {seed})")
    try:
        platform.start()
        report = asyncio.run(simulate(platform, args, seed, console))
    except (PlatformError, EmbeddedServerError) as exc:
        print(f"cannot start: {exc}")
        return 2
    finally:
        platform.stop()
        if args.data_dir is None:
            kept = keep_only_logs(folder)
            if kept is not None:
                print(f"the services' logs are kept in {kept}")
    print(reports.text(report))
    if args.report:
        args.report.write_text(json.dumps(report, indent=2) + "\n")
        print(f"report written to {args.report}")
    return 0 if report["all_invariants_held"] else 1


async def simulate(
    platform: SimPlatform, args: argparse.Namespace, seed: int, console: Console
) -> dict[str, Any]:
    duration = args.minutes * 60.0
    stats = Stats()
    stubs = Stubs.connect(platform.addresses())
    try:
        operator = Client(stubs, Stats(), OPERATOR[0], OPERATOR[1])
        await operator.login()
        games = await _games(operator, args.games)
        began = time.monotonic()
        stats.started = began
        until = began + duration
        population = Population(
            games, stats, PACES[args.pace], until, until + min(WALK_AWAY_SECONDS, duration / 2)
        )
        tag = f"{seed % 46656:03x}"
        rng = random.Random(seed)
        for i in range(args.players):
            client = Client(stubs, stats, f"sim{tag}_{i}")
            population.players.append(Player(client, population, rng.randrange(1 << 30)))
        chaos = None
        if args.chaos:
            faults = chaos_module.plan(duration, seed, args.kills_per_service, TURN_SECONDS + 5.0)
            chaos = chaos_module.Chaos(platform, faults)
        ramp = min(RAMP_SECONDS, duration / 4)
        living = [
            asyncio.create_task(p.live(ramp * i / args.players))
            for i, p in enumerate(population.players)
        ]
        striking = asyncio.create_task(chaos.run(began)) if chaos else None
        phase = ["playing"]

        def fault_lines() -> list[str]:
            struck = [
                f"{r.at:6.0f}s  {r.fault.describe()} {r.detail}"
                + ("" if r.recovered_after is None else f", back after {r.recovered_after:.0f}s")
                for r in (chaos.struck if chaos else [])
            ]
            return struck[-3:] + platform.console.supervisor_lines()[-3:]

        def frame() -> Any:
            return render(stats, args.players, duration, phase[0], fault_lines)

        everyone = asyncio.gather(*living)
        if args.plain or not console.is_terminal:
            happened = Happenings()

            def news() -> list[str]:
                struck = chaos.struck if chaos else []
                return happened.fresh(struck, platform.console.supervisor_lines())

            await _plain_progress(everyone, stats, duration, console, news)
        else:
            with Live(frame(), console=console, refresh_per_second=2) as live:
                while not everyone.done():
                    await asyncio.wait([everyone], timeout=0.5)
                    live.update(frame())
        await everyone
        if striking is not None:
            await striking
        if chaos is not None:
            await chaos.recoveries()
        phase[0] = "checking"
        console.print("the players have stopped; checking the invariants")
        checker = Checker(
            operator,
            {p.client.player_id: p.client for p in population.players if p.client.player_id},
            stats,
            platform.database_url,
            platform.nats_url,
        )
        checks = await checker.run_all()
        settings = {
            "players": args.players,
            "minutes": args.minutes,
            "chaos": bool(args.chaos),
            "kills_per_service": args.kills_per_service if args.chaos else 0,
            "nats_nodes": args.nats_cluster,
            "seed": seed,
            "pace": args.pace,
            "games": [g.name for g in games],
            "lobby": LOBBY_ENV,
        }
        return reports.build(
            stats,
            args.players,
            duration,
            checks,
            chaos,
            platform.console.supervisor_lines(),
            settings,
        )
    finally:
        await stubs.close()


async def _games(operator: Client, only: str) -> list[GameChoice]:
    lobby = operator.stubs.lobby
    found = await operator.call("ListGames", lobby.ListGames, lobby_pb2.ListGamesRequest())
    wanted = {g for g in only.split(",") if g}
    games = [
        GameChoice(g.name, tuple(g.seat_counts) or tuple(range(g.min_players, g.max_players + 1)))
        for g in found.games
        if not wanted or g.name in wanted
    ]
    if not games:
        raise PlatformError(f"no such games: {only}")
    return games


async def _plain_progress(
    everyone: asyncio.Future[Any],
    stats: Stats,
    duration: float,
    console: Console,
    news: Callable[[], list[str]],
) -> None:
    """A line of figures every :data:`PLAIN_EVERY` seconds; between them, each fault and
    each supervisor line as it happens."""
    last = time.monotonic()
    while not everyone.done():
        await asyncio.wait([everyone], timeout=1.0)
        for line in news():
            console.print(line, highlight=False)
        since = time.monotonic() - last
        if since < (1.0 if everyone.done() else PLAIN_EVERY):
            sys.stdout.flush()
            continue
        last = time.monotonic()
        _, actions_s, p50, p99 = stats.live_rates()
        counts = stats.table_counts()
        console.print(
            f"{stats.elapsed():5.0f}s/{duration:.0f}s  players {stats.players_ready}  "
            f"tables {counts.get('PLAYING', 0)} running {counts.get('FINISHED', 0)} finished  "
            f"actions/s {actions_s:.1f}  p50 {p50 * 1000:.0f} ms p99 {p99 * 1000:.0f} ms  "
            f"refusals {dict(stats.codes)}",
            highlight=False,
        )
        sys.stdout.flush()
