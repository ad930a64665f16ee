"""A small simulated platform for the collusion signals: honest players seated at random,
and a pair who sit together on purpose, dump their stakes one way, and spare each other
in Pika (never stacking a +2/+4 on the partner). Pika is played by the real rules."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from tavolo.cardgames.actions import ActionKind
from tavolo.cardgames.registry import get_game
from tavolo.lobby.social.conduct.collusion import (
    Fact,
    SessionSeen,
    TableResult,
    turns_of,
)

HONEST = tuple(f"honest-{i}" for i in range(8))
PAIR = ("dumper", "taker")
EVERYONE = HONEST + PAIR


def _seat(rng: random.Random, size: int, pair_together: bool) -> list[str]:
    if pair_together:
        others = rng.sample(HONEST, size - 2)
        players = [*PAIR, *others]
    else:
        players = rng.sample(EVERYONE, size)
    rng.shuffle(players)
    return players


def stake_tables(rng: random.Random, fair: int, rigged: int) -> Iterator[TableResult]:
    """Fair tables place everyone at random; at rigged ones the dumper always comes last
    and the taker first."""
    for index in range(fair + rigged):
        rigged_table = index >= fair
        size = rng.choice((2, 3, 4)) if not rigged_table else rng.choice((3, 4))
        players = _seat(rng, size, rigged_table)
        order = players[:]
        rng.shuffle(order)
        if rigged_table:
            order = ["taker", *(p for p in order if p not in PAIR), "dumper"]
        places = {player: place + 1 for place, player in enumerate(order)}
        table_id = f"stake-{index}"
        yield TableResult(f"finished-{table_id}", table_id, "scopa", size, places, 100)


def _chosen(game: Any, state: Any, seat: int, rng: random.Random, partner: int | None) -> Any:
    legal = [a for a in game.legal_actions(state, seat) if a.kind is not ActionKind.REORDER]
    if partner is not None:
        spare = []
        for action in legal:
            after, events = game.apply(state, seat, action)
            stacked = any(e.get("type") == "play" and "stack" in e for e in events)
            if not (stacked and partner in game.to_act(after)):
                spare.append(action)
        legal = spare or legal
    return rng.choice(legal)


def pika_table(
    rng: random.Random, table_id: str, pair_together: bool
) -> tuple[TableResult, list[Fact]]:
    game = get_game("pika")
    players = _seat(rng, 4, pair_together)
    state = game.new_game(None, 4, rng.randbytes(16))
    events: list[dict[str, Any]] = []
    while waiting := game.to_act(state):
        seat = min(waiting)
        partner = None
        if players[seat] in PAIR:
            other = PAIR[1 - PAIR.index(players[seat])]
            partner = players.index(other) if other in players else None
        state, new = game.apply(state, seat, _chosen(game, state, seat, rng, partner))
        events.extend(new)
    outcome = game.outcome(state)
    assert outcome is not None
    places = {player: int(outcome.places[s]) for s, player in enumerate(players)}
    result = TableResult(f"finished-{table_id}", table_id, "pika", 4, places, 0)
    return result, [*turns_of(table_id, list(players), events)]


def sessions(pair_shares_installation: bool) -> list[SessionSeen]:
    """Each honest player from their own installation; two honest flatmates share an
    address; the pair play from one installation, or (more careful) from two."""
    seen = [
        SessionSeen(f"login-{p}", p, f"203.0.113.{i}", f"install-{i}") for i, p in enumerate(HONEST)
    ]
    seen.append(SessionSeen("login-flatmate", "honest-1", "203.0.113.0", "install-1"))
    seen.append(SessionSeen("login-dumper", "dumper", "198.51.100.7", "install-shared"))
    taker_install = "install-shared" if pair_shares_installation else "install-taker"
    seen.append(SessionSeen("login-taker", "taker", "198.51.100.9", taker_install))
    return seen


def world(
    seed: int,
    *,
    pika_games: int = 200,
    fair_stakes: int = 60,
    rigged: int = 20,
    pair_shares_installation: bool = True,
) -> list[Fact]:
    """The facts of a season: sessions, stake tables (``rigged`` of them with the pair
    dumping) and Pika tables, half of them with the pair seated together."""
    rng = random.Random(seed)
    facts: list[Fact] = [*sessions(pair_shares_installation)]
    facts.extend(stake_tables(rng, fair_stakes, rigged))
    for index in range(pika_games):
        result, turns = pika_table(rng, f"pika-{index}", pair_together=index % 2 == 0)
        facts.append(result)
        facts.extend(turns)
    return facts
