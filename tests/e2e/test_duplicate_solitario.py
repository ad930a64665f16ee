"""Duplicate Solitario end to end: the lobby, the engine and the wallet over real gRPC,
NATS and PostgreSQL. Three players enter one competition, each plays their own table at
the engine, the standings rank them by score, then time, then moves from the engine's
own results; every table commits to the competition's seed, no player reads a log (the
seed) before the close, and after it each verifies their table against the revealed seed.
`tavolo play solitario --daily` enters today's competition and prints its standings."""

from __future__ import annotations

import asyncio
import io
import random
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import grpc
import pytest

from tavolo.cli.main import main as tavolo
from tavolo.cli.play.daily import daily
from tavolo.v1 import common_pb2, engine_pb2, lobby_pb2
from tests.integration.lobby.harness import Player
from tests.integration.lobby.platform import Platform, running_platform
from tests.waiting import eventually

pytestmark = pytest.mark.e2e

CLOSES_IN = timedelta(seconds=20)


@pytest.fixture
async def platform(database_url: str, nats_url: str, namespace: str) -> AsyncIterator[Platform]:
    async with running_platform(database_url, nats_url, namespace) as running:
        yield running


async def play(
    platform: Platform, player: Player, table_id: str, style: str
) -> engine_pb2.TableView:
    """Play a table to its end: 'stop' at once, 'first' (the first move listed, up to 60
    actions) or 'random' (uniform, stop included); the last view."""
    rng = random.Random(table_id)
    acted = 0
    while True:
        view = await platform.engine.GetTable(
            engine_pb2.GetTableRequest(table_id=table_id), metadata=player.metadata
        )
        if view.status != engine_pb2.TABLE_STATUS_PLAYING:
            return view
        legal = list(view.legal_actions)
        stop = next(a for a in legal if a.kind == common_pb2.ACTION_KIND_STOP)
        moves = [a for a in legal if a.kind != common_pb2.ACTION_KIND_STOP]
        if style == "random":
            action = rng.choice(legal)
        elif style == "first" and moves and acted < 60:
            action = moves[0]
        else:
            action = stop
        await platform.engine.Act(
            engine_pb2.ActRequest(table_id=table_id, action=action, expected_version=view.version),
            metadata=player.metadata,
        )
        acted += 1


async def test_three_players_play_the_same_deal_and_the_standings_are_right(
    platform: Platform,
) -> None:
    operator = await platform.operator()
    players = [await platform.register(n) for n in ("Asso", "Bastoni", "Coppe")]
    request = lobby_pb2.CreateDuplicateRequest(duplicate_id="e2e-cup")
    closes_at = datetime.now(UTC) + CLOSES_IN
    request.closes_at.FromDatetime(closes_at)
    made = await platform.lobby.CreateDuplicate(request, metadata=operator.metadata)

    entries = [
        await platform.lobby.JoinDuplicate(
            lobby_pb2.JoinDuplicateRequest(duplicate_id="e2e-cup"), metadata=p.metadata
        )
        for p in players
    ]
    tables = [e.table_id for e in entries]
    # The same deal: every opening view shows the same face-up cards.
    openings = [
        await platform.engine.GetTable(engine_pb2.GetTableRequest(table_id=t), metadata=p.metadata)
        for t, p in zip(tables, players, strict=True)
    ]
    assert len({tuple(v.hand) for v in openings}) == 1 and len(openings[0].hand) == 7
    # ...committed to the competition's seed (an auditor reads the first events).
    for table_id in tables:
        log = await platform.engine.GetTableLog(
            engine_pb2.GetTableLogRequest(table_id=table_id), metadata=operator.metadata
        )
        assert log.events[0].data["seed_commitment"] == made.seed_commitment

    finals = await asyncio.gather(
        *(
            play(platform, p, t, style)
            for p, t, style in zip(players, tables, ("first", "random", "stop"), strict=True)
        )
    )
    assert all(v.status == engine_pb2.TABLE_STATUS_FINISHED for v in finals)
    engine_results = {
        p.nickname: (int(v.outcome.scores[0]), int(v.outcome.detail["moves"][0]))
        for p, v in zip(players, finals, strict=True)
    }

    async def standings() -> lobby_pb2.DuplicateStandings | None:
        found = await platform.lobby.GetDuplicateStandings(
            lobby_pb2.GetDuplicateStandingsRequest(duplicate_id="e2e-cup"),
            metadata=players[0].metadata,
        )
        return found if all(s.result for s in found.standings) else None

    await eventually(standings, "three results in the standings")
    found = await standings()
    assert found is not None and len(found.standings) == 3
    assert {s.nickname: (s.score, s.moves) for s in found.standings} == engine_results
    assert next(s for s in found.standings if s.nickname == "Coppe").result == "stopped"
    ranked = sorted(found.standings, key=lambda s: (-s.score, s.millis, s.moves))
    assert [s.nickname for s in found.standings] == [s.nickname for s in ranked]
    assert [s.place for s in found.standings] == [1, 2, 3] or len(
        {(s.score, s.millis, s.moves) for s in found.standings}
    ) < 3
    assert found.duplicate.seed_hex == ""

    # Finished, a player still cannot read their log (it reveals the seed) until the close.
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await platform.engine.GetTableLog(
            engine_pb2.GetTableLogRequest(table_id=tables[2]), metadata=players[2].metadata
        )
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "competition closes" in (refused.value.details() or "")
    # Nor enter again for a second try.
    again = await platform.lobby.JoinDuplicate(
        lobby_pb2.JoinDuplicateRequest(duplicate_id="e2e-cup"), metadata=players[2].metadata
    )
    assert (again.table_id, again.rejoined) == (tables[2], True)

    await asyncio.sleep(max(0.0, (closes_at - datetime.now(UTC)).total_seconds()) + 0.5)
    closed = await platform.lobby.GetDuplicateStandings(
        lobby_pb2.GetDuplicateStandingsRequest(duplicate_id="e2e-cup"),
        metadata=players[1].metadata,
    )
    assert closed.duplicate.closed and closed.duplicate.seed_hex
    log = await platform.engine.GetTableLog(
        engine_pb2.GetTableLogRequest(table_id=tables[1]), metadata=players[1].metadata
    )
    assert log.events[-1].data["seed"] == closed.duplicate.seed_hex
    server = f"127.0.0.1:{platform.services['engine'].port}"
    token = players[1].session.access_token
    verdict = await asyncio.to_thread(
        tavolo, ["audit", "verify", tables[1], "--server", server, "--token", token]
    )
    assert verdict == 0


