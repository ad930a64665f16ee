"""The leaderboard's own settings, read once at start-up by the composition root.

- ``TAVOLO_LEADERBOARD_TIME_ZONE``: the IANA zone whose wall clock decides the league's
  weeks (default ``UTC``), e.g. ``Europe/Rome``.
- ``TAVOLO_LEADERBOARD_RULES``: optional path of a JSON file overriding rule numbers;
  anything left out keeps its default (``tavolo.leaderboard.rules``)::

      {"online_xp": {"4": [120, 80, 50, 20]}, "friends_rate_percent": 50,
       "booster_percent": 200, "vip_percent": 150,
       "league_points": {"2": [3, 1]}, "league_modes": ["online", "stake"],
       "levels": {"first": 100, "growth": 100}}

A changed rule applies to new tables at once and to past ones after a rebuild.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from tavolo.leaderboard.model import Mode
from tavolo.leaderboard.rules import (
    LevelCurve,
    PlacementTable,
    RewardRules,
    default_league_points,
    default_online_xp,
)
from tavolo.servicekit.settings import SettingsError

TIME_ZONE_VARIABLE = "TAVOLO_LEADERBOARD_TIME_ZONE"
RULES_VARIABLE = "TAVOLO_LEADERBOARD_RULES"


@dataclass(frozen=True, slots=True)
class LeaderboardConfig:
    """The league's time zone and the reward rules."""

    time_zone: ZoneInfo = field(default_factory=lambda: ZoneInfo("UTC"))
    rules: RewardRules = field(default_factory=RewardRules)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> LeaderboardConfig:
        env = os.environ if environ is None else environ
        zone_name = env.get(TIME_ZONE_VARIABLE, "UTC").strip() or "UTC"
        try:
            zone = ZoneInfo(zone_name)
        except (ZoneInfoNotFoundError, ValueError):
            raise SettingsError(
                f"{TIME_ZONE_VARIABLE}={zone_name!r} is not a known time zone;"
                " use an IANA name such as 'UTC' or 'Europe/Rome'"
            ) from None
        path = env.get(RULES_VARIABLE, "").strip()
        if not path:
            return cls(zone, RewardRules())
        try:
            document = json.loads(Path(path).read_text())
        except (OSError, ValueError) as exc:
            raise SettingsError(f"{RULES_VARIABLE}: cannot read {path}: {exc}") from None
        try:
            return cls(zone, rules_from_json(document))
        except (TypeError, ValueError, KeyError) as exc:
            raise SettingsError(f"{RULES_VARIABLE}: {path}: {exc}") from None


def rules_from_json(document: Any) -> RewardRules:
    """Rules from a JSON object; keys left out keep their defaults."""
    if not isinstance(document, dict):
        raise TypeError("the rules file must hold a JSON object")
    known = {
        "online_xp",
        "friends_rate_percent",
        "booster_percent",
        "vip_percent",
        "league_points",
        "league_modes",
        "levels",
    }
    unknown = sorted(set(document) - known)
    if unknown:
        raise KeyError(f"unknown rule {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    defaults = RewardRules()
    levels = document.get("levels", {})
    return RewardRules(
        online_xp=_placements(document.get("online_xp"), default_online_xp()),
        friends_rate_percent=int(document.get("friends_rate_percent", 50)),
        booster_percent=int(document.get("booster_percent", 200)),
        vip_percent=int(document.get("vip_percent", 150)),
        league_points=_placements(document.get("league_points"), default_league_points()),
        league_modes=(
            frozenset(Mode(m) for m in document["league_modes"])
            if "league_modes" in document
            else defaults.league_modes
        ),
        levels=LevelCurve(int(levels.get("first", 100)), int(levels.get("growth", 100))),
    )


def _placements(overrides: Any, default: PlacementTable) -> PlacementTable:
    if overrides is None:
        return default
    if not isinstance(overrides, dict):
        raise TypeError("placement tables map a seat count to a list of values")
    merged = dict(default.by_seats)
    for seats, values in overrides.items():
        merged[int(seats)] = tuple(int(v) for v in values)
    return PlacementTable(merged, default.fallback)
