"""The contract every rules engine implements, so tables, bots, replay and clients treat all
games alike.

A game is a :class:`Game` subclass with no I/O, no asyncio, no protobuf and no clock:
given the same options, seat count, seed and actions it produces the same events and
states, byte for byte. The base class does the checks every game needs (is the game over,
may this seat act, is this action legal) so that each game writes only its rules:

- ``_new_game(options, seats, rng)``: deal and set up;
- ``_legal_actions(state, seat)``: every enumerable action the seat may take now;
- ``_apply(state, seat, action)``: perform an action already known to be legal;
- ``_view(state, seat)``, ``outcome(state)``, ``to_act(state)``, ``timers(state)``;
- optionally ``_is_legal`` for actions that cannot be listed (a hand reorder) and
  ``_explain`` for a precise refusal message;
- for knock-out play (RULES §0 rule 14, PCG-7): ``offers_knock_out``,
  ``tie_break_hand(state)`` and ``last_capture(state)``; :mod:`tavolo.cardgames.knockout`
  plays the tie-break hands and decides the match with them.

``apply`` never mutates the state it is given: it returns a new one. The engine service
relies on that to retry an append after a concurrency conflict without reloading.

Events are JSON-safe dicts with a ``"type"`` key. They are the full truth (they may name a
card drawn face down), so they go to the event log and to auditors, never to a seat: a seat
sees only ``view(state, seat)``.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from mypy_extensions import mypyc_attr

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.errors import GameOver, InvalidOptions, NotYourTurn, RuleError
from tavolo.cardgames.rng import SeededRandom

JSON = Any
Event = dict[str, JSON]
S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """A table option: its default, the values allowed, and what it means."""

    name: str
    default: JSON
    doc: str
    choices: tuple[JSON, ...] | None = None
    check: Callable[[JSON], str | None] | None = None

    def validate(self, value: JSON) -> JSON:
        """``value`` if it is one of the option's values, spelled as the option spells it;
        else :class:`InvalidOptions` naming the option and the values it takes. Python's
        ``1 == True`` and ``1.0 == 1`` would let look-alikes in, so types are compared too:
        a value is stored, logged and shown exactly as accepted."""
        if self.choices is not None and not any(_same(value, c) for c in self.choices):
            allowed = ", ".join(_shown(c) for c in self.choices)
            raise InvalidOptions(
                f"option {self.name!r} must be one of {allowed}, not {_shown(value)}",
                reason="OPTION_INVALID",
                metadata={"option": self.name, "allowed": allowed},
            )
        if isinstance(self.default, int) and isinstance(value, bool) != isinstance(
            self.default, bool
        ):
            kind = "true or false" if isinstance(self.default, bool) else "a number"
            raise InvalidOptions(
                f"option {self.name!r} takes {kind}, not {_shown(value)}",
                reason="OPTION_INVALID",
                metadata={"option": self.name, "allowed": kind},
            )
        canonical = _canonical_count(value)
        if canonical is not None and canonical != value:
            raise InvalidOptions(
                f"option {self.name!r}: write {canonical!r}, not {value!r}",
                reason="OPTION_INVALID",
                metadata={"option": self.name, "allowed": str(canonical)},
            )
        if self.check is not None:
            problem = self.check(value)
            if problem:
                raise InvalidOptions(
                    f"option {self.name!r}: {problem}",
                    reason="OPTION_INVALID",
                    metadata={"option": self.name},
                )
        return value


def _same(value: JSON, choice: JSON) -> bool:
    """Equal and of the same type: ``1`` is not ``True``, ``1.0`` is not ``1``."""
    return type(value) is type(choice) and bool(value == choice)


def _shown(value: JSON) -> str:
    """An option value for a message: ``'hands:7'`` and ``3`` as Python writes them, but
    ``true``, ``false`` and ``null`` as a client sends them."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    return repr(value)


def _canonical_count(value: JSON) -> str | None:
    """The one spelling of a ``kind:N`` value (``"hands:07"`` → ``"hands:7"``), or
    ``None`` when ``value`` is not of that form."""
    if not isinstance(value, str):
        return None
    kind, colon, number = value.partition(":")
    if not colon or not number.isdigit():
        return None
    return f"{kind}:{int(number)}"


@dataclass(frozen=True, slots=True)
class Timer:
    """A deadline the rules want running now.

    ``key`` is unique to this occurrence (an expiry with a stale key is refused), ``seat`` is
    whose timer it is, ``kind`` is ``"turn"`` (duration set by the table) or a rule timer
    such as ``"call"`` whose duration ``millis`` the rules give.
    """

    key: str
    seat: int
    kind: str
    millis: int | None = None


