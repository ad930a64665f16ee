"""The leaderboard's settings: time zone and rules file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tavolo.leaderboard.config import LeaderboardConfig
from tavolo.leaderboard.model import Mode
from tavolo.servicekit.settings import SettingsError


def test_defaults_are_utc_and_the_documented_rules() -> None:
    config = LeaderboardConfig.from_env({})
    assert str(config.time_zone) == "UTC"
    assert config.rules.online_xp.value(4, 2) == 75
    assert config.rules.league_modes == {Mode.ONLINE, Mode.STAKE}


def test_time_zone_and_rules_file_are_read(tmp_path: Path) -> None:
    rules = tmp_path / "rules.json"
    rules.write_text(
        json.dumps(
            {"online_xp": {"2": [80, 20]}, "vip_percent": 200, "levels": {"first": 50, "growth": 0}}
        )
    )
    config = LeaderboardConfig.from_env(
        {"TAVOLO_LEADERBOARD_TIME_ZONE": "Europe/Rome", "TAVOLO_LEADERBOARD_RULES": str(rules)}
    )
    assert str(config.time_zone) == "Europe/Rome"
    assert config.rules.online_xp.value(2, 2) == 20
    assert config.rules.online_xp.value(4, 1) == 100  # untouched sizes keep the default
    assert config.rules.vip_percent == 200
    assert config.rules.levels.level(100) == 3


def test_an_unknown_time_zone_names_the_variable() -> None:
    with pytest.raises(SettingsError, match="TAVOLO_LEADERBOARD_TIME_ZONE"):
        LeaderboardConfig.from_env({"TAVOLO_LEADERBOARD_TIME_ZONE": "Mars/Olympus"})


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "cannot read"),
        ('{"bonus": 1}', "unknown rule bonus"),
        ('{"online_xp": {"2": [10, 20]}}', "must not grow"),
        ('{"league_modes": ["versus_friends"]}', "MODE-3"),
    ],
)
def test_a_bad_rules_file_names_the_variable(tmp_path: Path, content: str, message: str) -> None:
    rules = tmp_path / "rules.json"
    rules.write_text(content)
    with pytest.raises(SettingsError, match=message) as caught:
        LeaderboardConfig.from_env({"TAVOLO_LEADERBOARD_RULES": str(rules)})
    assert "TAVOLO_LEADERBOARD_RULES" in str(caught.value)


def test_a_missing_rules_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="cannot read"):
        LeaderboardConfig.from_env({"TAVOLO_LEADERBOARD_RULES": str(tmp_path / "absent.json")})


def test_the_service_refuses_to_start_with_a_bad_setting_in_one_line() -> None:
    env = dict(os.environ, TAVOLO_LEADERBOARD_TIME_ZONE="Mars/Olympus")
    result = subprocess.run(
        [sys.executable, "-m", "tavolo.leaderboard"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "tavolo leaderboard: bad settings: TAVOLO_LEADERBOARD_TIME_ZONE='Mars/Olympus' is not a"
        " known time zone; use an IANA name such as 'UTC' or 'Europe/Rome'"
    ]
