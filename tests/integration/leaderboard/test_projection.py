"""Projecting TableFinished into XP, stats, the weekly league and all-time ranking
(MODE-1..3, MODE-5) on a real PostgreSQL, through the same use case the consumer calls.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import random
from zoneinfo import ZoneInfo

import asyncpg

from tavolo.leaderboard.app import Leaderboard
from tavolo.leaderboard.model import Mode
from tavolo.leaderboard.weeks import IsoWeek

from ...unit.leaderboard.tables import MONDAY, finished, payload, seat
from .conftest import PLAYER, histogram_matches_scores, snapshot

W11 = (2025, 11)


async def league(
    lb: Leaderboard, week: tuple[int, int] | None = W11, game: str = ""
) -> list[tuple[int, str, int]]:
    page = await lb.league(week, game, 500, "")
    return [(e.rank, e.player_id, e.points_x2) for e in page.entries]


async def test_mode3_online_table_shows_in_the_league_with_placement_points(
    leaderboard: Leaderboard,
) -> None:
    table = finished([seat("ann", 2), seat("bob", 1), seat("cyd", 3), seat("dan", 4)])
    assert await leaderboard.project_now(payload(table))
    assert await league(leaderboard) == [
        (1, "bob", 14),
        (2, "ann", 10),
        (3, "cyd", 6),
        (4, "dan", 2),
    ]
    assert await league(leaderboard, game="pika") == await league(leaderboard)
    assert await league(leaderboard, game="spades") == []


async def test_the_all_games_league_sums_every_game_and_a_game_league_only_its_own(
    leaderboard: Leaderboard,
) -> None:
    await leaderboard.project_now(payload(finished([seat("ann", 1), seat("bob", 2)])))
    await leaderboard.project_now(
        payload(finished([seat("bob", 1), seat("ann", 2)], game="spades"))
    )
    await leaderboard.project_now(
        payload(finished([seat("bob", 1), seat("cyd", 2)], game="spades"))
    )
    assert await league(leaderboard) == [(1, "bob", 14), (2, "ann", 8), (3, "cyd", 2)]
    assert await league(leaderboard, game="pika") == [(1, "ann", 6), (2, "bob", 2)]
    assert await league(leaderboard, game="spades") == [
        (1, "bob", 12),
        (2, "ann", 2),
        (2, "cyd", 2),
    ]
    standing = await leaderboard.standing(PLAYER, "", None, "spades", 0)
    assert standing.player is not None
    assert (standing.player.rank, standing.player.games) == (2, 1)


async def test_handling_an_event_twice_changes_nothing(
    leaderboard: Leaderboard, pool: asyncpg.Pool
) -> None:
    table = finished([seat("ann", 1), seat("bob", 2)])
    assert await leaderboard.project_now(payload(table))
    before = await snapshot(pool)
    assert not await leaderboard.project_now(payload(table))
    # Another report of the same table under a new event id is not counted either.
    again = finished([seat("ann", 1), seat("bob", 2)], table_id=table.table_id)
    assert not await leaderboard.project_now(payload(again))
    assert await snapshot(pool) == before


async def test_mode1_and_mode2_tables_never_enter_the_league_but_count_in_stats(
    leaderboard: Leaderboard,
) -> None:
    await leaderboard.project_now(
        payload(finished([seat("ann", 1), seat(None, 2)], mode=Mode.VERSUS_COMPUTER))
    )
    await leaderboard.project_now(
        payload(finished([seat("ann", 1), seat("bob", 2)], mode=Mode.VERSUS_FRIENDS))
    )
    assert await league(leaderboard) == []
    stats = await leaderboard.player_stats(PLAYER, "")
    assert (stats.player_id, stats.xp, stats.level) == ("ann", 50, 1)
    assert [(g.game, g.games, g.wins, g.places) for g in stats.games] == [("pika", 2, 2, [2])]
    bob = await leaderboard.player_stats(PLAYER, "bob")
    assert (bob.xp, [(g.games, g.wins, g.places) for g in bob.games]) == (0, [(1, 0, [0, 1])])
    assert (await leaderboard.all_time("pika", 0, "")).entries == []


async def test_mode3_a_bot_filled_table_counts_half(leaderboard: Leaderboard) -> None:
    await leaderboard.project_now(
        payload(finished([seat("ann", 1), seat(None, 2)], bot_filled=True))
    )
    await leaderboard.project_now(payload(finished([seat("bob", 2), seat("cyd", 1)])))
    # A 2-seat table gives 3 and 1 points: ann's bot-filled win is worth 1.5 (x2 = 3).
    assert await league(leaderboard) == [(1, "cyd", 6), (2, "ann", 3), (3, "bob", 2)]
    stats = await leaderboard.player_stats(PLAYER, "ann")
    assert stats.xp == 100  # XP is not halved


async def test_mode5_boosters_raise_xp_but_not_league_points(leaderboard: Leaderboard) -> None:
    table = finished([seat("ann", 1, booster=True, vip=True), seat("bob", 1)])
    await leaderboard.project_now(payload(table))
    assert await league(leaderboard) == [(1, "ann", 6), (1, "bob", 6)]
    assert (await leaderboard.player_stats(PLAYER, "ann")).xp == 300
    assert (await leaderboard.player_stats(PLAYER, "bob")).xp == 100


async def test_mode3_weeks_split_one_second_before_and_after_monday_midnight(
    leaderboard: Leaderboard,
) -> None:
    midnight = IsoWeek(2025, 12).monday(ZoneInfo("UTC"))
    before = finished([seat("ann", 1), seat("bob", 2)], at=midnight - dt.timedelta(seconds=1))
    after = finished([seat("bob", 1), seat("ann", 2)], at=midnight + dt.timedelta(seconds=1))
    await leaderboard.project_now(payload(before))
    await leaderboard.project_now(payload(after))
    assert await league(leaderboard, (2025, 11)) == [(1, "ann", 6), (2, "bob", 2)]
    assert await league(leaderboard, (2025, 12)) == [(1, "bob", 6), (2, "ann", 2)]
    # The current week (the clock says W11) is the default; W13 has not started: empty.
    assert await league(leaderboard, None) == await league(leaderboard, (2025, 11))
    assert await league(leaderboard, (2025, 13)) == []


async def test_queries_on_an_empty_week_answer_empty(leaderboard: Leaderboard) -> None:
    page = await leaderboard.league((2024, 52), "", 10, "")
    assert (page.week, page.entries, page.next_page_token) == (IsoWeek(2024, 52), [], "")
    standing = await leaderboard.standing(PLAYER, "", (2024, 52), "pika", 0)
    assert (standing.player, standing.neighbours) == (None, [])
    stats = await leaderboard.player_stats(PLAYER, "nobody")
    assert (stats.xp, stats.level, stats.xp_to_next_level, stats.games) == (0, 1, 100, [])
    assert (await leaderboard.all_time("pika", 10, "")).entries == []


async def test_ties_share_a_rank_on_every_page(leaderboard: Leaderboard) -> None:
    # Points x2: ann 14, bob 10, cyd 10, dan 10, eve 6, fay 2.
    await leaderboard.project_now(
        payload(finished([seat("ann", 1), seat("bob", 2), seat("cyd", 2), seat("dan", 2)]))
    )
    await leaderboard.project_now(payload(finished([seat("eve", 1), seat("fay", 2)])))
    pages, token = [], ""
    while True:
        page = await leaderboard.league(W11, "", 2, token)
        pages.append([(e.rank, e.player_id) for e in page.entries])
        token = page.next_page_token
        if not token:
            break
    assert pages == [
        [(1, "ann"), (2, "bob")],
        [(2, "cyd"), (2, "dan")],
        [(5, "eve"), (6, "fay")],
    ]


async def test_a_standing_shows_the_rank_and_the_players_around(
    leaderboard: Leaderboard,
) -> None:
    for place_of_ann in (1, 2, 3, 4):
        others = iter(["bob", "cyd", "dan", "eve", "fay", "gus"][place_of_ann - 1 :][:3])
        seats = [seat("ann" if p == place_of_ann else next(others), p) for p in (1, 2, 3, 4)]
        await leaderboard.project_now(payload(finished(seats)))
    full = await league(leaderboard)
    standing = await leaderboard.standing(PLAYER, "dan", None, "", 2)
    assert standing.player is not None
    position = [row[1] for row in full].index("dan")
    window = full[max(0, position - 2) : position + 3]
    assert [(r.rank, r.player_id, r.points_x2) for r in standing.neighbours] == window
    assert (standing.player.rank, standing.player.player_id) == full[position][:2]
    top = await leaderboard.standing(PLAYER, "", None, "", 1)  # ann, first: nobody above
    assert [r.player_id for r in top.neighbours] == [row[1] for row in full[:2]]


async def test_all_time_ranking_counts_wins_at_league_tables(leaderboard: Leaderboard) -> None:
    for winner, loser in [("ann", "bob"), ("ann", "cyd"), ("bob", "cyd"), ("cyd", "bob")]:
        await leaderboard.project_now(payload(finished([seat(winner, 1), seat(loser, 2)])))
    await leaderboard.project_now(
        payload(finished([seat("dan", 1), seat(None, 2)], mode=Mode.VERSUS_COMPUTER))
    )
    page = await leaderboard.all_time("pika", 2, "")
    assert [(e.rank, e.player_id, e.points_x2, e.games) for e in page.entries] == [
        (1, "ann", 4, 2),
        (2, "bob", 2, 3),
    ]
    rest = await leaderboard.all_time("pika", 2, page.next_page_token)
    assert [(e.rank, e.player_id) for e in rest.entries] == [(2, "cyd")]
    assert rest.next_page_token == ""


async def test_concurrent_projections_of_shared_players_neither_deadlock_nor_lose(
    leaderboard: Leaderboard, pool: asyncpg.Pool
) -> None:
    rng = random.Random(7)
    players = [f"p{i}" for i in range(6)]
    tables = []
    for _ in range(60):
        four = rng.sample(players, 4)
        tables.append(finished([seat(p, i + 1) for i, p in enumerate(four)]))
    results = await asyncio.gather(*(leaderboard.project_now(payload(t)) for t in tables))
    assert all(results)
    rows = await league(leaderboard)
    assert sum(points for _, _, points in rows) == 60 * (14 + 10 + 6 + 2)
    assert await histogram_matches_scores(pool)
    assert MONDAY.isocalendar()[:2] == W11
