"""A knock-out tournament played by bots end to end (PCG-7), beside plain bot tables.

    .venv/bin/python bench/bench_tournament.py [--entrants 256] [--game scopa]

Uses TAVOLO_DATABASE_URL / TAVOLO_NATS_URL when set (a fresh database is created on that
server and dropped afterwards), else starts embedded PostgreSQL and NATS. The lobby, the
engine and the wallet run in this process, on free ports, over real gRPC and NATS.

- **tournament**: ``--entrants`` accounts register (an entry fee held for each); nobody
  follows the tournament, so after its ``show_seconds`` (1 s) a bot plays every seat of
  each match. Timed from the start to the final's end: every table's result crosses NATS
  to the lobby, which advances the winner and opens the next round's tables. The figure
  includes the one-second wait of each round for players who never show.
- **references**, two-bot tables of the same game opened straight at the engine and
  played to the end: as many as the tournament played, as many at once as its first
  round; and the bracket's rounds one after another (128 tables at once, then 64, ...),
  which is the most a bracket allows, every round waiting for the one before.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import grpc
from google.protobuf import struct_pb2, timestamp_pb2

from tavolo.cardgames.registry import get_game
from tavolo.engine.bootstrap import assemble as engine_assemble
from tavolo.lobby.accounts.passwords import fast_passwords
from tavolo.lobby.bootstrap import LobbyOverrides
from tavolo.lobby.bootstrap import make_assemble as lobby_assemble
from tavolo.lobby.context import LobbyConfig
from tavolo.servicekit.auth import Role, TokenSigner
from tavolo.servicekit.embedded import run_on_servers, scratch_database
from tavolo.servicekit.runtime import RunningService, start_service
from tavolo.servicekit.settings import DEV_TOKEN_SECRET, Settings
from tavolo.v1 import (
    common_pb2,
    engine_pb2,
    engine_pb2_grpc,
    lobby_pb2,
    lobby_pb2_grpc,
)
from tavolo.wallet.bootstrap import make_assemble as wallet_assemble
from tavolo.wallet.config import WalletConfig

OPERATOR = ("Operatore", "bench-password-1")
PASSWORD = "bench-password-1"
FEE = 100
SIGNER = TokenSigner(DEV_TOKEN_SECRET)
FINISHED = (lobby_pb2.TOURNAMENT_STATUS_FINISHED, lobby_pb2.TOURNAMENT_STATUS_CANCELLED)


def bearer(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


def options(game: str) -> struct_pb2.Struct:
    """The shortest match the game offers (one hand), so the figure is about tables."""
    found = struct_pb2.Struct()
    if any(spec.name == "match_length" for spec in get_game(game).option_specs):
        found.update({"match_length": "hands:1"})
    return found


async def register_all(lobby: lobby_pb2_grpc.LobbyStub, count: int) -> list[tuple[str, str]]:
    """``count`` accounts (player id, token), ten registrations at a time."""
    slots = asyncio.Semaphore(10)

    async def one(n: int) -> tuple[str, str]:
        async with slots:
            session = await lobby.Register(
                lobby_pb2.RegisterRequest(nickname=f"Bench{n:03d}", password=PASSWORD)
            )
            return session.player_id, session.access_token

    return list(await asyncio.gather(*(one(n) for n in range(count))))


async def enter_all(
    lobby: lobby_pb2_grpc.LobbyStub, tid: str, players: list[tuple[str, str]]
) -> None:
    """Every player registers; the wallet may not have opened an account yet: ask again."""
    slots = asyncio.Semaphore(10)

    async def one(token: str) -> None:
        async with slots:
            for _ in range(200):
                try:
                    await lobby.RegisterTournament(
                        lobby_pb2.RegisterTournamentRequest(tournament_id=tid),
                        metadata=bearer(token),
                    )
                    return
                except grpc.aio.AioRpcError as exc:
                    if exc.code() != grpc.StatusCode.NOT_FOUND:  # the wallet's, not ours
                        raise
                    await asyncio.sleep(0.1)
            raise RuntimeError("the wallet never opened the account")

    await asyncio.gather(*(one(token) for _, token in players))


async def tournament(
    lobby: lobby_pb2_grpc.LobbyStub, game: str, entrants: int
) -> tuple[float, int]:
    """Seconds from the start to the final's end, and the tables played."""
    operator = await lobby.Login(lobby_pb2.LoginRequest(nickname=OPERATOR[0], password=PASSWORD))
    players = await register_all(lobby, entrants)
    lead = timedelta(seconds=30 + entrants / 5)
    starts = datetime.now(UTC) + lead
    stamp = timestamp_pb2.Timestamp()
    stamp.FromDatetime(starts)
    created = await lobby.CreateTournament(
        lobby_pb2.CreateTournamentRequest(
            game=game,
            options=options(game),
            max_entrants=entrants,
            starts_at=stamp,
            fee=FEE,
            split=[50, 30, 20],
            no_show=lobby_pb2.NO_SHOW_BOT,
            show_seconds=1,
        ),
        metadata=bearer(operator.access_token),
    )
    await enter_all(lobby, created.tournament_id, players)
    request = lobby_pb2.GetTournamentRequest(tournament_id=created.tournament_id)
    await asyncio.sleep(max(0.0, (starts - datetime.now(UTC)).total_seconds()))
    began = time.perf_counter()
    while True:
        found = await lobby.GetTournament(request, metadata=bearer(operator.access_token))
        if found.status in FINISHED:
            break
        await asyncio.sleep(0.1)
    seconds = time.perf_counter() - began
    if found.status != lobby_pb2.TOURNAMENT_STATUS_FINISHED:
        raise RuntimeError(f"the tournament was cancelled: {found.cancel_reason}")
    tables = sum(1 for r in found.rounds for m in r.matches if m.table_id)
    return seconds, tables


