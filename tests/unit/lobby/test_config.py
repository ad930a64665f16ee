"""The lobby's settings from the environment: defaults, and a clear error naming the variable."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tavolo.lobby.bootstrap import config_from_env, operator_from_env
from tavolo.lobby.play.tables import BotLevel
from tavolo.servicekit.settings import SettingsError


def test_defaults() -> None:
    config = config_from_env({})
    assert config.policy.bot_fill_after == timedelta(seconds=30)
    assert config.policy.stake_timeout == timedelta(seconds=120)
    assert config.policy.bot_level is BotLevel.MEDIUM
    assert config.engine_options == {}
    assert operator_from_env({}) is None


def test_mode_3_and_mode_4_waits_are_configurable() -> None:
    config = config_from_env(
        {
            "TAVOLO_LOBBY_BOT_FILL_SECONDS": "5",
            "TAVOLO_LOBBY_STAKE_TIMEOUT_SECONDS": "90.5",
            "TAVOLO_LOBBY_BOT_LEVEL": "hard",
            "TAVOLO_LOBBY_TURN_SECONDS": "20",
            "TAVOLO_LOBBY_BOT_THINK_MILLIS": "0",
        }
    )
    assert config.policy.bot_fill_after == timedelta(seconds=5)
    assert config.policy.stake_timeout == timedelta(seconds=90.5)
    assert config.policy.bot_level is BotLevel.HARD
    assert config.engine_options == {"turn_seconds": 20, "bot_think_millis": 0}


def test_rate_2_the_rating_window_is_configurable() -> None:
    """RATE-2: a ticket's window: its start and cap in sigmas, and how fast it doubles."""
    default = config_from_env({}).policy
    assert (default.window_start, default.window_doubling, default.window_max) == (
        2.5,
        timedelta(seconds=0.5),
        5.0,
    )
    policy = config_from_env(
        {
            "TAVOLO_LOBBY_RATING_WINDOW_SIGMAS": "1.5",
            "TAVOLO_LOBBY_RATING_WINDOW_DOUBLING_SECONDS": "2",
            "TAVOLO_LOBBY_RATING_WINDOW_MAX_SIGMAS": "8",
        }
    ).policy
    assert (policy.window_start, policy.window_doubling, policy.window_max) == (
        1.5,
        timedelta(seconds=2),
        8.0,
    )


def test_rate_2_foresight_and_its_wait_target_are_settings() -> None:
    """RATE-2: foresight is on by default with a wait target of 1.5x first come's, its
    rate read over the last half hour; it can be turned off, the target set, and the
    rate read over a shorter or longer stretch."""
    default = config_from_env({}).policy
    assert (default.foresight, default.wait_factor) == (True, 1.5)
    assert default.rate_window == timedelta(minutes=30)
    policy = config_from_env(
        {
            "TAVOLO_LOBBY_RATING_FORESIGHT": "off",
            "TAVOLO_LOBBY_RATING_WAIT_FACTOR": "2",
            "TAVOLO_LOBBY_RATING_RATE_MINUTES": "12.5",
        }
    ).policy
    assert (policy.foresight, policy.wait_factor) == (False, 2.0)
    assert policy.rate_window == timedelta(minutes=12.5)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("TAVOLO_LOBBY_RATING_WINDOW_SIGMAS", "wide"),
        ("TAVOLO_LOBBY_RATING_FORESIGHT", "maybe"),
        ("TAVOLO_LOBBY_RATING_WAIT_FACTOR", "0"),
        ("TAVOLO_LOBBY_RATING_RATE_MINUTES", "-5"),
        ("TAVOLO_LOBBY_RATING_RATE_MINUTES", "half an hour"),
        ("TAVOLO_LOBBY_RATING_WINDOW_MAX_SIGMAS", "0"),
        ("TAVOLO_LOBBY_BOT_FILL_SECONDS", "soon"),
        ("TAVOLO_LOBBY_STAKE_TIMEOUT_SECONDS", "0"),
        ("TAVOLO_LOBBY_BOT_LEVEL", "genius"),
        ("TAVOLO_LOBBY_TURN_SECONDS", "-1"),
    ],
)
def test_a_bad_value_names_its_variable(name: str, value: str) -> None:
    with pytest.raises(SettingsError, match=name):
        config_from_env({name: value})


def test_the_operator_is_nickname_and_password() -> None:
    assert operator_from_env({"TAVOLO_LOBBY_OPERATOR": "Boss:a:long:secret"}) == (
        "Boss",
        "a:long:secret",
    )
    with pytest.raises(SettingsError, match="TAVOLO_LOBBY_OPERATOR"):
        operator_from_env({"TAVOLO_LOBBY_OPERATOR": "Boss"})
