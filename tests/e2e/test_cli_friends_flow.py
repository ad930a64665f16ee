"""A new user's friends flow, from a terminal only (MODE-2, PLAT-1, PLAT-3).

The platform runs as ``make run`` runs it (``tavolo up``: embedded PostgreSQL and NATS,
the four services), and everything else is ``python -m tavolo.cli`` in child processes,
as a person would type it: two accounts register, a taken nickname is refused, the host
invites a friend who accepts and waits, the host starts, both play the table at once,
the wallet pays the versus-friends reward to the winner only, and an operator verifies
the table's log.

The players' input is a file of "1" lines: one line is read per prompt whatever the
prompt says, and "1" is legal at every prompt — menus are numbered from 1 and list at
least one legal action, and at a Pika call "1" calls — so the script never depends on
the wording of a prompt or on how many prompts a deal brings.
"""

from __future__ import annotations

import contextlib
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import pytest

from tavolo.servicekit.embedded import free_port
from tavolo.wallet.config import WalletConfig
from tavolo.wallet.facts import Mode, SeatResult
from tavolo.wallet.payouts import rewards

pytestmark = pytest.mark.e2e

SERVICES = ("lobby", "engine", "wallet", "leaderboard")
OPERATOR = ("operator", "operator-secret-1")
PLACE = re.compile(r"^\s*(\d+)(?:st|nd|rd|th)\s+(\S+) \(")
SETTLE_SECONDS = 60.0


class Lines:
    """A child's output lines, read on a thread so a test can wait for one with a limit."""

    def __init__(self, stream: IO[str]) -> None:
        self.seen: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self._queue.put(line.rstrip("\n"))
        self._queue.put(None)

    def wait_for(self, needle: str, limit: float) -> str:
        deadline = time.monotonic() + limit
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self._queue.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                break
            self.seen.append(line)
            if needle in line:
                return line
        raise AssertionError(f"never printed {needle!r}; output:\n" + "\n".join(self.seen))


