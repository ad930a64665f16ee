"""Rating figures (RATE-1, RATE-2), each beside its goal and a reference from the same run.

    .venv/bin/python bench/bench_ratings.py [--players 1000] [--tables-each 30]
        [--newcomers 50] [--seconds 600] [--warm-up 1800] [--arrivals 4] [--draws 32]
        [--window-start 2.5] [--doubling 0.5] [--window-max 5] [--windows-alone]
        [--clairvoyant-tickets 2400] [--clairvoyant-moves 1500] [--bound-rounds 200]
        [--wait-goals 1.5]

(a) Ratings: ``--players`` with hidden true strengths (normal, sd 1) play 4-seat tables
    (no partners, as Pika) drawn at random; a table's places follow Plackett-Luce on the
    true strengths (each seat's performance is its strength plus Gumbel noise), and the
    leaderboard's own ``rate_table`` rates it. After ``--tables-each`` tables per player:
    the Spearman correlation of ratings (mu) with the truth (goal >= 0.9). Then
    ``--newcomers`` new players join the settled population and play 40 tables each: from
    which table on each one's rating stays within one tier (decile of the population) of
    their true decile (median and p90; 41 for one who never settles).
(b) Matchmaking: the same population queues into one 4-seat online pool, ``--arrivals``
    tickets a second for ``--seconds`` simulated seconds after ``--warm-up`` seconds of
    the same (a running lobby's pool has its history: by default as long as the rate
    window it reads; ``--warm-up 0`` starts from an empty pool), the same arrivals both
    times (``--draws`` draws of them, each shown, and the figures over all draws
    together), through the lobby's pure ``plan_pool`` every 0.5 s: first come (ratings
    off) against rated, with foresight from the pool's outlook read as the lobby reads
    it from its tickets (``queue_store.pool_outlook``; ``--windows-alone``: without
    foresight). Figures: mean rating spread at formed tables (max - min of the people's
    mu; goal rated <= half of first come), p50/p95 wait (goal rated p95 <= 1.5x first
    come), and tickets matched per second of ``plan_pool`` CPU alone (for scale: the
    goal on tickets matched per second, within 10% of first come, is measured with
    PostgreSQL by ``bench_lobby.py``, section 1b, where the decision is a small part of
    a round).
(c) Clairvoyant (``bench/clairvoyant``): the first ``--clairvoyant-tickets`` arrivals of
    (b), grouped by one who knows them all in advance, with the wait p95 at most
    ``--wait-goals`` times first come's: the mean spread a grouping reaches (annealed,
    ``--clairvoyant-moves`` swaps a ticket) and a lower bound no grouping beats (a
    Lagrangian relaxation, ``--bound-rounds`` subgradient rounds), both over first come's.
    What the clairvoyant cannot reach, no matchmaking rule can.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import time
from collections import deque
from datetime import UTC, datetime, timedelta

from clairvoyant.bound import lower_bound
from clairvoyant.grouping import best_grouping
from clairvoyant.instance import SEATS, Arrival, Pool

from tavolo.leaderboard.model import FinishedTable, Mode, SeatResult
from tavolo.leaderboard.ratings import Rating, rate_table
from tavolo.lobby.play.foresight import Arrivals, PoolOutlook, pool_pace
from tavolo.lobby.play.matchmaker import HISTORY_REFRESH
from tavolo.lobby.play.matchmaking import FormTable, plan_pool
from tavolo.lobby.play.policy import MatchPolicy, WaitingTicket
from tavolo.lobby.play.queue_store import OUTLOOK_SAMPLE as SAMPLE

START = datetime(2026, 1, 1, tzinfo=UTC)
NEWCOMER_TABLES = 40
STEP = 0.5  # seconds between matchmaking rounds


def ranks(values: list[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    for r, i in enumerate(order):
        out[i] = float(r)
    return out


def spearman(a: list[float], b: list[float]) -> float:
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    var = math.sqrt(sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb))
    return cov / var


def play(rng: random.Random, seats: list[str], truth: dict[str, float], n: int) -> FinishedTable:
    """One table whose places follow Plackett-Luce on the true strengths."""
    perf = [truth[p] - math.log(-math.log(rng.random())) for p in seats]
    order = sorted(range(len(seats)), key=lambda i: -perf[i])
    place = {seat: rank + 1 for rank, seat in enumerate(order)}
    return FinishedTable(
        f"e{n}",
        f"t{n}",
        "pika",
        Mode.ONLINE,
        False,
        START,
        tuple(SeatResult(i, p, False, False, False, place[i]) for i, p in enumerate(seats)),
    )


def rate(ratings: dict[str, Rating], table: FinishedTable) -> None:
    for change in rate_table(table, ratings):
        ratings[change.player_id] = change.after


def settle(
    rng: random.Random, players: list[str], truth: dict[str, float], rounds: int
) -> tuple[dict[str, Rating], int]:
    ratings: dict[str, Rating] = {}
    n = 0
    for _ in range(rounds):
        order = players[:]
        rng.shuffle(order)
        for i in range(0, len(order) - 3, 4):
            n += 1
            rate(ratings, play(rng, order[i : i + 4], truth, n))
    return ratings, n


def decile(value: float, sorted_values: list[float]) -> int:
    below = sum(1 for v in sorted_values if v < value)
    return min(9, below * 10 // max(1, len(sorted_values)))


def part_a(args: argparse.Namespace) -> dict[str, Rating]:
    rng = random.Random(7)
    players = [f"p{i}" for i in range(args.players)]
    truth = {p: rng.gauss(0, 1) for p in players}
    started = time.perf_counter()
    ratings, n = settle(rng, players, truth, args.tables_each)
    took = time.perf_counter() - started
    rho = spearman([ratings[p].mu for p in players], [truth[p] for p in players])
    print(f"(a) {args.players} players, {args.tables_each} tables each ({n} tables rated,")
    print(f"    {n / took:,.0f} tables/s through rate_table)")
    print(f"    Spearman(ratings, truth) = {rho:.3f}   goal >= 0.9")
    true_sorted = sorted(truth.values())
    needed: list[int] = []
    first_within: list[int] = []
    est_sorted = sorted(ratings[p].mu for p in players)  # the settled population holds still
    for k in range(args.newcomers):
        name = f"new{k}"
        truth[name] = rng.gauss(0, 1)
        true_tier = decile(truth[name], true_sorted)
        settled_from = 0  # tables after which the newcomer stays within one tier
        reached = NEWCOMER_TABLES + 1
        for played in range(1, NEWCOMER_TABLES + 1):
            seats = [name, *rng.sample(players, 3)]
            rng.shuffle(seats)
            n += 1
            table = play(rng, seats, truth, n)
            before = {p: ratings[p] for p in seats if p in ratings}
            for change in rate_table(table, before):
                if change.player_id == name:
                    ratings[name] = change.after  # the settled players stay as they are
            if abs(decile(ratings[name].mu, est_sorted) - true_tier) > 1:
                settled_from = played
            else:
                reached = min(reached, played)
        first_within.append(reached)
        needed.append(settled_from + 1 if settled_from < NEWCOMER_TABLES else NEWCOMER_TABLES + 1)
    needed.sort()
    first_within.sort()
    p90 = needed[int(0.9 * (len(needed) - 1))]
    print(
        f"    a newcomer's rating first comes within one tier (decile) of their true one at"
        f" table {statistics.median(first_within):.0f} (median),"
        f" {first_within[int(0.9 * (len(first_within) - 1))]} (p90)"
    )
    print(
        f"    a newcomer's rating stays within one tier (decile) of their true one from table"
        f" {statistics.median(needed):.0f} on (median), {p90} (p90), over {args.newcomers}"
        f" newcomers playing {NEWCOMER_TABLES} tables each"
    )
    return {p: ratings[p] for p in players}


def simulate(
    args: argparse.Namespace,
    ratings: dict[str, Rating],
    rated: bool,
    arrivals: list[Arrival] | None = None,
    draw: int = 0,
) -> tuple[list[float], list[float], int, float]:
    """Spreads, waits, tickets seated and ``plan_pool`` CPU; the arrivals are appended to
    ``arrivals`` when given."""
    rng = random.Random(11 + draw)  # the same arrivals both times
    players = sorted(ratings)
    policy = MatchPolicy(
        bot_fill_after=timedelta(seconds=30),
        window_start=args.window_start,
        window_doubling=timedelta(seconds=args.doubling),
        window_max=args.window_max,
        foresight=not args.windows_alone,
    )
    waiting: list[WaitingTicket] = []
    recent: deque[list] = deque()  # [queued_at, mu, waited or None], as the lobby's table
    history: deque[datetime] = deque()  # arrivals within the rate window
    kept: tuple[datetime, Arrivals] | None = None  # as the matchmaker keeps it
    warm_up = args.warm_up  # the pool runs this long before its figures count
    spreads: list[float] = []
    waits: list[float] = []
    matched = 0
    cpu = 0.0
    busy: set[str] = set()
    record: dict[str, list] = {}
    next_arrival = 0.0
    n = 0
    step = STEP
    clock = 0.0
    while clock < warm_up + args.seconds:
        counted = clock >= warm_up
        while next_arrival <= clock:
            free = [p for p in rng.sample(players, 8) if p not in busy]
            if free:
                p = free[0]
                busy.add(p)
                r = ratings[p]
                n += 1
                when = START + timedelta(seconds=next_arrival)
                waiting.append(WaitingTicket(f"k{n}", p, p, when, None, r.mu, r.sigma))
                recent.append([when, r.mu, None])
                history.append(when)
                record[f"k{n}"] = recent[-1]
                if arrivals is not None and next_arrival >= warm_up:
                    arrivals.append(Arrival(next_arrival - warm_up, r.mu))
            next_arrival += rng.expovariate(args.arrivals)
        now = START + timedelta(seconds=clock)
        started = time.perf_counter()
        outlook = None
        if rated and policy.foresight:
            while recent and recent[0][0] <= now - policy.outlook_window:
                recent.popleft()
            while history and history[0] <= now - policy.rate_window:
                history.popleft()
            if kept is None or now - kept[0] >= HISTORY_REFRESH:
                kept = (now, Arrivals(len(history), history[0], history[-1]))
            outlook = outlook_of(recent, kept[1], now, policy)
        decisions = plan_pool(
            waiting, players=4, stake=0, now=now, policy=policy, rated=rated, outlook=outlook
        )
        if counted:
            cpu += time.perf_counter() - started
        seated: set[str] = set()
        for d in decisions:
            assert isinstance(d, FormTable)
            mus = [t.mu for t in d.tickets]
            if len(mus) > 1 and counted:
                spreads.append(max(mus) - min(mus))
            for t in d.tickets:
                if counted:
                    waits.append((now - t.queued_at).total_seconds())
                record.pop(t.ticket_id)[2] = now - t.queued_at
                seated.add(t.ticket_id)
                busy.discard(t.player_id)
            matched += len(d.tickets) if counted else 0
        waiting = [t for t in waiting if t.ticket_id not in seated]
        clock += step
    return spreads, waits, matched, cpu


def outlook_of(
    recent: deque[list], history: Arrivals, now: datetime, policy: MatchPolicy
) -> PoolOutlook | None:
    """The pool's outlook as the lobby reads it from its tickets (``pool_outlook``, with
    the ``history`` the matchmaker keeps for ``HISTORY_REFRESH``)."""
    if not recent:
        return None
    pace = pool_pace(
        Arrivals(len(recent), recent[0][0], recent[-1][0]),
        history,
        players=SEATS,
        policy=policy,
        round_seconds=STEP,
    )
    if pace is None:
        return None
    rate, target = pace
    late = sum(1 for q, _, w in recent if (now - q if w is None else w) > target)
    latest = [mu for _, mu, _ in itertools.islice(reversed(recent), SAMPLE)]
    return PoolOutlook.of(
        rate=rate,
        target=target,
        arrivals=len(recent),
        late=late,
        ratings=latest,
        policy=policy,
        round_seconds=STEP,
    )


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[int(q * (len(ordered) - 1))]


def part_b(args: argparse.Namespace, ratings: dict[str, Rating]) -> None:
    """The matchmaker both ways on the same arrivals, on ``--draws`` draws of arrivals,
    then the clairvoyant on the first draw's."""
    print(
        f"(b) one 4-seat pool, {args.arrivals} tickets/s for {args.seconds} s after"
        f" {args.warm_up:g} s of the same, same arrivals;"
        f" window {args.window_start:g} sigmas doubling every {args.doubling:g} s,"
        f" at most {args.window_max:g}; {args.draws} draws of arrivals"
    )
    pooled: dict[str, tuple[list[float], list[float], int, float]] = {}
    arrivals: list[Arrival] = []
    first: dict[str, tuple[float, float]] = {}
    for draw in range(args.draws):
        results = {}
        for name, rated in (("first come", False), ("rated", True)):
            kept = arrivals if draw == 0 and not rated else None
            spreads, waits, matched, cpu = simulate(args, ratings, rated, kept, draw)
            results[name] = (statistics.fmean(spreads), pct(waits, 0.5), pct(waits, 0.95))
            before = pooled.get(name, ([], [], 0, 0.0))
            pooled[name] = (
                before[0] + spreads,
                before[1] + waits,
                before[2] + matched,
                before[3] + cpu,
            )
            print(
                f"    draw {draw + 1} {name:<10} spread {results[name][0]:6.2f}"
                f"  wait p50 {results[name][1]:5.1f} s  p95 {results[name][2]:5.1f} s"
                f"  ({matched} seated)"
            )
        fc, rt = results["first come"], results["rated"]
        first.setdefault("first come", (fc[0], fc[2]))
        print(
            f"    draw {draw + 1}: spread rated / first come = {rt[0] / fc[0]:.3f},"
            f" wait p95 = {rt[2] / fc[2]:.3f}x"
        )
    fc_spreads, fc_waits, fc_matched, fc_cpu = pooled["first come"]
    rt_spreads, rt_waits, rt_matched, rt_cpu = pooled["rated"]
    spread = statistics.fmean(rt_spreads) / statistics.fmean(fc_spreads)
    wait = pct(rt_waits, 0.95) / pct(fc_waits, 0.95)
    print(f"    all draws: spread rated / first come = {spread:.4f}   goal <= 0.5")
    print(f"    all draws: wait p95 rated / first come = {wait:.4f}   goal <= 1.5")
    print(
        f"    plan_pool CPU: {fc_matched / fc_cpu:,.0f} tickets matched/s first come,"
        f" {rt_matched / rt_cpu:,.0f} rated with its outlook"
        " (the goal is on bench_lobby 1b's figure, over PostgreSQL)"
    )
    part_c(args, arrivals, *first["first come"])


