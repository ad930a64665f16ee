"""Settings: bad values stop a service at start with a message naming the variable."""

from __future__ import annotations

import pytest

from tavolo.messaging.topology import Topology
from tavolo.servicekit.settings import (
    Settings,
    SettingsError,
    checkpoint_key_problem,
    token_secret_problem,
)

GOOD = {
    "TAVOLO_DATABASE_URL": "postgresql://postgres@127.0.0.1:5432/tavolo",
    "TAVOLO_NATS_URL": "nats://127.0.0.1:4222",
}


def test_defaults_follow_the_design_ports() -> None:
    settings = Settings.from_env(GOOD)
    assert [settings.grpc_ports[s] for s in ("lobby", "engine", "wallet", "leaderboard")] == [
        50051,
        50052,
        50053,
        50054,
    ]
    assert settings.namespace == "tavolo"


@pytest.mark.parametrize(
    ("env", "needle"),
    [
        ({"TAVOLO_NATS_URL": "nats://x:1"}, "TAVOLO_DATABASE_URL is not set"),
        ({**GOOD, "TAVOLO_DATABASE_URL": "mysql://x/y"}, "not a postgres:// or postgresql:// URL"),
        ({**GOOD, "TAVOLO_NATS_URL": "http://x"}, "TAVOLO_NATS_URL"),
        ({**GOOD, "TAVOLO_ENGINE_PORT": "eighty"}, "TAVOLO_ENGINE_PORT must be a port number"),
        ({**GOOD, "TAVOLO_WALLET_PORT": "70000"}, "between 0 and 65535"),
        ({**GOOD, "TAVOLO_LOG_FORMAT": "xml"}, "TAVOLO_LOG_FORMAT"),
        ({**GOOD, "TAVOLO_NAMESPACE": "a.b"}, "TAVOLO_NAMESPACE"),
        ({**GOOD, "TAVOLO_NATS_REPLICAS": "7"}, "TAVOLO_NATS_REPLICAS must be .* from 1 to 5"),
    ],
)
def test_bad_settings_are_named(env: dict[str, str], needle: str) -> None:
    with pytest.raises(SettingsError, match=needle):
        Settings.from_env(env)


def test_other_services_are_reached_at_their_configured_address() -> None:
    settings = Settings.from_env(
        {**GOOD, "TAVOLO_ENGINE_ADDRESS": "engine:50052", "TAVOLO_GRPC_HOST": "0.0.0.0"}
    )
    assert settings.grpc_address("engine") == "engine:50052"
    assert settings.grpc_address("wallet") == "127.0.0.1:50053"


def test_the_public_development_secret_is_refused_unless_in_development() -> None:
    unset = Settings.from_env(GOOD)
    problem = token_secret_problem(unset)
    assert problem is not None and "TAVOLO_TOKEN_SECRET is not set" in problem
    assert "TAVOLO_DEVELOPMENT=1" in problem
    assert token_secret_problem(Settings.from_env({**GOOD, "TAVOLO_DEVELOPMENT": "1"})) is None
    own = Settings.from_env({**GOOD, "TAVOLO_TOKEN_SECRET": "s" * 32})
    assert token_secret_problem(own) is None


def test_a_short_secret_is_refused_even_in_development() -> None:
    short = Settings.from_env({**GOOD, "TAVOLO_TOKEN_SECRET": "short", "TAVOLO_DEVELOPMENT": "1"})
    problem = token_secret_problem(short)
    assert problem is not None and "at least 32 bytes" in problem


def test_the_development_flag_is_one_or_zero() -> None:
    with pytest.raises(SettingsError, match="TAVOLO_DEVELOPMENT must be 1 or 0"):
        Settings.from_env({**GOOD, "TAVOLO_DEVELOPMENT": "maybe"})
    assert not Settings.from_env({**GOOD, "TAVOLO_DEVELOPMENT": "0"}).development


def test_the_events_stream_is_kept_on_as_many_nats_nodes_as_configured() -> None:
    """On a three-node NATS cluster (deploy/k8s) the stream survives losing a node."""
    settings = Settings.from_env({**GOOD, "TAVOLO_NATS_REPLICAS": "3"})
    topology = Topology(settings.namespace, replicas=settings.stream_replicas)
    assert topology.events_stream_config().num_replicas == 3
    assert Topology("tavolo").events_stream_config().num_replicas == 1


@pytest.mark.parametrize(
    ("key", "development", "refused"),
    [
        ("", False, "TAVOLO_CHECKPOINT_KEY is not set"),
        ("", True, None),
        ("ab" * 32, False, None),
        ("ab" * 32, True, None),
        ("ab" * 31, False, "64 hex digits"),
        ("zz" * 32, True, "64 hex digits"),
    ],
)
def test_the_development_checkpoint_key_is_refused_unless_in_development(
    key: str, development: bool, refused: str | None
) -> None:
    """AUDIT-3: checkpoints signed with the key in the source would vouch for anything."""
    env = {**GOOD, "TAVOLO_CHECKPOINT_KEY": key, "TAVOLO_DEVELOPMENT": "1" if development else "0"}
    problem = checkpoint_key_problem(Settings.from_env(env))
    if refused is None:
        assert problem is None
    else:
        assert problem is not None and refused in problem