@dataclass
class Terminal:
    """What a user's shell holds: where the platform answers and where logins are kept."""

    env: dict[str, str]
    folder: Path

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [sys.executable, "-m", "tavolo.cli", *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
        return done

    def ok(self, *args: str) -> str:
        done = self.run(*args)
        assert done.returncode == 0, f"tavolo {' '.join(args)}:\n{done.stdout}{done.stderr}"
        return done.stdout

    def start(
        self, *args: str, stdin: Path | None = None, output: Path | None = None
    ) -> subprocess.Popen[str]:
        """A command left running; with ``output`` its screen goes to that file, so two
        players never wait on each other's unread pipe."""
        with contextlib.ExitStack() as files:  # the child keeps its own copies
            return subprocess.Popen(
                [sys.executable, "-m", "tavolo.cli", *args],
                env=self.env,
                stdin=files.enter_context(stdin.open()) if stdin else subprocess.DEVNULL,
                stdout=files.enter_context(output.open("w")) if output else subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    """``tavolo up`` on free ports with its own data folder, and a shell pointed at it."""
    ports = {name: free_port() for name in SERVICES}
    clean = {k: v for k, v in os.environ.items() if not k.startswith("TAVOLO_")}
    platform_env = {
        **clean,
        "TAVOLO_DATA_DIR": str(tmp_path / "data"),
        "TAVOLO_EMBEDDED_NATS_PORT": str(free_port()),
        "TAVOLO_LOBBY_OPERATOR": ":".join(OPERATOR),
        **{f"TAVOLO_{n.upper()}_PORT": str(p) for n, p in ports.items()},
        **{f"TAVOLO_{n.upper()}_METRICS_PORT": "0" for n in SERVICES},
    }
    up = subprocess.Popen(
        [sys.executable, "-m", "tavolo.cli", "up"],
        env=platform_env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    assert up.stdout is not None
    try:
        Lines(up.stdout).wait_for("all services SERVING", limit=120)
        client_env = {
            **clean,
            "TAVOLO_CLIENT_DIR": str(tmp_path / "client"),
            **{f"TAVOLO_{n.upper()}_ADDRESS": f"127.0.0.1:{p}" for n, p in ports.items()},
        }
        yield Terminal(client_env, tmp_path)
    finally:
        up.send_signal(signal.SIGINT)
        try:
            up.wait(timeout=60)
        except subprocess.TimeoutExpired:
            up.kill()
            up.wait()


def _final_places(output: str, me: str) -> dict[str, int]:
    """Nickname → place, from the "Final places" a player's terminal printed."""
    assert "--- Final places" in output, output[-3000:]
    places = {}
    for line in output.split("--- Final places", 1)[1].splitlines()[1:]:
        match = PLACE.match(line)
        if match is None:
            break
        name = me if match.group(2) == "You" else match.group(2)
        places[name] = int(match.group(1))
    return places


def _coins(terminal: Terminal, nickname: str) -> tuple[int, list[str]]:
    """Available coins and transfer lines, as ``tavolo coins`` prints them."""
    balance = terminal.ok("coins", "balance", "--as", nickname)
    match = re.search(rf"^{nickname}: (\d+) coins available", balance, re.MULTILINE)
    assert match is not None, balance
    history = terminal.ok("coins", "history", "--as", nickname).splitlines()
    return int(match.group(1)), history


def test_a_new_user_plays_friends_and_sees_the_reward(terminal: Terminal) -> None:
    # -- accounts -----------------------------------------------------------------------
    assert "logged in as Giulia" in terminal.ok(
        "account", "register", "Giulia", "--password", "giulia-secret"
    )
    assert "logged in as Marco" in terminal.ok(
        "account", "register", "Marco", "--password", "marco-secret"
    )
    taken = terminal.run("account", "register", "GIULIA", "--password", "another-secret")
    assert taken.returncode != 0
    assert "is taken" in taken.stdout and "(ALREADY_EXISTS) [NICKNAME_TAKEN]" in taken.stdout, (
        taken.stdout
    )

    # -- the room -------------------------------------------------------------------------
    offered = terminal.ok("room", "games", "--as", "Giulia")
    assert "--option match_length=single: 'single' round" in offered, offered
    bad = terminal.run(
        "room", "create", "pika", "--players", "2", "--option", "match_length=hands:0",
        "--as", "Giulia",
    )  # fmt: skip
    assert bad.returncode != 0, bad.stdout
    assert "'hands:N'" in bad.stdout and "(INVALID_ARGUMENT) [OPTION_INVALID]" in bad.stdout, (
        bad.stdout
    )
    created = terminal.ok(
        "room", "create", "pika", "--players", "2", "--option", "match_length=single",
        "--as", "Giulia",
    )  # fmt: skip
    room = re.search(r"^room (\S+): pika for 2", created, re.MULTILINE)
    assert room is not None, created
    assert "options: match_length=single, pika_window=3, players=2" in created, created
    room_id = room.group(1)
    assert f"tavolo room accept {room_id}" in terminal.ok(
        "room", "invite", room_id, "Marco", "--as", "Giulia"
    )
    early = terminal.run("room", "start", room_id, "--as", "Marco")
    assert early.returncode != 0 and "only the room's host" in early.stdout, early.stdout

    accept = terminal.start("room", "accept", room_id, "--as", "Marco")
    assert accept.stdout is not None
    marco_lobby = Lines(accept.stdout)
    marco_lobby.wait_for("waiting for Giulia to start", limit=30)
    started = terminal.ok("room", "start", room_id, "--as", "Giulia")
    table = re.search(r"table (\S+): you are seat 0", started)
    assert table is not None, started
    table_id = table.group(1)
    assert f"--table {table_id} --as Giulia" in started
    invited = marco_lobby.wait_for(f"table {table_id}: you are seat 1", limit=60)
    assert f"tavolo play pika --server --table {table_id} --as Marco" in invited
    assert accept.wait(timeout=30) == 0

    # -- both play at once ---------------------------------------------------------------
    ones = terminal.folder / "ones.txt"
    ones.write_text("1\n" * 5000)
    seats = {"Giulia": 0, "Marco": 1}
    screens = {nick: terminal.folder / f"{nick}.out" for nick in seats}
    command = ("play", "pika", "--server", "--table", table_id)
    players = {
        nick: terminal.start(*command, "--as", nick, stdin=ones, output=screens[nick])
        for nick in seats
    }
    for process in players.values():
        process.wait(timeout=180)
    outputs = {nick: screen.read_text() for nick, screen in screens.items()}
    for nick, process in players.items():
        text = outputs[nick]
        assert process.returncode == 0, text[-3000:]
        assert f"you are seat {seats[nick]}" in text and "Your choice" in text
        assert re.search(f"tavolo audit verify --receipt \\w{{64}} {table_id} --as {nick}", text)
        assert "Traceback" not in text
    places = _final_places(outputs["Giulia"], "Giulia")
    assert places == _final_places(outputs["Marco"], "Marco")
    assert set(places) == set(seats) and min(places.values()) == 1

    # -- the wallet: the versus-friends reward, to first place only ------------------------
    results = [SeatResult(seat=s, player_id=n, place=places[n]) for n, s in seats.items()]
    owed = rewards(Mode.VERSUS_FRIENDS, results, WalletConfig.from_env({}).rates)
    paid = {n: owed.get(s, 0) for n, s in seats.items()}
    winner = min(places, key=lambda n: places[n])
    assert paid[winner] > 0
    reward_line = f"reward:{table_id}:{seats[winner]}"
    deadline = time.monotonic() + SETTLE_SECONDS
    while not any(reward_line in line for line in _coins(terminal, winner)[1]):
        assert time.monotonic() < deadline, f"{winner} was never paid for table {table_id}"
        time.sleep(0.5)
    coins = {nick: _coins(terminal, nick) for nick in seats}
    for nick, (_, history) in coins.items():
        rewarded = [line for line in history if f"reward:{table_id}:" in line]
        if paid[nick]:
            assert len(rewarded) == 1 and rewarded[0].split()[1] == str(paid[nick]), history
        else:
            assert rewarded == [], history
    # Both accounts were opened alike, so the balances differ by the rewards exactly.
    loser = max(places, key=lambda n: places[n])
    assert coins[winner][0] - coins[loser][0] == paid[winner] - paid[loser]

    # -- the log, checked by a player of the table, then by an operator -----------------
    assert "verdict: OK" in terminal.ok("audit", "verify", table_id, "--as", "Marco")
    terminal.ok("account", "register", "Lucia", "--password", "lucia-secret")
    stranger = terminal.run("audit", "verify", table_id, "--as", "Lucia").stderr
    assert "no seat at table" in stranger and "(PERMISSION_DENIED) [NO_SEAT]" in stranger, stranger
    terminal.ok("account", "login", OPERATOR[0], "--password", OPERATOR[1])
    verdict = terminal.ok("audit", "verify", table_id, "--as", OPERATOR[0])
    assert "verdict: OK" in verdict, verdict