def part_c(
    args: argparse.Namespace, arrivals: list[Arrival], first_spread: float, first_p95: float
) -> None:
    """The clairvoyant (knows every arrival in advance) on the first arrivals of (b): a
    grouping it reaches and a bound that no grouping, so no rule, beats, at each cap."""
    count = min(len(arrivals), args.clairvoyant_tickets) // SEATS * SEATS
    if not args.wait_goals or not count:
        return
    print(
        f"(c) clairvoyant on the first {count} of those arrivals"
        f" ({arrivals[count - 1].at:.0f} s), each table forming at the first round after its"
        " last arrival; spread / first come's"
    )
    for goal in args.wait_goals:
        pool = Pool(tuple(arrivals[:count]), goal * first_p95, STEP)
        started = time.process_time()
        tables = best_grouping(pool, args.clairvoyant_moves * count)
        reached = statistics.fmean(pool.spread(t) for t in tables)
        waits = [w for t in tables for w in pool.waits(t)]
        bound = lower_bound(pool, reached, args.bound_rounds)
        took = time.process_time() - started
        print(
            f"    wait p95 at most {goal:g}x first come's ({pool.cap:.2f} s): reaches"
            f" {reached / first_spread:.2f} (p95 {pct(waits, 0.95) / first_p95:.2f}x);"
            f" no grouping below {bound / first_spread:.2f}   ({took:.0f} s CPU)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--tables-each", type=int, default=30)
    parser.add_argument("--newcomers", type=int, default=50)
    parser.add_argument("--seconds", type=int, default=600)
    parser.add_argument(
        "--warm-up",
        type=float,
        default=MatchPolicy().rate_window.total_seconds(),
        help="seconds the pool runs before (b) counts (its history)",
    )
    parser.add_argument("--arrivals", type=float, default=4.0)
    parser.add_argument(
        "--windows-alone", action="store_true", help="rated without foresight (the windows rule)"
    )
    parser.add_argument(
        "--draws", type=int, default=32, help="draws of arrivals for (b), each both ways"
    )
    defaults = MatchPolicy()
    parser.add_argument(
        "--window-start", type=float, default=defaults.window_start, help="sigmas at first"
    )
    parser.add_argument(
        "--doubling",
        type=float,
        default=defaults.window_doubling.total_seconds(),
        help="a ticket's window doubles every this many seconds of its wait",
    )
    parser.add_argument(
        "--window-max", type=float, default=defaults.window_max, help="sigmas at most"
    )
    parser.add_argument(
        "--clairvoyant-tickets", type=int, default=2400, help="arrivals the clairvoyant groups"
    )
    parser.add_argument(
        "--clairvoyant-moves", type=int, default=1500, help="annealing swaps per ticket"
    )
    parser.add_argument("--bound-rounds", type=int, default=200, help="subgradient rounds")
    parser.add_argument(
        "--wait-goals",
        type=lambda text: [float(x) for x in text.split(",") if x],
        default=[1.5],
        help="caps on the clairvoyant's wait p95, in first come's (comma-separated; none: no (c))",
    )
    args = parser.parse_args()
    ratings = part_a(args)
    part_b(args, ratings)


if __name__ == "__main__":
    main()
