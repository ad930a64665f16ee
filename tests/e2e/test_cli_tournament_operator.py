"""An operator runs a tournament from the terminal (PCG-7): ``tavolo tournament create`` and
``cancel`` against a platform from ``tavolo up``; players enter, one withdraws and enters
again, and the cancellation gives every held fee back exactly once."""

from __future__ import annotations

import re
import time

import pytest

from tests.e2e.test_cli_friends_flow import OPERATOR, Terminal, terminal

__all__ = ["terminal"]

pytestmark = pytest.mark.e2e

# A guard against waiting for ever, not a timing under test.
PATIENCE = 60.0


def balance(terminal: Terminal, nickname: str) -> tuple[int, int]:
    shown = terminal.ok("coins", "balance", "--as", nickname)
    found = re.search(rf"^{nickname}: (\d+) coins available, (\d+) held", shown, re.MULTILINE)
    assert found is not None, shown
    return int(found.group(1)), int(found.group(2))


def until_balance(terminal: Terminal, nickname: str, wanted: tuple[int, int]) -> None:
    deadline = time.monotonic() + PATIENCE
    while (found := balance(terminal, nickname)) != wanted:
        assert time.monotonic() < deadline, f"{nickname} has {found}, not {wanted}"
        time.sleep(0.3)


def test_pcg_7_an_operator_creates_and_cancels_a_tournament_from_the_terminal(
    terminal: Terminal,
) -> None:
    terminal.ok("account", "login", OPERATOR[0], "--password", OPERATOR[1])
    for nickname in ("Anna", "Bruno"):
        terminal.ok("account", "register", nickname, "--password", f"{nickname.lower()}-secret")
        until_balance(terminal, nickname, (1000, 0))  # the welcome grant
    create = ("tournament", "create", "scopa", "--option", "match_length=hands:1", "--max", "4")
    money = ("--fee", "100", "--split", "70/30", "--starts-in", "30")
    refused = terminal.run(*create, *money, "--as", "Anna")
    assert refused.returncode != 0 and "PERMISSION_DENIED" in refused.stdout + refused.stderr
    bad = terminal.run(*create, "--split", "70/20", "--as", OPERATOR[0])
    assert bad.returncode != 0 and "sums to 100" in bad.stdout + bad.stderr

    created = terminal.ok(*create, *money, "--as", OPERATOR[0])
    found = re.search(r"^created: (\S+)\s+scopa\s+registering", created, re.MULTILINE)
    assert found is not None, created
    tid = found.group(1)
    for nickname in ("Anna", "Bruno"):
        terminal.ok("tournament", "register", tid, "--as", nickname)
    terminal.ok("tournament", "unregister", tid, "--as", "Bruno")
    terminal.ok("tournament", "register", tid, "--as", "Bruno")
    assert [balance(terminal, n) for n in ("Anna", "Bruno")] == [(900, 100)] * 2

    denied = terminal.run("tournament", "cancel", tid, "--reason", "no", "--as", "Anna")
    assert denied.returncode != 0
    cancelled = terminal.ok(
        "tournament", "cancel", tid, "--reason", "venue closed", "--as", OPERATOR[0]
    )
    assert "cancelled (venue closed)" in cancelled
    again = terminal.run("tournament", "cancel", tid, "--reason", "twice", "--as", OPERATOR[0])
    assert again.returncode != 0 and "cancelled" in again.stdout + again.stderr
    for nickname in ("Anna", "Bruno"):
        until_balance(terminal, nickname, (1000, 0))
    listed = terminal.ok("tournament", "list", "--as", "Anna")
    assert f"{tid}  scopa  cancelled" in listed
