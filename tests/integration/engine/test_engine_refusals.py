"""Refusals are clear, use the right status and change nothing (DESIGN guarantees 8, 9), and
carry the reason and the values a client app needs to explain them (API-1)."""

from __future__ import annotations

import grpc
import pytest

from tavolo.servicekit.auth import Role
from tavolo.servicekit.error_details import refusal_from_error
from tavolo.v1 import common_pb2, engine_pb2, engine_pb2_grpc
from tests.integration.engine.helpers import auth, bot, human, open_request

PLAYERS = ("ann", "bob", "cat", "dan")
OPERATOR = auth("ops", Role.OPERATOR)
AUDITOR = auth("aud", Role.AUDITOR)


async def _open(stub: engine_pb2_grpc.EngineStub, table_id: str = "") -> str:
    request = open_request([human(s, p) for s, p in enumerate(PLAYERS)], table_id=table_id)
    response = await stub.OpenTable(request, metadata=OPERATOR)
    return response.table_id


async def _log_length(stub: engine_pb2_grpc.EngineStub, table_id: str) -> int:
    log = await stub.GetTableLog(engine_pb2.GetTableLogRequest(table_id=table_id), metadata=AUDITOR)
    return len(log.events)


async def _refused(
    call: object,
    code: grpc.StatusCode,
    words: str,
    reason: str = "",
    metadata: dict[str, str] | None = None,
) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call  # type: ignore[misc]
    assert caught.value.code() == code, caught.value.details()
    assert words in (caught.value.details() or ""), caught.value.details()
    refusal = refusal_from_error(caught.value)
    assert refusal is not None and refusal.domain == "tavolo.v1", caught.value.details()
    if reason:
        assert refusal.reason == reason, refusal
        assert dict(refusal.metadata) == dict(refusal.metadata) | (metadata or {}), refusal


async def test_every_refusal_has_its_status_a_clear_message_and_changes_nothing(
    stub: engine_pb2_grpc.EngineStub,
) -> None:
    table_id = await _open(stub)
    view = await stub.GetTable(engine_pb2.GetTableRequest(table_id=table_id), metadata=auth("ann"))
    (turn,) = view.to_act
    mover, idle = PLAYERS[turn], PLAYERS[(turn + 1) % 4]
    mine = await stub.GetTable(engine_pb2.GetTableRequest(table_id=table_id), metadata=auth(mover))
    legal = mine.legal_actions[0]
    before = await _log_length(stub, table_id)

    def act(player: str, action: common_pb2.Action, **fields: object) -> object:
        request = engine_pb2.ActRequest(table_id=table_id, action=action, **fields)  # type: ignore[arg-type]
        return stub.Act(request, metadata=auth(player))

    # Out of turn: the rules refuse (FAILED_PRECONDITION).
    await _refused(
        act(idle, common_pb2.Action(kind=common_pb2.ACTION_KIND_DRAW)),
        grpc.StatusCode.FAILED_PRECONDITION,
        "out of turn",
        "NOT_YOUR_TURN",
        {"table_id": table_id, "version": str(view.version), "seat": str((turn + 1) % 4)},
    )
    # A card the mover does not hold: the rules name it (API-1).
    theirs = await stub.GetTable(engine_pb2.GetTableRequest(table_id=table_id), metadata=auth(idle))
    stranger = next(card for card in theirs.hand if card not in mine.hand)
    await _refused(
        act(mover, common_pb2.Action(kind=common_pb2.ACTION_KIND_PLAY, cards=[stranger])),
        grpc.StatusCode.FAILED_PRECONDITION,
        f"you do not hold {stranger}",
        "CARD_NOT_HELD",
        {"table_id": table_id, "version": str(view.version), "seat": str(turn), "card": stranger},
    )
    # For another seat, or with no seat at all (PERMISSION_DENIED).
    await _refused(
        act(idle, legal, seat=turn),
        grpc.StatusCode.PERMISSION_DENIED,
        f"cannot act for seat {turn}",
        "SEAT_NOT_YOURS",
        {"seat": str((turn + 1) % 4), "requested": str(turn)},
    )
    await _refused(
        act("eve", legal),
        grpc.StatusCode.PERMISSION_DENIED,
        "no seat",
        "NO_SEAT",
        {"table_id": table_id},
    )
    # Timers belong to the engine.
    expire = common_pb2.Action(kind=common_pb2.ACTION_KIND_EXPIRE, timer="turn:0")
    await _refused(
        act(mover, expire), grpc.StatusCode.PERMISSION_DENIED, "timers", "TIMER_CLIENT_FORBIDDEN"
    )
    # Malformed: no kind (INVALID_ARGUMENT).
    await _refused(
        act(mover, common_pb2.Action()),
        grpc.StatusCode.INVALID_ARGUMENT,
        "kind",
        "ACTION_MALFORMED",
    )
    # A version the table has not reached (INVALID_ARGUMENT: no view ever showed it).
    await _refused(
        act(mover, legal, expected_version=view.version + 5),
        grpc.StatusCode.INVALID_ARGUMENT,
        f"at version {view.version}; it has no version {view.version + 5} yet",
        "VERSION_UNKNOWN",
        {"table_id": table_id, "version": str(view.version)},
    )
    # Unknown table (NOT_FOUND).
    await _refused(
        stub.Act(engine_pb2.ActRequest(table_id="nope", action=legal), metadata=auth(mover)),
        grpc.StatusCode.NOT_FOUND,
        "no table",
        "TABLE_NOT_FOUND",
        {"table_id": "nope"},
    )
    # No token (UNAUTHENTICATED); a player asking for the auditors' log (PERMISSION_DENIED).
    await _refused(
        stub.GetTable(engine_pb2.GetTableRequest(table_id=table_id)),
        grpc.StatusCode.UNAUTHENTICATED,
        "token",
        "TOKEN_MISSING",
    )
    # The log of a table in play: not even its players (the seed is still secret).
    await _refused(
        stub.GetTableLog(engine_pb2.GetTableLogRequest(table_id=table_id), metadata=auth(mover)),
        grpc.StatusCode.FAILED_PRECONDITION,
        "still in play",
        "LOG_SEALED",
        {"table_id": table_id},
    )
    assert await _log_length(stub, table_id) == before
    after = await stub.GetTable(engine_pb2.GetTableRequest(table_id=table_id), metadata=auth(mover))
    assert after.version == view.version and list(after.hand) == list(mine.hand)

    # The legal action itself, at the version seen, is applied.
    done = await act(mover, legal, expected_version=view.version)  # type: ignore[misc]
    assert done.view.version > view.version
    # The version seen before it is stale now (ABORTED: look again and choose again).
    await _refused(
        act(mover, legal, expected_version=view.version),
        grpc.StatusCode.ABORTED,
        f"moved on to version {done.view.version} (you saw {view.version})",
        "TABLE_MOVED_ON",
        {
            "table_id": table_id,
            "version": str(done.view.version),
            "expected_version": str(view.version),
        },
    )