async def plain_tables(port: int, game: str, tables: int, concurrent: int) -> float:
    """Seconds to play ``tables`` two-bot tables to the end, ``concurrent`` at once."""
    token, _ = SIGNER.issue("bench-operator", [Role.OPERATOR, Role.AUDITOR], ttl_seconds=3600)
    slots = asyncio.Semaphore(concurrent)
    seats = [
        common_pb2.Seat(
            seat=s, nickname=f"Bot {s}", bot=True, bot_level=common_pb2.BOT_LEVEL_MEDIUM
        )
        for s in range(2)
    ]
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = engine_pb2_grpc.EngineStub(channel)

        async def one() -> None:
            async with slots:
                opened = await stub.OpenTable(
                    engine_pb2.OpenTableRequest(
                        game=game,
                        options=options(game),
                        seats=seats,
                        mode=common_pb2.MODE_TOURNAMENT,
                        ko=True,
                        turn_seconds=30,
                    ),
                    metadata=bearer(token),
                )
                watch = engine_pb2.WatchTableRequest(table_id=opened.table_id)
                async for view in stub.WatchTable(watch, metadata=bearer(token)):
                    if view.status != engine_pb2.TABLE_STATUS_PLAYING:
                        return

        started = time.perf_counter()
        await asyncio.gather(*(one() for _ in range(tables)))
    return time.perf_counter() - started


async def run(server_url: str, nats_url: str, args: argparse.Namespace) -> None:
    namespace = f"bench_tournament_{uuid.uuid4().hex[:8]}"
    async with scratch_database(server_url, "bench_tournament") as url:
        settings = Settings(
            database_url=url,
            nats_url=nats_url,
            namespace=namespace,
            development=True,
            token_secret=DEV_TOKEN_SECRET,
        )
        services: dict[str, RunningService] = {}
        try:
            services["wallet"] = await start_service(
                "wallet", wallet_assemble(WalletConfig(welcome_coins=1000)), settings, port=0
            )
            services["engine"] = await start_service("engine", engine_assemble, settings, port=0)
            addresses = {name: f"127.0.0.1:{s.port}" for name, s in services.items()}
            config = LobbyConfig(
                engine_options={"bot_think_millis": 0, "turn_seconds": 30},
                tournament_interval=0.1,
            )
            overrides = LobbyOverrides(
                config=config,
                passwords=fast_passwords(),
                operator=(OPERATOR[0], PASSWORD),
                run_matchmaker=False,
            )
            lobby_settings = replace(settings, addresses=addresses)
            services["lobby"] = await start_service(
                "lobby", lobby_assemble(overrides), lobby_settings, port=0
            )
            async with grpc.aio.insecure_channel(f"127.0.0.1:{services['lobby'].port}") as ch:
                seconds, tables = await tournament(
                    lobby_pb2_grpc.LobbyStub(ch), args.game, args.entrants
                )
            rounds = 0.0
            size = args.entrants // 2
            while size >= 1:
                rounds += await plain_tables(services["engine"].port, args.game, size, size)
                size //= 2
            reference = await plain_tables(
                services["engine"].port, args.game, tables, max(2, args.entrants // 2)
            )
            load = os.getloadavg()[0]
            print(
                f"{f'{args.entrants}-entrant {args.game} tournament, bots, end to end':<52}"
                f" {tables / seconds:6.1f} tables/s   ({tables} tables in {seconds:.1f} s,"
                f" {(args.entrants - 1).bit_length()} rounds with a 1 s no-show wait each)"
            )
            print(
                f"{f'reference: {tables} plain two-bot {args.game} tables':<52}"
                f" {tables / reference:6.1f} tables/s   ({reference:.1f} s,"
                f" {max(2, args.entrants // 2)} at once)"
            )
            print(
                f"{'reference: the bracket as plain tables, round by round':<52}"
                f" {tables / rounds:6.1f} tables/s   ({rounds:.1f} s)"
            )
            print(f"load average (1 min) at the end: {load:.2f}")
        finally:
            for name in ("lobby", "engine", "wallet"):
                if name in services:
                    await services[name].stop(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=256)
    parser.add_argument("--game", default="scopa")
    args = parser.parse_args()
    run_on_servers(lambda database_url, nats_url: run(database_url, nats_url, args))


if __name__ == "__main__":
    main()