async def test_play_solitario_daily_enters_todays_deal_and_prints_the_standings(
    platform: Platform,
) -> None:
    first = await platform.register("Denari")
    entry = await platform.lobby.JoinDuplicate(
        lobby_pb2.JoinDuplicateRequest(daily=True), metadata=first.metadata
    )
    await play(platform, first, entry.table_id, "stop")
    player = await platform.register("Spade")
    out = io.StringIO()
    asked: list[str] = []

    def three_moves_then_stop(prompt: str) -> str:
        asked.append(prompt)
        if len(asked) <= 3:
            return "1"
        return re.findall(r"(\d+)\) stop here", out.getvalue())[-1]

    lobby = f"127.0.0.1:{platform.services['lobby'].port}"
    engine = f"127.0.0.1:{platform.services['engine'].port}"
    code = await asyncio.wait_for(
        daily(lobby, engine, player.session.access_token, three_moves_then_stop, out), 120
    )
    text = out.getvalue()
    assert code == 0, text
    today = f"daily-{datetime.now(UTC).date().isoformat()}"
    assert f"Today's deal ({today}, draw 1, standard scoring)" in text
    assert entry.duplicate.seed_commitment in text
    assert "You stopped with " in text
    assert f"--- {today}: score, then time, then moves" in text
    assert re.search(r"  1\. \w+ ", text) and re.search(r"  2\. \w+ ", text), text
    assert "Spade" in text and "Denari" in text
    # Asked again, the same table: the deal is played once.
    out = io.StringIO()
    code = await daily(lobby, engine, player.session.access_token, three_moves_then_stop, out)
    assert "You entered earlier: your table again." in out.getvalue()


async def test_only_services_deal_a_table_from_a_chosen_seed(platform: Platform) -> None:
    player = await platform.register("Furbo")
    seat = common_pb2.Seat(seat=0, player_id=player.id, nickname=player.nickname)
    request = engine_pb2.OpenTableRequest(
        game="solitario", seats=[seat], mode=common_pb2.MODE_VERSUS_COMPUTER, deal_seed=b"7" * 32
    )
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await platform.engine.OpenTable(request, metadata=player.metadata)
    assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
    operator = await platform.operator()
    request.deal_seed = b"short"
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await platform.engine.OpenTable(request, metadata=operator.metadata)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    request.deal_seed = b""
    request.log_sealed_until.seconds = 2**52
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await platform.engine.OpenTable(request, metadata=operator.metadata)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
