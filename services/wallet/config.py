"""The wallet's own settings: stakes, reward rates, the welcome grant and the hold sweeper,
from the environment.

- ``TAVOLO_WALLET_STAKES``: the stakes a table may ask (MODE-4), comma-separated;
  default ``100,250,500,1000``.
- ``TAVOLO_WALLET_FIRST_PLACE``: online reward for first place (MODE-3); default ``100``.
- ``TAVOLO_WALLET_PLACEMENT``: online rewards by place for given seat counts, such as
  ``2:100,50;4:100,75,50,25``; seat counts not listed follow the formula of
  ``tavolo.wallet.payouts``.
- ``TAVOLO_WALLET_FRIENDS_PERCENT``: the versus-friends winner's share of the online
  first-place reward (MODE-2); default ``50``.
- ``TAVOLO_WALLET_BOOSTER_PERCENT`` / ``TAVOLO_WALLET_VIP_PERCENT``: the gold booster and
  VIP pass factors (MODE-5); defaults ``200`` and ``150``.
- ``TAVOLO_WALLET_MAX_GRANT``: the most coins one grant may give; default ``1000000``.
- ``TAVOLO_WALLET_WELCOME_COINS``: coins granted from issuance to a person's first account
  when the lobby's ``PlayerRegistered`` arrives, so a new player can sit at a stake table
  without waiting for an operator; default ``1000``, ``0`` grants nothing. At most
  ``TAVOLO_WALLET_MAX_GRANT``. A change applies to registrations handled afterwards; an
  account already welcomed is never paid again, whatever the amount is now.
- ``TAVOLO_WALLET_SWEEP_SECONDS``: how often expired holds are voided; default ``5``.
- ``TAVOLO_WALLET_ACK_WAIT``: seconds JetStream waits for a replica to finish an event
  before giving it to another; default ``30``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from tavolo.servicekit.settings import SettingsError
from tavolo.wallet.payouts import RewardRates


@dataclass(frozen=True, slots=True)
class WalletConfig:
    """Everything the wallet's use cases may be configured with."""

    stakes: tuple[int, ...] = (100, 250, 500, 1000)
    rates: RewardRates = field(default_factory=RewardRates)
    max_grant: int = 1_000_000
    welcome_coins: int = 1000
    sweep_seconds: float = 5.0
    ack_wait: float = 30.0

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> WalletConfig:
        env = os.environ if environ is None else environ
        stakes = tuple(
            _positive(part, "TAVOLO_WALLET_STAKES")
            for part in env.get("TAVOLO_WALLET_STAKES", "100,250,500,1000").split(",")
        )
        try:
            rates = RewardRates(
                first_place=_int(env, "TAVOLO_WALLET_FIRST_PLACE", 100),
                placement=_placement(env.get("TAVOLO_WALLET_PLACEMENT", "")),
                friends_percent=_int(env, "TAVOLO_WALLET_FRIENDS_PERCENT", 50),
                booster_percent=_int(env, "TAVOLO_WALLET_BOOSTER_PERCENT", 200),
                vip_percent=_int(env, "TAVOLO_WALLET_VIP_PERCENT", 150),
            )
        except ValueError as exc:
            raise SettingsError(f"wallet reward rates: {exc}") from None
        max_grant = _positive(
            env.get("TAVOLO_WALLET_MAX_GRANT", "1000000"), "TAVOLO_WALLET_MAX_GRANT"
        )
        return cls(
            stakes=stakes,
            rates=rates,
            max_grant=max_grant,
            welcome_coins=_welcome(env, max_grant),
            sweep_seconds=_seconds(env, "TAVOLO_WALLET_SWEEP_SECONDS", 5.0),
            ack_wait=_seconds(env, "TAVOLO_WALLET_ACK_WAIT", 30.0),
        )


def _positive(raw: str, name: str) -> int:
    try:
        value = int(raw.strip())
    except ValueError:
        raise SettingsError(f"{name} must hold whole numbers, not {raw!r}") from None
    if value <= 0:
        raise SettingsError(f"{name} must hold positive numbers, not {value}")
    return value


def _welcome(env: Mapping[str, str], max_grant: int) -> int:
    name = "TAVOLO_WALLET_WELCOME_COINS"
    value = _int(env, name, 1000)
    if not 0 <= value <= max_grant:
        raise SettingsError(
            f"{name} must be between 0 (no welcome grant) and TAVOLO_WALLET_MAX_GRANT"
            f" ({max_grant}), not {value}"
        )
    return value


def _seconds(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name)
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise SettingsError(f"{name} must be a positive number of seconds, not {raw!r}")
    return value


def _int(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name)
    if raw is None:
        return default
    try:
        return int(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a whole number, not {raw!r}") from None


def _placement(raw: str) -> dict[int, tuple[int, ...]]:
    """``"2:100,50;4:100,75,50,25"`` -> ``{2: (100, 50), 4: (100, 75, 50, 25)}``."""
    table: dict[int, tuple[int, ...]] = {}
    for row in filter(None, (part.strip() for part in raw.split(";"))):
        count, sep, amounts = row.partition(":")
        try:
            if not sep:
                raise ValueError
            table[int(count)] = tuple(int(a) for a in amounts.split(","))
        except ValueError:
            raise SettingsError(
                f"TAVOLO_WALLET_PLACEMENT row {row!r} must look like '4:100,75,50,25'"
            ) from None
    return table
