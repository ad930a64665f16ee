"""Accounts over real gRPC (PCG-1, guarantee 9): unique nicknames, sessions, profiles, roles;
each refusal with its reason and values for a client app (API-1)."""

from __future__ import annotations

import grpc
import pytest

from tavolo.servicekit.error_details import Refusal, refusal_from_error
from tavolo.v1 import events_pb2, lobby_pb2

from .harness import PASSWORD, Lobby, bearer, event_tap

pytestmark = pytest.mark.integration


def _refusal(error: grpc.aio.AioRpcError) -> Refusal:
    refusal = refusal_from_error(error)
    assert refusal is not None and refusal.domain == "tavolo.v1", error.details()
    return refusal


async def test_pcg_1_register_logs_in_and_the_token_works(lobby: Lobby) -> None:
    ada = await lobby.register("Ada")
    assert ada.nickname == "Ada"
    assert list(ada.session.roles) == [lobby_pb2.ROLE_PLAYER]
    profile = await lobby.stub.GetProfile(lobby_pb2.GetProfileRequest(), metadata=ada.metadata)
    assert (profile.player_id, profile.nickname) == (ada.id, "Ada")


async def test_a_registration_tells_whose_account_it_is_so_a_person_is_welcomed_once(
    lobby: Lobby,
) -> None:
    async with event_tap(lobby.settings.nats_url, lobby.topology) as tap:
        ada = await lobby.register("Ada")
        alt = await lobby.register("Ada_Alt", linked=ada)
        again = await lobby.register("Ada_Third", linked=alt)
        registered = await tap.wait_for("PlayerRegistered", events_pb2.PlayerRegistered, 3)
    person_of = {r.player_id: r.person_id for r in registered}
    # The wallet pays its welcome grant to the account whose person is itself, only.
    assert person_of == {ada.id: ada.id, alt.id: ada.id, again.id: ada.id}


async def test_pcg_1_a_taken_nickname_is_refused_regardless_of_case_and_look_alikes(
    lobby: Lobby,
) -> None:
    await lobby.register("Ada_Lovelace")
    for attempt in ("ADA_Lovelace", "ada_lovelace", "\u0410da_Lovelace", "Ada_L0velace"):
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await lobby.register(attempt)
        assert refused.value.code() == grpc.StatusCode.ALREADY_EXISTS, attempt
        assert "is taken" in (refused.value.details() or "")
        assert "choose another" in (refused.value.details() or "")
        refusal = _refusal(refused.value)
        assert (refusal.reason, dict(refusal.metadata)) == ("NICKNAME_TAKEN", {"nickname": attempt})


async def test_pcg_1_a_bad_nickname_or_password_is_invalid_argument(lobby: Lobby) -> None:
    for nickname, password in (("a b", PASSWORD), ("Ada", "short")):
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await lobby.stub.Register(
                lobby_pb2.RegisterRequest(nickname=nickname, password=password)
            )
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        refusal = _refusal(refused.value)
        assert refusal.reason == ("NICKNAME_INVALID" if nickname == "a b" else "PASSWORD_INVALID")
        assert {"min_length", "max_length"} <= set(refusal.metadata)


async def test_login_and_refresh(lobby: Lobby) -> None:
    ada = await lobby.register("Ada")
    session = await lobby.stub.Login(lobby_pb2.LoginRequest(nickname="ADA", password=PASSWORD))
    assert session.player_id == ada.id
    renewed = await lobby.stub.Refresh(
        lobby_pb2.RefreshRequest(refresh_token=session.refresh_token)
    )
    assert renewed.player_id == ada.id
    await lobby.stub.GetProfile(
        lobby_pb2.GetProfileRequest(), metadata=bearer(renewed.access_token)
    )


async def test_a_wrong_password_and_an_unknown_nickname_read_alike(lobby: Lobby) -> None:
    await lobby.register("Ada")
    messages = set()
    for nickname, password in (("Ada", "not the password"), ("Nobody", PASSWORD)):
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await lobby.stub.Login(lobby_pb2.LoginRequest(nickname=nickname, password=password))
        assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
        assert _refusal(refused.value).reason == "LOGIN_FAILED"  # alike in reason too
        messages.add(refused.value.details())
    assert len(messages) == 1


async def test_a_refresh_token_is_no_access_token_and_back(lobby: Lobby) -> None:
    ada = await lobby.register("Ada")
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await lobby.stub.GetProfile(
            lobby_pb2.GetProfileRequest(), metadata=bearer(ada.session.refresh_token)
        )
    assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await lobby.stub.Refresh(lobby_pb2.RefreshRequest(refresh_token=ada.session.access_token))
    assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED


async def test_roles_are_set_by_operators_only_and_reach_the_next_session(
    database_url: str, nats_url: str, namespace: str
) -> None:
    from .harness import running_lobby

    async with running_lobby(
        database_url, nats_url, namespace, operator=("Boss", PASSWORD)
    ) as lobby:
        ada = await lobby.register("Ada")
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await lobby.stub.SetRoles(
                lobby_pb2.SetRolesRequest(player_id=ada.id, roles=[lobby_pb2.ROLE_OPERATOR]),
                metadata=ada.metadata,
            )
        assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
        boss = await lobby.stub.Login(lobby_pb2.LoginRequest(nickname="Boss", password=PASSWORD))
        assert lobby_pb2.ROLE_OPERATOR in boss.roles
        profile = await lobby.stub.SetRoles(
            lobby_pb2.SetRolesRequest(player_id=ada.id, roles=[lobby_pb2.ROLE_MODERATOR]),
            metadata=bearer(boss.access_token),
        )
        assert set(profile.roles) == {lobby_pb2.ROLE_PLAYER, lobby_pb2.ROLE_MODERATOR}
        renewed = await lobby.stub.Refresh(
            lobby_pb2.RefreshRequest(refresh_token=ada.session.refresh_token)
        )
        assert lobby_pb2.ROLE_MODERATOR in renewed.roles


async def test_an_unknown_profile_is_not_found(lobby: Lobby) -> None:
    ada = await lobby.register("Ada")
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await lobby.stub.GetProfile(
            lobby_pb2.GetProfileRequest(player_id="no-such-player"), metadata=ada.metadata
        )
    assert refused.value.code() == grpc.StatusCode.NOT_FOUND
    refusal = _refusal(refused.value)
    assert (refusal.reason, dict(refusal.metadata)) == (
        "PLAYER_NOT_FOUND",
        {"player_id": "no-such-player"},
    )


async def test_pcg_3_vulgar_and_staff_like_nicknames_are_refused_and_nothing_is_created(
    lobby: Lobby,
) -> None:
    """The same filter as chat, and staff-like names reserved: INVALID_ARGUMENT saying why,
    and no account (a login with the name fails afterwards)."""
    for nickname, why in (
        ("Cazzo", "vulgar"),
        ("str0nz0", "vulgar"),
        ("Vaffanculo", "vulgar"),
        ("Moderatore", "reserved"),
        ("admin_", "reserved"),
    ):
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await lobby.register(nickname)
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT, nickname
        assert why in (refused.value.details() or ""), refused.value.details()
        with pytest.raises(grpc.aio.AioRpcError) as unknown:
            await lobby.stub.Login(lobby_pb2.LoginRequest(nickname=nickname, password=PASSWORD))
        assert unknown.value.code() == grpc.StatusCode.UNAUTHENTICATED