@dataclass(frozen=True, slots=True)
class View:
    """What one seat may see: its own hand and the public table, nothing else.

    ``seat`` is ``None`` for a spectator's view (no hand). ``public`` and ``private`` are
    JSON-safe; ``private`` holds anything else only this seat may see.
    """

    seat: int | None
    hand: tuple[str, ...]
    public: Mapping[str, JSON]
    private: Mapping[str, JSON] = field(default_factory=dict)

    def to_dict(self) -> dict[str, JSON]:
        return {
            "seat": self.seat,
            "hand": list(self.hand),
            "public": dict(self.public),
            "private": dict(self.private),
        }


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result: ``places[s]`` is seat s's place (1 = first; ties share a place)."""

    places: tuple[int, ...]
    scores: tuple[int, ...]
    detail: Mapping[str, JSON] = field(default_factory=dict)

    def __reduce__(self) -> tuple[type[Outcome], tuple[object, ...]]:
        """Copied and pickled through the constructor: compiled, a frozen dataclass
        refuses the field-by-field restore ``copy.deepcopy`` and ``pickle`` do."""
        return Outcome, (self.places, self.scores, self.detail)

    def winners(self) -> tuple[int, ...]:
        return tuple(s for s, p in enumerate(self.places) if p == 1)


def places_from_measure(
    measure: Sequence[float | int], *, lower_is_better: bool
) -> tuple[int, ...]:
    """Competition ranking (1, 2, 2, 4): equal measures share a place."""
    ordered = sorted(measure, reverse=not lower_is_better)
    return tuple(ordered.index(m) + 1 for m in measure)


