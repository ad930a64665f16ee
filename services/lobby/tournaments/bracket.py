"""A knock-out bracket (PCG-7): the draw from a committed seed, byes, and advancing.

The draw is the platform's fair generator (``SeededRandom``) shuffling the entrants, seeded
with a seed whose SHA-256 was published when registration opened and which is revealed at
the draw: anyone can shuffle the same list with it and check the bracket.

A bracket of ``size`` (the next power of two) first-round slots pairs slot ``2i`` with
``2i + 1``. With fewer entrants the missing ones are byes, one per first-round match from
the top, so no two byes meet and every bye is a walk-over into round two.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace

from tavolo.cardgames.rng import SeededRandom
from tavolo.servicekit.errors import FailedPrecondition, InvalidArgument

MIN_ENTRANTS = 4
MAX_ENTRANTS = 256


def commitment(seed: bytes) -> str:
    """What is published when registration opens: the seed's SHA-256, in hex."""
    return hashlib.sha256(seed).hexdigest()


def bracket_size(entrants: int) -> int:
    """The power of two the bracket is drawn in."""
    if not MIN_ENTRANTS <= entrants <= MAX_ENTRANTS:
        raise InvalidArgument(
            f"a bracket takes {MIN_ENTRANTS} to {MAX_ENTRANTS} entrants, not {entrants}",
            reason="BRACKET_INVALID",
        )
    size = MIN_ENTRANTS
    while size < entrants:
        size *= 2
    return size


@dataclass(frozen=True, slots=True)
class Match:
    """One match of the bracket; a side is a player id, or ``None`` while unknown (or a
    bye in round one). ``winner`` is set once it is decided (a walk-over at once)."""

    round: int
    index: int
    a: str | None
    b: str | None
    winner: str | None = None

    @property
    def ready(self) -> bool:
        """Both sides known and undecided: its table can open."""
        return self.a is not None and self.b is not None and self.winner is None


@dataclass(frozen=True, slots=True)
class Bracket:
    rounds: tuple[tuple[Match, ...], ...]

    @property
    def champion(self) -> str | None:
        return self.rounds[-1][0].winner

    def match(self, round_: int, index: int) -> Match:
        if not (0 <= round_ < len(self.rounds) and 0 <= index < len(self.rounds[round_])):
            raise InvalidArgument(
                f"the bracket has no match {index} in round {round_ + 1}", reason="BRACKET_INVALID"
            )
        return self.rounds[round_][index]

    def ready(self) -> list[Match]:
        """The matches whose tables can open now."""
        return [m for matches in self.rounds for m in matches if m.ready]


def draw(entrants: Sequence[str], seed: bytes) -> Bracket:
    """The bracket drawn from ``seed``; byes walk over at once."""
    if len(set(entrants)) != len(entrants):
        raise InvalidArgument("an entrant is registered once", reason="BRACKET_INVALID")
    size = bracket_size(len(entrants))
    order = sorted(entrants)  # the registration order must not matter, only the seed
    SeededRandom(seed).shuffle(order)
    byes = size - len(order)
    firsts: list[Match] = []
    players = iter(order)
    for index in range(size // 2):
        a = next(players)
        b = None if index < byes else next(players)
        firsts.append(Match(0, index, a, b))
    rounds = [tuple(firsts)]
    matches = size // 4
    while matches:
        rounds.append(tuple(Match(len(rounds), i, None, None) for i in range(matches)))
        matches //= 2
    bracket = Bracket(tuple(rounds))
    for match in firsts:
        if match.b is None:
            assert match.a is not None
            bracket = advance(bracket, 0, match.index, match.a)
    return bracket


def advance(bracket: Bracket, round_: int, index: int, winner: str) -> Bracket:
    """``winner`` takes match (``round_``, ``index``) and its place in the next round."""
    match = bracket.match(round_, index)
    if match.winner is not None:
        raise FailedPrecondition(
            f"match {index + 1} of round {round_ + 1} is already decided",
            reason="MATCH_STATE",
            metadata={"round": round_ + 1, "match": index + 1},
        )
    if winner not in (match.a, match.b):
        raise InvalidArgument(
            f"{winner!r} does not play match {index + 1} of round {round_ + 1}",
            reason="BRACKET_INVALID",
        )
    rounds = [list(r) for r in bracket.rounds]
    rounds[round_][index] = replace(match, winner=winner)
    if round_ + 1 < len(rounds):
        following = rounds[round_ + 1][index // 2]
        if index % 2 == 0:
            rounds[round_ + 1][index // 2] = replace(following, a=winner)
        else:
            rounds[round_ + 1][index // 2] = replace(following, b=winner)
    return Bracket(tuple(tuple(r) for r in rounds))
