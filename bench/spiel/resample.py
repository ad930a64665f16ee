"""A world drawn from one seat's knowledge in a four-hand trick game: the cards it cannot
see, dealt again to the seats that hold them, each seat keeping its hand size, never
given a suit it showed out of, and holding the cards this seat passed it (Hearts)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from tavolo.cardgames.games.french_deck import sort_hand, suit_of

TRIES = 100


def voids(plays: Sequence[tuple[int, str]]) -> dict[int, set[str]]:
    """Suits each seat showed out of: a card off the led suit, trick by trick."""
    out: dict[int, set[str]] = {}
    for start in range(0, len(plays), 4):
        trick = plays[start : start + 4]
        led = suit_of(trick[0][1])
        for seat, card in trick[1:]:
            if suit_of(card) != led:
                out.setdefault(seat, set()).add(led)
    return out


def deal(
    hands: Sequence[Sequence[str]],
    seer: int,
    plays: Sequence[tuple[int, str]],
    known: Mapping[int, Sequence[str]],
    rng: random.Random,
) -> tuple[tuple[str, ...], ...]:
    """New hands: ``seer``'s as it is, ``known[s]`` kept in seat s's, the rest of the
    other seats' cards shuffled among them within their voids. Most constrained cards are
    placed first; a dead end starts again, and after ``TRIES`` the voids are dropped
    (a world no less plausible to the searcher than one it cannot draw)."""
    out = {s: [c for c in known.get(s, ()) if c in hands[s]] for s in range(4) if s != seer}
    pinned = {c for cards in out.values() for c in cards}
    pool = [c for s in out for c in hands[s] if c not in pinned]
    need = {s: len(hands[s]) - len(out[s]) for s in out}
    void = voids(plays)
    for attempt in range(TRIES + 1):
        rng.shuffle(pool)
        strict = attempt < TRIES
        room = dict(need)
        placed: dict[int, list[str]] = {s: [] for s in out}
        options = {
            c: [s for s in out if not (strict and suit_of(c) in void.get(s, ()))] for c in pool
        }
        ok = True
        for card in sorted(pool, key=lambda c: len(options[c])):
            seats = [s for s in options[card] if room[s] > 0]
            if not seats:
                ok = False
                break
            weights = [room[s] for s in seats]
            seat = rng.choices(seats, weights)[0]
            placed[seat].append(card)
            room[seat] -= 1
        if ok:
            return tuple(
                tuple(hands[s]) if s == seer else sort_hand(out[s] + placed[s]) for s in range(4)
            )
    raise AssertionError("a deal with no voids always fits")
