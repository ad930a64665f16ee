"""Playing a pairing: seeded deals, each once per rotation of the levels through the
seats, every decision timed in thread CPU time, and each deal's figures."""

from __future__ import annotations

import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from league.tables import Table, rotations
from tavolo.cardgames.actions import Action
from tavolo.cardgames.bots.base import RandomBot, SeatedBot, seed_bytes
from tavolo.cardgames.bots.registry import make_bot
from tavolo.cardgames.contract import Outcome
from tavolo.cardgames.registry import get_game
from tavolo.cardgames.rng import SeededRandom

CHIP_GAMES = frozenset({"bestia", "poker", "settemezzo"})
MAX_ACTIONS = 3000
"""A deal still running after this many actions is scored as it stands (Solitario: lost);
a whole match gets a hundred times as many."""


@dataclass
class Tally:
    """One pairing's results: figures per deal, and decision times per level.

    - ``figures``: the league's figure (places, chips or Solitario's rate difference);
    - ``wins``: the stronger level's share of first places (a shared first ½);
    - ``margins``: its score less the weaker level's (lower-is-better scores turned);
    - ``rates``: Solitario's (stronger won, weaker won) per deal;
    - ``actions`` and ``cut``: actions played, and deals cut at the action limit.
    """

    figures: list[float] = field(default_factory=list)
    wins: list[float] = field(default_factory=list)
    margins: list[float] = field(default_factory=list)
    rates: list[tuple[float, float]] = field(default_factory=list)
    times: dict[str, list[float]] = field(default_factory=dict)
    actions: int = 0
    cut: int = 0

    def add(self, other: Tally) -> None:
        self.figures += other.figures
        self.wins += other.wins
        self.margins += other.margins
        self.rates += other.rates
        for level, times in other.times.items():
            self.times.setdefault(level, []).extend(times)
        self.actions += other.actions
        self.cut += other.cut


def seat_bot(name: str, level: str, seed: bytes) -> SeatedBot:
    if level == "random":
        return SeatedBot(name, level, RandomBot(), SeededRandom(seed_bytes(seed)))
    return make_bot(name, level, seed)


def next_move(game: Any, state: Any) -> tuple[int, list[Action]]:
    """Who moves next and what they may do: a seat with a rule timer running outside
    the turn (Uno's call window) answers first, as at a table; then the lowest seat the
    rules wait for."""
    waiting = game.to_act(state)
    early = sorted({t.seat for t in game.timers(state) if t.kind != "turn"} - waiting)
    for seat in early:
        legal = game.legal_actions(state, seat)
        if legal:
            return seat, legal
    seat = min(waiting)
    return seat, game.legal_actions(state, seat)


def play(table: Table, levels: Sequence[str], seed: bytes, tally: Tally, limit: int) -> Outcome:
    """One deal with ``levels[s]`` at seat s, every decision timed."""
    game = get_game(table.name)
    state = game.new_game(table.options, table.seats, seed)
    bots = [seat_bot(table.name, level, seed + bytes([s])) for s, level in enumerate(levels)]
    for _ in range(limit):
        outcome = game.outcome(state)
        if outcome is not None:
            return outcome
        seat, legal = next_move(game, state)
        view = game.view(state, seat)
        start = time.thread_time()
        action = bots[seat].choose(view, legal)
        tally.times.setdefault(levels[seat], []).append(time.thread_time() - start)
        state, _ = game.apply(state, seat, action)
        tally.actions += 1
    tally.cut += 1
    seats = table.seats
    return Outcome(places=tuple([seats] * seats), scores=tuple([0] * seats))


def figure(name: str, outcome: Outcome, strong: tuple[int, ...]) -> float:
    """Places: the share of weaker seats the stronger finished ahead of (a tie ½); chip
    games: the stronger seats' chips won a hand less the weaker seats'."""
    seats = len(outcome.places)
    weak = [s for s in range(seats) if s not in strong]
    if name in CHIP_GAMES:
        won = outcome.detail["chips_won"]
        assert isinstance(won, list)
        hands = outcome.detail.get("hands", 1)
        per = max(1, int(hands)) if isinstance(hands, int) else 1
        mean_strong = sum(int(won[s]) for s in strong) / len(strong)
        mean_weak = sum(int(won[s]) for s in weak) / len(weak)
        return (mean_strong - mean_weak) / per
    ahead = [
        1.0
        if outcome.places[s] < outcome.places[w]
        else 0.5
        if outcome.places[s] == outcome.places[w]
        else 0.0
        for s in strong
        for w in weak
    ]
    return sum(ahead) / len(ahead)


def won(outcome: Outcome, strong: tuple[int, ...]) -> float:
    """1 when only stronger seats finished first, ½ when first is shared, else 0."""
    firsts = set(outcome.winners())
    if not firsts & set(strong):
        return 0.0
    return 1.0 if firsts <= set(strong) else 0.5


def margin(outcome: Outcome, strong: tuple[int, ...]) -> float:
    """The stronger seats' mean score less the weaker seats', turned where the lowest
    score places first (Hearts, Scala 40's penalty points)."""
    scores, places = outcome.scores, outcome.places
    weak = [s for s in range(len(scores)) if s not in strong]
    diff = sum(scores[s] for s in strong) / len(strong) - sum(scores[w] for w in weak) / len(weak)
    best = min(range(len(places)), key=lambda s: places[s])
    lower_is_better = scores[best] == min(scores) and scores[best] != max(scores)
    return -diff if lower_is_better else diff


def solitario_won(outcome: Outcome) -> float:
    results = outcome.detail.get("results")
    return 1.0 if isinstance(results, list) and results[0] == "won" else 0.0


@dataclass(frozen=True)
class Pairing:
    """What one pairing plays: its table, the two levels and how they are seated."""

    table: Table
    weak: str
    strong: str
    seating: str = "one"
    limit: int = MAX_ACTIONS


def play_deals(pairing: Pairing, first: int, count: int) -> Tally:
    tally, table = Tally(), pairing.table
    weak, strong = pairing.weak, pairing.strong
    for n in range(first, first + count):
        seed = f"league-{table.name}-{table.seats}-{n}".encode()  # the same deals at any options
        if table.seats == 1:
            rates = [
                solitario_won(play(table, [lv], seed, tally, pairing.limit))
                for lv in (strong, weak)
            ]
            tally.rates.append((rates[0], rates[1]))
            tally.figures.append(rates[0] - rates[1])
            continue
        figures, wins, margins = [], [], []
        for side in rotations(table, pairing.seating):
            levels = [strong if s in side else weak for s in range(table.seats)]
            outcome = play(table, levels, seed, tally, pairing.limit)
            figures.append(figure(table.name, outcome, side))
            wins.append(won(outcome, side))
            margins.append(margin(outcome, side))
        tally.figures.append(sum(figures) / len(figures))
        tally.wins.append(sum(wins) / len(wins))
        tally.margins.append(sum(margins) / len(margins))
    return tally


def measure(pairing: Pairing, deals: int, jobs: int) -> Tally:
    if jobs == 1:
        return play_deals(pairing, 0, deals)
    bounds = [(i * deals // jobs, (i + 1) * deals // jobs) for i in range(jobs)]
    total = Tally()
    with ProcessPoolExecutor(jobs) as pool:
        futures = [pool.submit(play_deals, pairing, a, b - a) for a, b in bounds]
        for future in futures:
            total.add(future.result())
    return total
