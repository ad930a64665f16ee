"""Spades scoring (RULES §3.5-3.9, §3.11 and §0.13) as pure functions over plain numbers.

Kept apart from the engine so that every fixture of RULES can be checked by hand, and so
that an auditor can recompute a round's score from its bids and tricks alone.

A team's round, in the seed's words (``seeds/004``) and RULES:

- the *contract* is the sum of both bids (nil counts 0), and the team's *tricks* are both
  members' tricks, because a failed nil's tricks count for the partner (house rule);
- contract made: +10 x contract, and every extra trick is a *bag* worth ``bag_points``
  (-1 by the seed, +1 in the standard game); bags accumulate, and each time the count
  reaches 10 the team loses 100 and 10 come off the count, the excess carrying over;
- contract missed: -10 x contract, and no bags are counted;
- each nil adds +100 if its bidder took no trick, else -100 (blind nil ±200), on top;
- all 13 tricks to one team is a *Boston*: recorded, and worth ``boston_bonus``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Final

TRICKS_PER_ROUND: Final = 13
NIL_POINTS: Final = 100
BLIND_NIL_POINTS: Final = 200
BAG_LIMIT: Final = 10
BAG_LIMIT_PENALTY: Final = 100
MAX_TIEBREAK_ROUNDS: Final = 3


class _Value:
    """Equality and ``repr`` by the fields named in ``FIELDS``, as a dataclass has them.

    The scoring's records are plain classes with their ``__init__`` written out, not
    dataclasses: compiled by mypyc, a frozen dataclass is still built by its generated
    *Python* ``__init__``, which cost more than the rest of scoring a round. Treat them
    as immutable."""

    FIELDS: ClassVar[tuple[str, ...]] = ()

    def _values(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in self.FIELDS])

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, _Value)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        pairs = ", ".join(f"{n}={v!r}" for n, v in zip(self.FIELDS, self._values(), strict=True))
        return f"{type(self).__name__}({pairs})"


class Member(_Value):
    """One player's part in a round: the bid (0 = nil), tricks taken, and a blind nil."""

    FIELDS = ("bid", "tricks", "blind")

    def __init__(self, bid: int, tricks: int, blind: bool = False) -> None:
        self.bid = bid
        self.tricks = tricks
        self.blind = blind


class TeamRound(_Value):
    """How a team's score and bag count moved in one round, item by item."""

    FIELDS = (
        "contract",
        "tricks",
        "made",
        "contract_points",
        "bags_taken",
        "bag_points",
        "bag_penalty",
        "nil_points",
        "boston",
        "boston_points",
        "score_before",
        "score",
        "bags",
    )

    def __init__(
        self,
        *,
        contract: int,
        tricks: int,
        made: bool,
        contract_points: int,
        bags_taken: int,
        bag_points: int,
        bag_penalty: int,
        nil_points: int,
        boston: bool,
        boston_points: int,
        score_before: int,
        score: int,
        bags: int,
    ) -> None:
        self.contract = contract
        self.tricks = tricks
        self.made = made
        self.contract_points = contract_points
        self.bags_taken = bags_taken
        self.bag_points = bag_points
        self.bag_penalty = bag_penalty
        self.nil_points = nil_points
        self.boston = boston
        self.boston_points = boston_points
        self.score_before = score_before
        self.score = score
        self.bags = bags

    @property
    def delta(self) -> int:
        return self.score - self.score_before

    def to_dict(self) -> dict[str, Any]:
        """Every field in order, then the delta (written out: ``asdict`` is slow)."""
        return {
            "contract": self.contract,
            "tricks": self.tricks,
            "made": self.made,
            "contract_points": self.contract_points,
            "bags_taken": self.bags_taken,
            "bag_points": self.bag_points,
            "bag_penalty": self.bag_penalty,
            "nil_points": self.nil_points,
            "boston": self.boston,
            "boston_points": self.boston_points,
            "score_before": self.score_before,
            "score": self.score,
            "bags": self.bags,
            "delta": self.delta,
        }


