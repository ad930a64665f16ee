"""A good clairvoyant grouping: simulated annealing over swaps of two tickets between
tables, starting from first come (four consecutive arrivals a table).

It knows every arrival, so it can hold a ticket for someone who has not come yet, and it
spends the 5% of waits the goal allows past the cap on the tickets far from everyone,
who then wait as long as their like take to come. Its mean spread is one a clairvoyant
reaches, not the best one: ``bound`` says how far below the best can lie.
"""

from __future__ import annotations

import math
import random

from clairvoyant.instance import SEATS, Pool, late_allowed

TIME_NEIGHBOURS = 20  # a swap partner within this many arrivals, most of the time
RATING_NEIGHBOURS = 8  # otherwise within this many places in rating order, at any time


def best_grouping(pool: Pool, moves: int, seed: int = 1, heat: float = 3.0) -> list[list[int]]:
    """Tables (indices into ``pool.arrivals``) annealed to a low total spread. No swap
    takes the count of tickets past the cap above ``late_allowed`` or above where it was,
    so the result keeps the cap whenever the start (first come) does. ``heat`` is the
    spread a worse swap costs that is still taken one time in e at the start, falling
    linearly to nothing."""
    count = len(pool.arrivals)
    allowed = late_allowed(count)
    tables = [list(range(i, i + SEATS)) for i in range(0, count, SEATS)]
    table_of = [i // SEATS for i in range(count)]
    spreads = [pool.spread(t) for t in tables]
    lates = [pool.late(t) for t in tables]
    late = sum(lates)
    by_rating = sorted(range(count), key=lambda i: pool.arrivals[i].mu)
    place = {ticket: position for position, ticket in enumerate(by_rating)}
    rng = random.Random(seed)
    for move in range(moves):
        temperature = heat * (1 - move / moves) + 1e-3
        a = rng.randrange(count)
        if rng.random() < 0.75:
            b = a + rng.randint(-TIME_NEIGHBOURS, TIME_NEIGHBOURS)
        else:
            position = place[a] + rng.randint(-RATING_NEIGHBOURS, RATING_NEIGHBOURS)
            b = by_rating[position] if 0 <= position < count else -1
        if not 0 <= b < count or table_of[a] == table_of[b]:
            continue
        ta, tb = table_of[a], table_of[b]
        new_a = [b if x == a else x for x in tables[ta]]
        new_b = [a if x == b else x for x in tables[tb]]
        late_a, late_b = pool.late(new_a), pool.late(new_b)
        new_late = late - lates[ta] - lates[tb] + late_a + late_b
        if new_late > allowed and new_late > late:
            continue
        spread_a, spread_b = pool.spread(new_a), pool.spread(new_b)
        change = spread_a + spread_b - spreads[ta] - spreads[tb]
        if change < 0 or rng.random() < math.exp(-change / temperature):
            tables[ta], tables[tb] = new_a, new_b
            table_of[a], table_of[b] = tb, ta
            spreads[ta], spreads[tb] = spread_a, spread_b
            lates[ta], lates[tb] = late_a, late_b
            late = new_late
    return tables