@mypyc_attr(allow_interpreted_subclasses=True)
class Game(ABC, Generic[S]):
    """Base of every rules engine; see the module docstring.

    Compiled (``tools/compile_rules.py``) it still admits interpreted games and test doubles.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    offers_knock_out: ClassVar[bool] = False
    """True once the game supplies ``tie_break_hand`` and ``last_capture``, or its own
    rules never leave a match drawn; knock-out tables refuse the others."""
    own_tie_breaks: ClassVar[bool] = False
    """True when the game's own rules already play RULES §0 rules 13-14 inside the match
    (tie-break hands, then the last capture): a knock-out table takes their result as it
    stands, and turns on the game's ``ko`` option if it has one."""

    # -- set-up ---------------------------------------------------------------------

    def options(self, given: Mapping[str, JSON] | None = None) -> dict[str, JSON]:
        """Defaults merged with ``given``, every value validated."""
        given = dict(given or {})
        specs = {spec.name: spec for spec in self.option_specs}
        unknown = set(given) - set(specs)
        if unknown:
            offered = ", ".join(sorted(specs)) or "none"
            raise InvalidOptions(
                f"{self.name} has no option {', '.join(sorted(unknown))}; options: {offered}",
                reason="OPTION_INVALID",
                metadata={"option": ",".join(sorted(unknown)), "allowed": offered},
            )
        return {
            name: spec.validate(given[name]) if name in given else spec.default
            for name, spec in specs.items()
        }

    def seat_counts(self) -> tuple[int, ...]:
        """The table sizes the game is played at: every count from ``min_players`` to
        ``max_players`` unless a game skips some (Tresette and Burraco are for 2 or 4)."""
        return tuple(range(self.min_players, self.max_players + 1))

    def new_game(self, options: Mapping[str, JSON] | None, seats: int, seed: bytes) -> S:
        """A fresh game, dealt from ``seed``; everything random comes from it."""
        if not self.min_players <= seats <= self.max_players:
            raise InvalidOptions(
                f"{self.title} is for {self.min_players} to {self.max_players} players,"
                f" not {seats}",
                reason="PLAYER_COUNT_INVALID",
                metadata={"game": self.name, "min": self.min_players, "max": self.max_players},
            )
        if seats not in self.seat_counts():
            counts = " or ".join(str(n) for n in self.seat_counts())
            raise InvalidOptions(
                f"{self.title} is for {counts} players, not {seats}",
                reason="PLAYER_COUNT_INVALID",
                metadata={"game": self.name, "allowed": counts},
            )
        return self._new_game(self.options(options), seats, SeededRandom(bytes(seed)))

    # -- play -----------------------------------------------------------------------

    def legal_actions(self, state: S, seat: int) -> list[Action]:
        """Every action ``seat`` may take now, in a stable order (empty when none)."""
        if self.outcome(state) is not None:
            return []
        return self._legal_actions(state, seat)

    def apply(self, state: S, seat: int, action: Action) -> tuple[S, list[Event]]:
        """Perform ``action`` for ``seat``; raise a :class:`RuleError` saying why if illegal."""
        if self.outcome(state) is not None:
            raise GameOver("the game is over")
        if not 0 <= seat < self.seats(state):
            raise NotYourTurn(
                f"there is no seat {seat} at this table",
                reason="SEAT_UNKNOWN",
                metadata={"seat": seat},
            )
        if action.kind is ActionKind.EXPIRE:
            if not any(t.key == action.timer and t.seat == seat for t in self.timers(state)):
                raise RuleError(
                    f"no timer {action.timer!r} is running for seat {seat}",
                    reason="TIMER_NOT_RUNNING",
                )
        elif not self._is_legal(state, seat, action):
            raise self._explain(state, seat, action)
        return self._apply(state, seat, action)

    def timeout_action(self, state: S, seat: int) -> Action:
        """What a seat's expired turn timer plays for it; games with turn timers say."""
        raise RuleError(
            f"{self.name} plays nothing for an expired timer of seat {seat}",
            reason="TIMER_NOT_RUNNING",
        )

    def _play_expiry(
        self, state: S, seat: int, expire: Action, default: Action | None = None
    ) -> tuple[S, list[Event]]:
        """A turn timer's ``EXPIRE``: the default move (``timeout_action`` unless given)
        played for the seat, recorded as ``timer_expired`` naming it, then its own events,
        so a replay shows both why the seat moved and what it played."""
        played = self.timeout_action(state, seat) if default is None else default
        after, events = self._apply(state, seat, played)
        expired: Event = {
            "type": "timer_expired",
            "seat": seat,
            "timer": expire.timer,
            "default": played.to_dict(),
        }
        return after, [expired, *events]

    def _is_legal(self, state: S, seat: int, action: Action) -> bool:
        return action in self._legal_actions(state, seat)

    def listed_form(self, state: S, seat: int, action: Action) -> Action:
        """How ``legal_actions`` lists ``action`` when ``apply`` also accepts it spelled
        another way for the same play (Burraco's pinella attached in its own place with
        ``low``, kept so that older logs replay): the one listed form. Every other action
        is its own listed form: ``legal_actions`` lists each enumerable play exactly once."""
        return action

    def _explain(self, state: S, seat: int, action: Action) -> RuleError:
        """The refusal for an illegal action; games override it with precise reasons."""
        if seat not in self.to_act(state):
            return NotYourTurn(
                f"it is not your turn (seat {seat})",
                reason="NOT_YOUR_TURN",
                metadata={"seat": seat},
            )
        return RuleError(f"{action} is not allowed now", reason="ACTION_NOT_ALLOWED")

    # -- what games implement ---------------------------------------------------------

    @abstractmethod
    def _new_game(self, options: dict[str, JSON], seats: int, rng: SeededRandom) -> S: ...

    @abstractmethod
    def _legal_actions(self, state: S, seat: int) -> list[Action]: ...

    @abstractmethod
    def _apply(self, state: S, seat: int, action: Action) -> tuple[S, list[Event]]: ...

    @abstractmethod
    def view(self, state: S, seat: int | None) -> View:
        """What ``seat`` sees (``None``: a spectator, who sees only public information)."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """Places and scores once the game is over, else ``None``."""

    @abstractmethod
    def to_act(self, state: S) -> frozenset[int]:
        """Seats whose move the game is waiting for (whose turn, who must answer)."""

    @abstractmethod
    def seats(self, state: S) -> int:
        """How many seats the game has."""

    def timers(self, state: S) -> tuple[Timer, ...]:
        """Deadlines that should run now; by default a turn timer for each seat to act."""
        return tuple(
            Timer(key=f"turn:{s}", seat=s, kind="turn") for s in sorted(self.to_act(state))
        )

    @abstractmethod
    def cards_in_play(self, state: S) -> list[str]:
        """Every card of the game wherever it is (hands, piles, table, stock): the
        conformance suite checks this multiset never changes."""

    @abstractmethod
    def hidden_cards(self, state: S, seat: int | None) -> list[str]:
        """The cards ``seat`` must not see (others' hands, the stock, face-down cards);
        the conformance suite checks that a view never reveals them."""

    # -- knock-out play (RULES §0 rule 14, PCG-7) -------------------------------------

    def tie_break_hand(self, state: S) -> tuple[S, list[Event]]:
        """From a match that ended drawn: a state dealing one tie-break hand, whose
        ``outcome`` ranks that hand alone (its points never enter the match totals), and
        the deal's events. Its randomness continues the match's generator."""
        raise InvalidOptions(
            f"{self.title} has no tie-break hand for knock-out play yet",
            reason="KNOCKOUT_UNSUPPORTED",
            metadata={"game": self.name},
        )

    def last_capture(self, state: S) -> int | None:
        """The seat that made the last capture of the hand being played (in trick games the
        last trick, in games with neither the last play), or ``None`` if nobody has."""
        return None

    def partners(self, state: S, seat: int) -> frozenset[int]:
        """The seats of ``seat``'s side (itself alone, except in partnership games)."""
        return frozenset((seat,))

    def public_record(self, state: S) -> list[str]:
        """Cards of a deal already over that the rules showed the whole table and the
        views still name (Poker's showdown hands). Their codes may be dealt again face
        down, so the conformance suite lets the public view name each of them once more
        than it could otherwise."""
        return []

    def shown_cards(self, state: S, seat: int) -> list[str]:
        """Cards of other seats that the rules show to ``seat`` alone right now (Uno's
        challenged hand); the conformance suite lets only that seat's view name them."""
        return []