def nil_points(member: Member) -> int:
    """The bonus or penalty of a nil bid (0 for an ordinary bid)."""
    if member.bid != 0:
        return 0
    value = BLIND_NIL_POINTS if member.blind else NIL_POINTS
    return value if member.tricks == 0 else -value


def score_team_round(
    score: int,
    bags: int,
    members: tuple[Member, Member],
    *,
    bag_points: int = -1,
    boston_bonus: int = 0,
) -> TeamRound:
    """The team's new score and bag count after a round (RULES §3.5-3.9)."""
    first, second = members
    contract = first.bid + second.bid
    tricks = first.tricks + second.tricks
    made = tricks >= contract
    bags_taken = tricks - contract if made else 0
    bag_count = bags + bags_taken
    cycles = bag_count // BAG_LIMIT
    boston = tricks == TRICKS_PER_ROUND
    contract_points = 10 * contract if made else -10 * contract
    bag_part = bags_taken * bag_points
    penalty = -BAG_LIMIT_PENALTY * cycles
    nils = nil_points(first) + nil_points(second)
    boston_points = boston_bonus if boston else 0
    return TeamRound(
        contract=contract,
        tricks=tricks,
        made=made,
        contract_points=contract_points,
        bags_taken=bags_taken,
        bag_points=bag_part,
        bag_penalty=penalty,
        nil_points=nils,
        boston=boston,
        boston_points=boston_points,
        score_before=score,
        score=score + contract_points + bag_part + penalty + nils + boston_points,
        bags=bag_count - BAG_LIMIT * cycles,
    )


def score_round(
    scores: tuple[int, int],
    bags: tuple[int, int],
    bids: Sequence[int],
    tricks: Sequence[int],
    blind: Sequence[bool],
    *,
    bag_points: int = -1,
    boston_bonus: int = 0,
) -> tuple[TeamRound, TeamRound]:
    """Both teams' rounds from the four seats' bids and tricks: seats 0+2 are team 0,
    seats 1+3 team 1."""
    return (
        score_team_round(
            scores[0],
            bags[0],
            (Member(bids[0], tricks[0], blind[0]), Member(bids[2], tricks[2], blind[2])),
            bag_points=bag_points,
            boston_bonus=boston_bonus,
        ),
        score_team_round(
            scores[1],
            bags[1],
            (Member(bids[1], tricks[1], blind[1]), Member(bids[3], tricks[3], blind[3])),
            bag_points=bag_points,
            boston_bonus=boston_bonus,
        ),
    )


def game_decided(scores: tuple[int, int], target: int, lose_at: int) -> bool:
    """Does the game end after this round? A team at ``target`` or more, or at
    ``lose_at`` or less, ends it (RULES 3.11; the floor is our addition, see the engine)."""
    high, low = (scores[0], scores[1]) if scores[0] >= scores[1] else (scores[1], scores[0])
    return high >= target or low <= lose_at


def winner_after_round(scores: tuple[int, int], target: int, lose_at: int) -> int | None:
    """The winning team once a round is scored, or ``None`` to play on.

    When the game ends the higher score wins: a team at the target beats one below it,
    a team above the floor beats one at it, and if both are past the same line the
    higher score wins (SPADES-8). Equal scores also give ``None``: the caller starts a
    tie-break round.
    """
    if not game_decided(scores, target, lose_at) or scores[0] == scores[1]:
        return None
    return 0 if scores[0] > scores[1] else 1


def winner_of_tiebreak(
    scores: tuple[int, int], tiebreak_rounds: int, last_trick_team: int
) -> int | None:
    """After a tie-break round (RULES §0.13-14), the winner, or ``None`` for another one.

    The teams were level, so whoever scored more in the round has the higher total. After
    the third level tie-break round the team that took its last trick loses.
    """
    if scores[0] != scores[1]:
        return 0 if scores[0] > scores[1] else 1
    if tiebreak_rounds >= MAX_TIEBREAK_ROUNDS:
        return 1 - last_trick_team
    return None
