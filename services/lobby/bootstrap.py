"""The lobby's composition root: builds everything from settings at start-up, never at import.

``assemble`` is what ``python -m tavolo.lobby`` runs; ``make_assemble`` lets tests and
tools choose the tunables, the password hasher or the engine and wallet clients.

Lobby-only settings (read once here; each names the variable in its error):

- ``TAVOLO_LOBBY_BOT_FILL_SECONDS`` (30): an online ticket waits this long before bots
  complete its table (MODE-3);
- ``TAVOLO_LOBBY_STAKE_TIMEOUT_SECONDS`` (120): a stake ticket waits this long before
  its table is cancelled and the stake refunded (MODE-4);
- ``TAVOLO_LOBBY_MATCHMAKER_INTERVAL`` (0.5): seconds between matchmaking rounds;
- ``TAVOLO_LOBBY_BOT_LEVEL`` (medium): the level of bots that fill online tables;
- ``TAVOLO_LOBBY_TURN_SECONDS`` / ``TAVOLO_LOBBY_BOT_THINK_MILLIS`` (unset): the turn
  limit and bot delay sent to the engine with every formed table (unset: the engine's
  defaults);
- ``TAVOLO_LOBBY_RATED_MATCHMAKING`` (on): online and stake queues seat players of like
  rating first (RATE-2, ``tavolo.lobby.play.matchmaking``); ``off`` keeps first come,
  first seated everywhere;
- ``TAVOLO_LOBBY_UNRATED_POOLS`` (empty): comma-separated pools that keep first come,
  first seated while the rest are rated: ``game``, ``game|players`` or
  ``game|players|stake`` (``pika,briscola|4,scopa|2|100``);
- ``TAVOLO_LOBBY_RATING_WINDOW_SIGMAS`` (2.5) / ``..._MAX_SIGMAS`` (5) /
  ``TAVOLO_LOBBY_RATING_WINDOW_DOUBLING_SECONDS`` (0.5): a ticket's rating window, that
  many of its sigmas wide at first, doubling every that many seconds of its own wait, at
  most the maximum until the rated deadline;
- ``TAVOLO_LOBBY_OPERATOR`` (unset): ``nickname:password`` of an operator account to
  create (or promote) at start, the deployment's first staff member;
- ``TAVOLO_LOBBY_PLATFORM_ADDRESSES`` (unset): comma-separated IP addresses that are the
  platform's own (a proxy in front of the lobby); like loopback, never a shared address
  in the collusion signals.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import os
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

import grpc

from tavolo.eventlog import PostgresEventStore
from tavolo.eventlog.checkpoint import CheckpointPublisher, signing_key
from tavolo.eventlog.relay import OutboxRelay
from tavolo.lobby import convert, events
from tavolo.lobby.accounts.passwords import Passwords
from tavolo.lobby.app import LobbyApp
from tavolo.lobby.clients import EnginePort, GrpcEngine, GrpcWallet, ServiceToken, WalletPort
from tavolo.lobby.consumers import TableEvents
from tavolo.lobby.context import LobbyConfig, LobbyContext, utc_now
from tavolo.lobby.dead_letters import DeadLetterDesk
from tavolo.lobby.grpc_api import lobby_grpc_service
from tavolo.lobby.play.policy import MatchPolicy
from tavolo.lobby.play.tables import BotLevel
from tavolo.lobby.social.conduct.fair_play import TableLogs
from tavolo.lobby.store import SCHEMA, Database
from tavolo.lobby.updates import LobbyUpdates, Update
from tavolo.messaging import (
    DeadLetters,
    ProcessedMessagesPruner,
    Topology,
    ensure_streams,
    install_processed_messages,
)
from tavolo.servicekit.runtime import Assemble, Infrastructure, ServiceApp
from tavolo.servicekit.settings import CLIENT_CHANNEL_OPTIONS, SettingsError
from tavolo.servicekit.tracing import client_interceptors

RELAY_STOP_SECONDS = 10.0  # at most one batch and one publish timeout


def _seconds(env: Mapping[str, str], name: str, default: float, unit: str = "seconds") -> float:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a number of {unit}, not {raw!r}") from None
    if value <= 0:
        raise SettingsError(f"{name} must be more than 0 {unit}, not {raw}")
    return value


def _switch(env: Mapping[str, str], name: str, *, default: bool) -> bool:
    raw = env.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in ("on", "true", "1", "yes"):
        return True
    if raw in ("off", "false", "0", "no"):
        return False
    raise SettingsError(f"{name} must be on or off, not {raw!r}")


def config_from_env(environ: Mapping[str, str] | None = None) -> LobbyConfig:
    env = os.environ if environ is None else environ
    level_name = env.get("TAVOLO_LOBBY_BOT_LEVEL", BotLevel.MEDIUM.value)
    try:
        level = BotLevel(level_name)
    except ValueError:
        raise SettingsError(
            f"TAVOLO_LOBBY_BOT_LEVEL must be easy, medium or hard, not {level_name!r}"
        ) from None
    policy = MatchPolicy(
        bot_fill_after=timedelta(seconds=_seconds(env, "TAVOLO_LOBBY_BOT_FILL_SECONDS", 30)),
        stake_timeout=timedelta(seconds=_seconds(env, "TAVOLO_LOBBY_STAKE_TIMEOUT_SECONDS", 120)),
        bot_level=level,
        rated=_switch(env, "TAVOLO_LOBBY_RATED_MATCHMAKING", default=True),
        window_start=_seconds(env, "TAVOLO_LOBBY_RATING_WINDOW_SIGMAS", 2.5, unit="sigmas"),
        window_doubling=timedelta(
            seconds=_seconds(env, "TAVOLO_LOBBY_RATING_WINDOW_DOUBLING_SECONDS", 0.5)
        ),
        window_max=_seconds(env, "TAVOLO_LOBBY_RATING_WINDOW_MAX_SIGMAS", 5, unit="sigmas"),
        foresight=_switch(env, "TAVOLO_LOBBY_RATING_FORESIGHT", default=True),
        wait_factor=_seconds(env, "TAVOLO_LOBBY_RATING_WAIT_FACTOR", 1.5, unit="times"),
        rate_window=timedelta(
            minutes=_seconds(env, "TAVOLO_LOBBY_RATING_RATE_MINUTES", 30, unit="minutes")
        ),
        unrated_pools=frozenset(
            p.strip() for p in env.get("TAVOLO_LOBBY_UNRATED_POOLS", "").split(",") if p.strip()
        ),
    )
    engine_options = {
        option: _whole(env, name)
        for option, name in (
            ("turn_seconds", "TAVOLO_LOBBY_TURN_SECONDS"),
            ("bot_think_millis", "TAVOLO_LOBBY_BOT_THINK_MILLIS"),
        )
        if env.get(name)
    }
    return LobbyConfig(
        policy=policy,
        matchmaker_interval=_seconds(env, "TAVOLO_LOBBY_MATCHMAKER_INTERVAL", 0.5),
        engine_options=engine_options,
        platform_addresses=_addresses(env, "TAVOLO_LOBBY_PLATFORM_ADDRESSES"),
    )


def _addresses(env: Mapping[str, str], name: str) -> frozenset[str]:
    found: set[str] = set()
    for raw in env.get(name, "").split(","):
        if not raw.strip():
            continue
        try:
            found.add(str(ipaddress.ip_address(raw.strip())))
        except ValueError:
            raise SettingsError(f"{name} lists IP addresses, and {raw.strip()!r} is none") from None
    return frozenset(found)


def _whole(env: Mapping[str, str], name: str) -> int:
    raw = env[name]
    try:
        value = int(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a whole number, not {raw!r}") from None
    if value < 0:
        raise SettingsError(f"{name} cannot be negative, not {value}")
    return value


def operator_from_env(environ: Mapping[str, str] | None = None) -> tuple[str, str] | None:
    env = os.environ if environ is None else environ
    raw = env.get("TAVOLO_LOBBY_OPERATOR", "")
    if not raw:
        return None
    nickname, sep, password = raw.partition(":")
    if not sep or not nickname or not password:
        raise SettingsError("TAVOLO_LOBBY_OPERATOR must be 'nickname:password'")
    return nickname, password


@dataclass(frozen=True)
class LobbyOverrides:
    """What tests and tools may swap; None keeps the production choice."""

    config: LobbyConfig | None = None
    passwords: Passwords | None = None
    wallet: Callable[[Infrastructure], WalletPort] | None = None
    engine: Callable[[Infrastructure], EnginePort] | None = None
    operator: tuple[str, str] | None = None
    run_matchmaker: bool = True
    run_tournaments: bool = True
    clock: Callable[[], datetime] | None = None


@dataclass
class Assembled:
    """The lobby as built, for tests that want to reach inside an in-process service."""

    app: LobbyApp
    relay: OutboxRelay
    topology: Topology


def make_assemble(
    overrides: LobbyOverrides | None = None,
    *,
    built: Callable[[Assembled], None] | None = None,
) -> Assemble:
    chosen = overrides or LobbyOverrides()

    async def assemble(infra: Infrastructure) -> ServiceApp:
        settings = infra.settings
        config = chosen.config or config_from_env()
        db = Database(infra.pool)
        await db.migrate()
        store = PostgresEventStore(infra.pool, SCHEMA)
        await store.install()
        async with infra.pool.acquire() as conn:
            await install_processed_messages(conn, SCHEMA)
        topology = Topology(settings.namespace, replicas=settings.stream_replicas)
        await ensure_streams(infra.js, topology)
        relay = OutboxRelay(store, infra.js, events.encoder(topology))

        channels: list[grpc.aio.Channel] = []
        token = ServiceToken(infra.signer)

        def channel(service: str) -> grpc.aio.Channel:
            opened = grpc.aio.insecure_channel(
                settings.grpc_address(service),
                options=CLIENT_CHANNEL_OPTIONS,
                interceptors=client_interceptors(),
            )
            channels.append(opened)
            return opened

        wallet = chosen.wallet(infra) if chosen.wallet else GrpcWallet(channel("wallet"), token)
        engine = chosen.engine(infra) if chosen.engine else GrpcEngine(channel("engine"), token)
        updates = LobbyUpdates(infra.nats, settings.namespace)

        async def notify(player_id: str, update: Update) -> None:
            await updates.publish(player_id, convert.lobby_update(update).SerializeToString())

        ctx = LobbyContext(
            db=db,
            events=store,
            wallet=wallet,
            engine=engine,
            notify=notify,
            signer=infra.signer,
            passwords=chosen.passwords or Passwords(),
            config=config,
            clock=chosen.clock or utc_now,
            on_append=relay.wake,
            suspended=updates.suspend,
        )
        app = LobbyApp(ctx)
        operator = chosen.operator or operator_from_env()
        if operator is not None:
            await app.accounts.ensure_operator(*operator)
        table_events = TableEvents(app, topology, infra.js)
        letters = DeadLetterDesk(DeadLetters(infra.js, topology))
        if built is not None:
            built(Assembled(app, relay, topology))

        async def close_channels() -> None:
            for opened in channels:
                await opened.close()

        async def run_relay() -> None:
            """The relay, stopped (not cancelled) when the service stops.

            Cancelling the relay's task mid-batch can surface as a connection error from its
            clean-up, which its retry loop then takes for a failure and retries for ever; so
            the task runs shielded, and cancellation asks the relay to stop after the batch
            in hand, which it does promptly.
            """
            task = asyncio.ensure_future(relay.run())
            try:
                await asyncio.shield(task)
            except asyncio.CancelledError:
                relay.stop()
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(task, RELAY_STOP_SECONDS)
                raise

        background: list[Callable[[], Awaitable[None]]] = [
            run_relay,
            table_events.run,
            app.queue.run_hold_releases,
            app.duplicates.run_daily,
            CheckpointPublisher(
                store,
                infra.nats,
                service="lobby",
                namespace=settings.namespace,
                key=signing_key(settings.checkpoint_key),
                interval=settings.checkpoint_seconds,
            ).run,
            ProcessedMessagesPruner.configured(infra.pool, SCHEMA, settings).run,
        ]
        if chosen.run_matchmaker:
            background.append(app.matchmaker.run)
        if chosen.run_tournaments:
            background.append(app.tournaments.run)
        if isinstance(engine, TableLogs):  # a stand-in engine without logs reads none
            logs: TableLogs = engine
            background.append(lambda: app.fair_play.read_logs(logs))
        return ServiceApp(
            grpc_services=[lobby_grpc_service(app, updates, letters)],
            background=background,  # type: ignore[arg-type]
            on_stop=[close_channels],
        )

    return assemble


async def assemble(infra: Infrastructure) -> ServiceApp:
    """The production lobby."""
    return await make_assemble()(infra)
