"""Every RPC of the four services, fuzzed from the protos: bad input is refused, never a bug.

The methods come from the service descriptors and the requests from each request
message's descriptor (``proto_fuzz``), so an RPC added to a proto is fuzzed the day it
appears. They are sent over real gRPC to the real lobby, engine, wallet and leaderboard
(PostgreSQL and NATS underneath), once with a player's token and once with an operator's,
and every answer must be a status a caller can act on: never INTERNAL or UNKNOWN, never a
reply broken by its own size (RESOURCE_EXHAUSTED about metadata), never a message that
repeats unbounded input, and never a refusal without a ``google.rpc.ErrorInfo`` naming a
registered reason of domain ``tavolo.v1`` that comes with the status sent (API-1).
Streaming RPCs are read up to their first message or error.

Sized by ``tests.scale``: a modest run in `make test`, ten times more in `make soak`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

import grpc
import pytest
from google.protobuf.descriptor import MethodDescriptor
from hypothesis import HealthCheck, given, settings

from tavolo.cardgames.registry import all_games
from tavolo.servicekit.error_details import Refusal, refusal_from_error
from tavolo.servicekit.reasons import DOMAIN, REASONS
from tavolo.v1 import (
    common_pb2,
    engine_pb2,
    engine_pb2_grpc,
    leaderboard_pb2,
    lobby_pb2,
    lobby_pb2_grpc,
    wallet_pb2,
    wallet_pb2_grpc,
)
from tests.e2e.background_platform import BackgroundPlatform
from tests.e2e.proto_fuzz import Known, request_bytes
from tests.integration.lobby.harness import PASSWORD
from tests.integration.lobby.platform import OPERATOR
from tests.scale import scaled

pytestmark = [pytest.mark.e2e, pytest.mark.load]

SERVICES = {
    "lobby": lobby_pb2.DESCRIPTOR.services_by_name["Lobby"],
    "engine": engine_pb2.DESCRIPTOR.services_by_name["Engine"],
    "wallet": wallet_pb2.DESCRIPTOR.services_by_name["Wallet"],
    "leaderboard": leaderboard_pb2.DESCRIPTOR.services_by_name["Leaderboard"],
}
EXAMPLES = scaled(25, 250)  # requests per method and token
UNARY_WAIT = 20.0
STREAM_WAIT = 1.0  # a stream with nothing to say yet is fine: its first answer is the test
LONGEST_MESSAGE = 1024  # characters of a status message: never an echo of a 1 MB input
BUGS = (grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN)
# What the client library says of itself (a stream cut at STREAM_WAIT), not a refusal.
CLIENT_SIDE = (grpc.StatusCode.OK, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.CANCELLED)
# gRPC's own refusal of a request over its message limit (4 MiB), before any handler.
TRANSPORT_LIMIT = "SERVER: Received message larger than max"


@dataclass
class Tally:
    """What the fuzzer saw: answers by status, and the first bad answer of each method."""

    calls: int = 0
    codes: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    bad: dict[tuple[str, str], str] = field(default_factory=dict)

    def record(
        self,
        where: str,
        payload: bytes,
        code: grpc.StatusCode,
        details: str,
        refusal: Refusal | None = None,
    ) -> None:
        self.calls += 1
        self.codes[code.name] += 1
        if refusal is not None:
            self.reasons[refusal.reason] += 1
        wrong = _wrong(code, details) or _unexplained(code, details, refusal)
        if wrong and (where, wrong) not in self.bad:
            self.bad[where, wrong] = (
                f"{code.name} {details[:160]!r}; request {payload[:100]!r} ({len(payload)} bytes)"
            )


def _wrong(code: grpc.StatusCode, details: str) -> str:
    """What is wrong with an answer, in a word; empty when nothing is."""
    if code in BUGS:
        return code.name
    if code == grpc.StatusCode.RESOURCE_EXHAUSTED and "metadata" in details.lower():
        return "METADATA_TOO_LARGE"
    if len(details) > LONGEST_MESSAGE:
        return "MESSAGE_TOO_LONG"
    return ""


def _unexplained(code: grpc.StatusCode, details: str, refusal: Refusal | None) -> str:
    """Why a refusal is not machine-readable (API-1); empty when it is. A request over
    gRPC's message limit is refused by gRPC itself before any service code runs, so it
    cannot carry an ErrorInfo (docs/errors.md says so); the fuzz draws such sizes now and
    then."""
    if code in CLIENT_SIDE:
        return ""
    if code == grpc.StatusCode.RESOURCE_EXHAUSTED and details.startswith(TRANSPORT_LIMIT):
        return ""
    if refusal is None:
        return "NO_ERROR_INFO"
    known = REASONS.get(refusal.reason)
    if refusal.domain != DOMAIN or known is None:
        return f"UNREGISTERED_REASON {refusal.domain}/{refusal.reason}"
    if known.status != code:
        return f"REASON_WITH_OTHER_STATUS {refusal.reason}"
    return ""


def every_method() -> Iterator[tuple[str, MethodDescriptor]]:
    for service_name, service in SERVICES.items():
        for method in service.methods:
            yield service_name, method


def call(
    channel: grpc.Channel, method: MethodDescriptor, payload: bytes, token: str
) -> tuple[grpc.StatusCode, str, Refusal | None]:
    """Send raw request bytes; the status of the answer (or of the stream's first one),
    with the refusal's details."""
    path = f"/{method.containing_service.full_name}/{method.name}"
    metadata = (("authorization", f"Bearer {token}"),)
    try:
        if method.server_streaming:
            stream = channel.unary_stream(path)(payload, metadata=metadata, timeout=STREAM_WAIT)
            try:
                next(stream, None)
            finally:
                stream.cancel()
        else:
            channel.unary_unary(path)(payload, metadata=metadata, timeout=UNARY_WAIT)
    except grpc.RpcError as exc:
        code, details = exc.code(), exc.details() or ""  # type: ignore[attr-defined]
        return code, details, refusal_from_error(exc)
    return grpc.StatusCode.OK, "", None


@dataclass
class World:
    """Who fuzzes (by nickname), and the things on the platform for the fuzzer to aim at."""

    player: str
    operator: str
    known: Known


def fresh_token(channels: dict[str, grpc.Channel], nickname: str) -> str:
    """A new login: a soak outlasts an access token, and the fuzz itself may end a session."""
    password = OPERATOR[1] if nickname == OPERATOR[0] else PASSWORD
    session = lobby_pb2_grpc.LobbyStub(channels["lobby"]).Login(
        lobby_pb2.LoginRequest(nickname=nickname, password=password)
    )
    token: str = session.access_token
    return token


def populate(channels: dict[str, grpc.Channel]) -> World:
    lobby = lobby_pb2_grpc.LobbyStub(channels["lobby"])
    engine = engine_pb2_grpc.EngineStub(channels["engine"])
    wallet = wallet_pb2_grpc.WalletStub(channels["wallet"])

    def auth(session: lobby_pb2.Session) -> tuple[tuple[str, str]]:
        return (("authorization", f"Bearer {session.access_token}"),)

    fuzzer = lobby.Register(lobby_pb2.RegisterRequest(nickname="Fuzzer", password=PASSWORD))
    victim = lobby.Register(lobby_pb2.RegisterRequest(nickname="Victim", password=PASSWORD))
    nickname, password = OPERATOR
    operator = lobby.Login(lobby_pb2.LoginRequest(nickname=nickname, password=password))
    table = lobby.PlayVersusComputer(
        lobby_pb2.PlayVersusComputerRequest(game="pika", players=2), metadata=auth(fuzzer)
    )
    view = engine.GetTable(
        engine_pb2.GetTableRequest(table_id=table.table_id), metadata=auth(fuzzer)
    )
    room = lobby.CreateRoom(
        lobby_pb2.CreateRoomRequest(game="pika", players=2), metadata=auth(fuzzer)
    )
    lobby.Invite(
        lobby_pb2.InviteRequest(room_id=room.room_id, nickname="Victim"), metadata=auth(fuzzer)
    )
    lobby.SendChat(
        lobby_pb2.SendChatRequest(channel=lobby_pb2.ChatChannel(room_id=room.room_id), text="ciao"),
        metadata=auth(fuzzer),
    )
    ticket = lobby.JoinQueue(
        lobby_pb2.JoinQueueRequest(game="pika", players=4), metadata=auth(victim)
    )
    sanction = lobby.ApplySanction(
        lobby_pb2.ApplySanctionRequest(
            player_id=victim.player_id,
            kind=lobby_pb2.SANCTION_KIND_CHAT,
            duration=lobby_pb2.SANCTION_DURATION_ONE_MONTH,
            reason="spam",
        ),
        metadata=auth(operator),
    )
    wallet.Grant(
        wallet_pb2.GrantRequest(
            transfer_id="fuzz-grant", player_id=fuzzer.player_id, amount=500, reason="fuzz"
        ),
        metadata=auth(operator),
    )
    ids = [
        fuzzer.player_id,
        victim.player_id,
        table.table_id,
        room.room_id,
        ticket.ticket_id,
        sanction.sanction_id,
        "fuzz-grant",
    ]
    games = all_games()
    known = Known(
        ids=ids,
        by_name={
            "game": sorted(games),
            "nickname": ["Fuzzer", "Victim", nickname],
            "password": [PASSWORD],
            "refresh_token": [fuzzer.refresh_token],
            "cards": list(view.hand),
            "colour": ["red", "green", "blue", "yellow"],
        },
        option_keys=sorted({s.name for g in games.values() for s in g.option_specs}),
    )
    assert common_pb2.MODE_ONLINE  # the common protos are loaded for nested messages
    return World(fuzzer.nickname, operator.nickname, known)


def fuzz_method(
    channel: grpc.Channel, method: MethodDescriptor, token: str, known: Known, tally: Tally
) -> None:
    where = f"{method.containing_service.name}.{method.name}"

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(payload=request_bytes(method.input_type, known))
    def one_request(payload: bytes) -> None:
        code, details, refusal = call(channel, method, payload, token)
        tally.record(where, payload, code, details, refusal)

    one_request()


def fuzz(channels: dict[str, grpc.Channel], nickname: str, known: Known) -> Tally:
    tally = Tally()
    for service_name, method in every_method():
        token = fresh_token(channels, nickname)
        fuzz_method(channels[service_name], method, token, known, tally)
    return tally


def test_no_rpc_answers_bad_input_with_internal_for_a_player_or_an_operator(
    database_url: str, nats_url: str, namespace: str
) -> None:
    with BackgroundPlatform(database_url, nats_url, namespace) as platform:
        channels = {
            name: grpc.insecure_channel(f"127.0.0.1:{port}")
            for name, port in platform.ports.items()
        }
        try:
            world = populate(channels)
            tallies = {
                "player": fuzz(channels, world.player, world.known),
                "operator": fuzz(channels, world.operator, world.known),
            }
        finally:
            for channel in channels.values():
                channel.close()
    report = []
    for who, tally in tallies.items():
        print(f"{who}: {tally.calls} calls, {dict(sorted(tally.codes.items()))}")
        print(f"{who}: reasons {dict(sorted(tally.reasons.items()))}")
        report += [
            f"{who} {where} {kind}: {bad}" for (where, kind), bad in sorted(tally.bad.items())
        ]
    assert not report, "bad input answered as a bug or without a reason:\n" + "\n".join(report)
    for who, tally in tallies.items():
        assert tally.calls >= len(list(every_method())), f"{who}: too few calls"
