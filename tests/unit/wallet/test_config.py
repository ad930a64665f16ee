"""The wallet's configurable rates and limits, and their documented defaults."""

from __future__ import annotations

import pytest

from tavolo.servicekit.settings import SettingsError
from tavolo.wallet.config import WalletConfig


def test_defaults_are_the_documented_ones() -> None:
    config = WalletConfig.from_env({})
    assert config.stakes == (100, 250, 500, 1000)
    assert config.rates.first_place == 100
    assert config.rates.friends_percent == 50
    assert (config.rates.booster_percent, config.rates.vip_percent) == (200, 150)
    assert config.rates.placement == {}
    assert config.welcome_coins == 1000
    assert config == WalletConfig()


def test_every_rate_can_be_configured() -> None:
    config = WalletConfig.from_env(
        {
            "TAVOLO_WALLET_STAKES": "50, 200",
            "TAVOLO_WALLET_FIRST_PLACE": "80",
            "TAVOLO_WALLET_PLACEMENT": "2:80,30; 4:80,60,40,20",
            "TAVOLO_WALLET_FRIENDS_PERCENT": "40",
            "TAVOLO_WALLET_BOOSTER_PERCENT": "300",
            "TAVOLO_WALLET_VIP_PERCENT": "125",
            "TAVOLO_WALLET_MAX_GRANT": "5000",
            "TAVOLO_WALLET_SWEEP_SECONDS": "0.5",
            "TAVOLO_WALLET_ACK_WAIT": "3",
            "TAVOLO_WALLET_WELCOME_COINS": "250",
        }
    )
    assert config.stakes == (50, 200)
    assert config.rates.placement == {2: (80, 30), 4: (80, 60, 40, 20)}
    assert config.rates.online(2, 4) == 60
    assert config.rates.online(3, 3) == 27  # formula for counts not listed: ceil(80 / 3)
    assert (config.rates.friends_percent, config.rates.booster_percent) == (40, 300)
    assert (config.rates.vip_percent, config.max_grant) == (125, 5000)
    assert (config.sweep_seconds, config.ack_wait) == (0.5, 3.0)
    assert config.welcome_coins == 250


def test_a_welcome_grant_of_0_turns_it_off_and_it_never_exceeds_the_largest_grant() -> None:
    assert WalletConfig.from_env({"TAVOLO_WALLET_WELCOME_COINS": "0"}).welcome_coins == 0
    capped = {"TAVOLO_WALLET_MAX_GRANT": "500", "TAVOLO_WALLET_WELCOME_COINS": "500"}
    assert WalletConfig.from_env(capped).welcome_coins == 500
    with pytest.raises(SettingsError, match="TAVOLO_WALLET_MAX_GRANT"):
        WalletConfig.from_env({**capped, "TAVOLO_WALLET_WELCOME_COINS": "501"})


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("TAVOLO_WALLET_STAKES", "100,abc", "TAVOLO_WALLET_STAKES"),
        ("TAVOLO_WALLET_STAKES", "0", "positive"),
        ("TAVOLO_WALLET_PLACEMENT", "4=100", "4:100,75,50,25"),
        ("TAVOLO_WALLET_PLACEMENT", "2:100,50,25", "at most 2"),
        ("TAVOLO_WALLET_BOOSTER_PERCENT", "-5", "negative"),
        ("TAVOLO_WALLET_VIP_PERCENT", "1.5", "TAVOLO_WALLET_VIP_PERCENT"),
        ("TAVOLO_WALLET_SWEEP_SECONDS", "0", "TAVOLO_WALLET_SWEEP_SECONDS"),
        ("TAVOLO_WALLET_ACK_WAIT", "soon", "TAVOLO_WALLET_ACK_WAIT"),
        ("TAVOLO_WALLET_WELCOME_COINS", "-1", "0 \\(no welcome grant\\)"),
        ("TAVOLO_WALLET_WELCOME_COINS", "lots", "TAVOLO_WALLET_WELCOME_COINS"),
    ],
)
def test_a_bad_value_names_the_variable_or_the_fix(name: str, value: str, says: str) -> None:
    with pytest.raises(SettingsError, match=says):
        WalletConfig.from_env({name: value})
