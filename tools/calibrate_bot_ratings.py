"""Calibrate the bots' fixed ratings (RATE-1) from the bot league's seat-rotated deals.

    .venv/bin/python tools/calibrate_bot_ratings.py [--deals 30] [--jobs 1] [game ...]
        [--out services/leaderboard/bot_levels.py] [--in-force-from 2027-01-01T00:00:00+00:00]

Plays the bot league's ladder (``bench/league/``, behind ``bench/bench_bot_league.py``:
its games, options, seat rotations and seeded deals, imported, not copied) at each rated
game's default seat count: random < easy, easy < medium, medium < hard. Each step's
figure is the stronger level's share of the weaker seats it finished ahead of (a tie
counts half), in every game, the chip games included: a chip game's places are its final
chip counts, which is what rates a table. Each share gives a rating gap through the
model's own win probability (``tavolo.leaderboard.ratings.gap_for_share``, partners as
one team where the game has sides): the gap at which Plackett-Luce predicts that share
back. The random player is anchored at ``RANDOM_ANCHOR`` in every game; easy, medium and
hard follow step by step. A step not measured above even (its share at most 0.5) gets
``MIN_STEP``, so the levels keep their order while the bench cannot tell them apart.

The result is written as a data module (every figure beside where it came from) that
``tavolo.leaderboard.ratings`` reads. A recalibration never replaces the one before: it is
added to the game's history with the time it comes into force (``--in-force-from``, by
default the next midnight UTC, and never in the past), and a table is rated with the
calibration in force when it finished. So the tables rated before the change are rated
the same again when the leaderboard rebuilds its ratings from the history (RATE-1), and a
recalibration can be deployed before it takes effect. Solitario alone rates nobody;
raced at two seats or more it is rated by places like the rest, so it is calibrated at
two seats.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib.util
import itertools
import subprocess
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from league.play import MAX_ACTIONS, Tally, play  # noqa: E402
from league.stats import interval  # noqa: E402
from league.tables import Table, default_seats, rotations, tables  # noqa: E402

from tavolo.cardgames.registry import all_games  # noqa: E402
from tavolo.leaderboard.ratings import gap_for_share  # noqa: E402

RANDOM_ANCHOR = 16.5
"""Where the uniformly random legal player sits, in every game: with it there, the
medium bots of the first calibration sit at 25.0 on average over the 16 rated games (a
newcomer's start, where medium was anchored before), so people meet bots on the scale
they had."""
MIN_STEP = 0.5
"""The gap given to a step the bench did not measure above even."""
LEVELS = ("random", "easy", "medium", "hard")
OUT = ROOT / "services" / "leaderboard" / "bot_levels.py"


def place_share(places: Sequence[int], strong: tuple[int, ...]) -> float:
    """The stronger side's share of the weaker seats it finished ahead of (ties half)."""
    weak = [s for s in range(len(places)) if s not in strong]
    mine = places[strong[0]]
    return sum(1.0 if mine < places[w] else 0.5 if mine == places[w] else 0.0 for w in weak) / len(
        weak
    )


def league_table(name: str, seats: int) -> Table:
    """The league's table for the game at ``seats``: its one-deal options, first variant."""
    return tables([name], seats=seats)[0]


def deals(name: str, seats: int, weak: str, strong: str, first: int, count: int) -> list[float]:
    """The step's share on deals ``first``..``first + count``, the seat rotations of a
    deal averaged (one sample a deal), on the league's own seeds."""
    tally = Tally()
    table = league_table(name, seats)
    shares = []
    for n in range(first, first + count):
        seed = f"league-{name}-{seats}-{n}".encode()
        results = []
        for side in rotations(table):
            levels = [strong if s in side else weak for s in range(seats)]
            outcome = play(table, levels, seed, tally, MAX_ACTIONS)
            results.append(place_share(outcome.places, side))
        shares.append(sum(results) / len(results))
    return shares


def measure(name: str, seats: int, weak: str, strong: str, count: int, jobs: int) -> list[float]:
    if jobs == 1:
        return deals(name, seats, weak, strong, 0, count)
    bounds = [(i * count // jobs, (i + 1) * count // jobs) for i in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        futures = [pool.submit(deals, name, seats, weak, strong, a, b - a) for a, b in bounds]
        return [share for future in futures for share in future.result()]


def calibrate(name: str, count: int, jobs: int) -> dict[str, object]:
    """One game's levels and the steps they rest on."""
    seats = max(2, default_seats(name))  # Solitario is rated when raced, 2 seats up
    partners = len(rotations(league_table(name, seats))[0])
    mu = {"random": RANDOM_ANCHOR}
    steps = []
    for weak, strong in itertools.pairwise(LEVELS):
        shares = measure(name, seats, weak, strong, count, jobs)
        mean, low, high = interval(shares)
        gap = gap_for_share(mean, partners) if mean > 0.5 else 0.0
        mu[strong] = mu[weak] + max(gap, MIN_STEP)
        steps.append(
            {
                "step": f"{weak}<{strong}",
                "share": round(mean, 4),
                "ci95": (round(low, 4), round(high, 4)),
                "gap": round(max(gap, MIN_STEP), 3),
            }
        )
    return {
        "seats": seats,
        "partners": partners,
        "deals": count,
        "levels": {level: round(mu[level], 3) for level in LEVELS},
        "steps": steps,
    }


def commit() -> str:
    try:
        out = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return out.stdout.strip()


def render(history: dict[str, list[dict[str, object]]]) -> str:
    lines = [
        '"""The bots\' fixed ratings by game and level (RATE-1), calibrated from the bot',
        "league's seat-rotated deals: generated by ``tools/calibrate_bot_ratings.py``, which",
        "says how; re-run it to recalibrate (never edit by hand).",
        "",
        "Each game keeps every calibration it had, oldest first, each with the time it came",
        "into force (``in_force_from``; None for a game's first, in force from the start): a",
        "table is rated with the one in force when it finished, so a rebuild rates it again",
        "the same (RATE-1). Each says when (``made``) and by which command (``by``) it was",
        f"measured. The random player is anchored at {RANDOM_ANCHOR:g}; a step not measured",
        f"above even gets {MIN_STEP:g}. ``share`` is the stronger level's share of the weaker",
        "seats it finished ahead of, with its 95% confidence interval over the deals.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Any",
        "",
        f"RANDOM_ANCHOR = {RANDOM_ANCHOR!r}",
        f"MIN_STEP = {MIN_STEP!r}",
        "",
        "CALIBRATIONS: dict[str, list[dict[str, Any]]] = {",
    ]
    for name in sorted(history):
        lines.append(f"    {name!r}: {history[name]!r},")
    lines.append("}")
    lines.append("")
    lines.append("BOT_LEVELS: dict[str, dict[str, float]] = {")
    lines.append("    game: dict(entries[-1]['levels']) for game, entries in CALIBRATIONS.items()")
    lines.append("}")
    lines.append('"""The newest calibration of each game."""')
    return "\n".join(lines) + "\n"


def merged(
    previous: dict[str, list[dict[str, object]]],
    fresh: dict[str, dict[str, object]],
    in_force_from: dt.datetime,
) -> dict[str, list[dict[str, object]]]:
    """``previous`` with each fresh calibration added to its game's history, in force from
    ``in_force_from``; a game with no history takes it from the start. A new time must
    come after the game's last one, so the history stays in order."""
    history = {game: list(entries) for game, entries in previous.items()}
    stamp = in_force_from.astimezone(dt.UTC).isoformat()
    for game, entry in fresh.items():
        entries = history.setdefault(game, [])
        last = entries[-1]["in_force_from"] if entries else None
        if isinstance(last, str) and dt.datetime.fromisoformat(last) >= in_force_from:
            raise ValueError(f"{game}: a calibration is already in force from {last}")
        entries.append({**entry, "in_force_from": stamp if entries else None})
    return history


def next_midnight(now: dt.datetime) -> dt.datetime:
    return dt.datetime.combine(now.astimezone(dt.UTC).date(), dt.time(), dt.UTC) + dt.timedelta(
        days=1
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", help="games to calibrate (default: all 17)")
    parser.add_argument("--deals", type=int, default=30, help="deals per step")
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument("--out", type=Path, default=OUT, help="data module to write")
    parser.add_argument(
        "--in-force-from",
        type=dt.datetime.fromisoformat,
        help="when the new calibration starts rating tables (ISO time with its offset; "
        "default: the next midnight UTC)",
    )
    args = parser.parse_args()
    now = dt.datetime.now(dt.UTC)
    in_force_from = args.in_force_from or next_midnight(now)
    if in_force_from.tzinfo is None:
        parser.error("--in-force-from needs its UTC offset, e.g. 2027-01-01T00:00:00+00:00")
    if in_force_from <= now:
        parser.error(
            "--in-force-from must lie in the future: tables already rated keep the "
            "calibration they were rated with"
        )
    names = args.games or sorted(all_games())
    command = "tools/calibrate_bot_ratings.py " + " ".join(sys.argv[1:])
    made = f"{now:%Y-%m-%d %H:%M} UTC, commit {commit()}"
    games = {}
    for name in names:
        started = time.perf_counter()
        games[name] = {**calibrate(name, args.deals, args.jobs), "made": made, "by": command}
        levels = games[name]["levels"]
        assert isinstance(levels, dict)
        print(
            f"{name:<11} "
            + "  ".join(f"{level} {levels[level]:6.2f}" for level in LEVELS)
            + f"  ({time.perf_counter() - started:.0f}s)",
            flush=True,
        )
    previous = _previous(args.out) if args.out.exists() else {}
    try:
        history = merged(previous, games, in_force_from)
    except ValueError as exc:
        parser.error(str(exc))
    args.out.write_text(render(history))
    ruff = Path(sys.executable).parent / "ruff"
    if ruff.exists():  # the project's own formatting, so the module reads like the rest
        subprocess.run([str(ruff), "format", "--quiet", str(args.out)], check=False)
    print(f"wrote {args.out}")
    return 0


def _previous(path: Path) -> dict[str, list[dict[str, object]]]:
    spec = importlib.util.spec_from_file_location("previous_bot_levels", path)
    if spec is None or spec.loader is None:
        return {}
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    found = getattr(module, "CALIBRATIONS", None)
    return dict(found) if isinstance(found, dict) else {}


if __name__ == "__main__":
    raise SystemExit(main())