async def test_act_is_idempotent_on_retry_with_the_same_request_id(
    stub: engine_pb2_grpc.EngineStub,
) -> None:
    table_id = await _open(stub)
    view = await stub.GetTable(engine_pb2.GetTableRequest(table_id=table_id), metadata=auth("ann"))
    mover = PLAYERS[view.to_act[0]]
    mine = await stub.GetTable(engine_pb2.GetTableRequest(table_id=table_id), metadata=auth(mover))
    request = engine_pb2.ActRequest(
        table_id=table_id,
        action=mine.legal_actions[0],
        request_id="r-1",
        expected_version=mine.version,
    )
    first = await stub.Act(request, metadata=auth(mover))
    again = await stub.Act(request, metadata=auth(mover))
    assert again == first
    assert await _log_length(stub, table_id) == first.view.version


async def test_pika11_reordered_hand_keeps_its_order(stub: engine_pb2_grpc.EngineStub) -> None:
    table_id = await _open(stub)
    mine = await stub.GetTable(engine_pb2.GetTableRequest(table_id=table_id), metadata=auth("bob"))
    order = list(reversed(mine.hand))
    answer = await stub.ReorderHand(
        engine_pb2.ReorderHandRequest(table_id=table_id, cards=order), metadata=auth("bob")
    )
    assert list(answer.view.hand) == order
    later = await stub.GetTable(engine_pb2.GetTableRequest(table_id=table_id), metadata=auth("bob"))
    assert list(later.hand) == order
    await _refused(
        stub.ReorderHand(
            engine_pb2.ReorderHandRequest(table_id=table_id, cards=order[1:]), metadata=auth("bob")
        ),
        grpc.StatusCode.FAILED_PRECONDITION,
        "",
    )


async def test_opening_is_idempotent_by_id_and_players_open_only_versus_computer(
    stub: engine_pb2_grpc.EngineStub,
) -> None:
    first = await stub.OpenTable(
        open_request([human(s, p) for s, p in enumerate(PLAYERS)], table_id="fixed-1"),
        metadata=OPERATOR,
    )
    again = await stub.OpenTable(
        open_request([human(s, p) for s, p in enumerate(PLAYERS)], table_id="fixed-1"),
        metadata=OPERATOR,
    )
    assert again == first
    await _refused(
        stub.OpenTable(
            open_request([human(0, "ann"), human(1, "zed")], table_id="fixed-1"), metadata=OPERATOR
        ),
        grpc.StatusCode.ALREADY_EXISTS,
        "another setup",
    )
    await _refused(
        stub.OpenTable(open_request([human(0, "ann"), human(1, "bob")]), metadata=auth("ann")),
        grpc.StatusCode.PERMISSION_DENIED,
        "versus-computer",
    )
    await _refused(
        stub.OpenTable(
            open_request(
                [human(0, "ann"), bot(1)],
                options={"colours": 3},
                mode=common_pb2.MODE_VERSUS_COMPUTER,
            ),
            metadata=auth("ann"),
        ),
        grpc.StatusCode.INVALID_ARGUMENT,
        "option",
    )
    mine = await stub.OpenTable(
        open_request([human(0, "ann"), bot(1)], mode=common_pb2.MODE_VERSUS_COMPUTER),
        metadata=auth("ann"),
    )
    assert len(mine.seed_commitment) == 64


async def test_a_player_who_leaves_is_replaced_by_a_bot_that_plays_on(
    stub: engine_pb2_grpc.EngineStub,
) -> None:
    table_id = await _open(stub)
    left = await stub.LeaveTable(
        engine_pb2.LeaveTableRequest(table_id=table_id), metadata=auth("cat")
    )
    assert left.replaced_by == common_pb2.BOT_LEVEL_MEDIUM
    view = await stub.GetTable(engine_pb2.GetTableRequest(table_id=table_id), metadata=auth("ann"))
    assert view.seats[2].bot and view.seats[2].player_id == "cat"
    await _refused(
        stub.Act(
            engine_pb2.ActRequest(
                table_id=table_id, action=common_pb2.Action(kind=common_pb2.ACTION_KIND_DRAW)
            ),
            metadata=auth("cat"),
        ),
        grpc.StatusCode.PERMISSION_DENIED,
        "bot plays seat 2",
    )
