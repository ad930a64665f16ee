"""`tavolo up --replicas`: which processes start on which ports, and what clients dial."""

from __future__ import annotations

import itertools

import pytest

from tavolo.cli.platform.replicas import (
    Replica,
    ReplicasError,
    client_targets,
    dial_host,
    parse_replicas,
    plan_replicas,
    replica_env,
)

SERVICES = ("lobby", "engine", "wallet", "leaderboard")
PORTS = {"lobby": 50051, "engine": 50052, "wallet": 50053, "leaderboard": 50054}
METRICS = {"lobby": 9151, "engine": 0, "wallet": 9153, "leaderboard": 9154}


def test_counts_default_to_one_and_name_the_services_given() -> None:
    assert parse_replicas("engine=2, wallet=3,", SERVICES) == {
        "lobby": 1,
        "engine": 2,
        "wallet": 3,
        "leaderboard": 1,
    }
    assert parse_replicas("", SERVICES) == dict.fromkeys(SERVICES, 1)


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("gateway=2", "'gateway'"),
        ("engine=0", "from 1 to 16"),
        ("engine", "from 1 to 16"),
        ("engine=two", "from 1 to 16"),
        ("engine=17", "from 1 to 16"),
    ],
)
def test_a_bad_count_is_refused_with_what_is_wrong(text: str, complaint: str) -> None:
    with pytest.raises(ReplicasError, match=complaint):
        parse_replicas(text, SERVICES)


def test_replicas_get_their_own_ports_and_a_single_service_keeps_its_plain_name() -> None:
    spare = itertools.count(40000)
    planned = plan_replicas(
        ["lobby", "engine"], {"lobby": 1, "engine": 3}, PORTS, METRICS, lambda: next(spare)
    )
    assert planned == [
        Replica("lobby", "lobby", 50051, 9151),
        Replica("engine-1", "engine", 50052, 0),
        Replica("engine-2", "engine", 40000, 0),  # metrics off for the service: off for all
        Replica("engine-3", "engine", 40001, 0),
    ]


def test_clients_get_one_target_per_service_and_each_replica_its_own_ports() -> None:
    planned = [
        Replica("lobby", "lobby", 50051, 9151),
        Replica("wallet-1", "wallet", 50053, 9153),
        Replica("wallet-2", "wallet", 40000, 40001),
    ]
    targets = client_targets(planned, "127.0.0.1")
    assert targets == {
        "lobby": "127.0.0.1:50051",
        "wallet": "ipv4:127.0.0.1:50053,127.0.0.1:40000",
    }
    env = replica_env(planned[2], {"TAVOLO_LOBBY_ADDRESS": "lobby.example:443"}, targets)
    assert env["TAVOLO_WALLET_PORT"] == "40000"
    assert env["TAVOLO_WALLET_METRICS_PORT"] == "40001"
    assert env["TAVOLO_WALLET_ADDRESS"] == "ipv4:127.0.0.1:50053,127.0.0.1:40000"
    assert env["TAVOLO_LOBBY_ADDRESS"] == "lobby.example:443"  # an operator's own wins


def test_clients_dial_an_ipv4_address_and_a_host_name_is_refused() -> None:
    assert dial_host("0.0.0.0") == "127.0.0.1"
    assert dial_host("10.1.2.3") == "10.1.2.3"
    with pytest.raises(ReplicasError, match="IPv4 address"):
        dial_host("tavolo.internal")
