"""The base of the games' states: a slotted class of immutable fields, copied per action.

A state handed out never changes: ``apply`` takes a :meth:`SlottedState.copy` (shallow:
every field is immutable, except the generator, which a game copies before it draws) and
changes only that. A plain slotted class rather than a frozen dataclass because copying
is on every action's path: ``dataclasses.replace`` rebuilds a state through keyword
arguments and a generated ``__init__``, which cost more than the rest of a trick game's
action, and compiled by mypyc (``tools/compile_rules.py``) a frozen dataclass cannot
even be deep-copied (the copy sets its fields one by one and is refused).

A state lists its fields once, as :attr:`SlottedState.FIELDS` in constructor order, and
writes its ``__init__``; equality, ``repr``, pickling and copying come from here.
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar

S = TypeVar("S", bound="SlottedState")


class SlottedState:
    """Fields named by :attr:`FIELDS`; treat an instance handed out as immutable."""

    __slots__ = ()

    FIELDS: ClassVar[tuple[str, ...]] = ()
    """Every field, in the order the constructor takes them."""

    def values(self) -> tuple[object, ...]:
        """Every field's value, in constructor order."""
        return tuple([getattr(self, name) for name in self.FIELDS])

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, SlottedState)
        return self.values() == other.values()

    def __repr__(self) -> str:
        pairs = zip(self.FIELDS, self.values(), strict=True)
        return f"{type(self).__name__}(" + ", ".join(f"{n}={v!r}" for n, v in pairs) + ")"

    def __reduce__(self) -> tuple[type[Any], tuple[object, ...]]:
        """Pickled and copied through the constructor, which compiled classes need."""
        return type(self), self.values()

    def copy(self: S) -> S:
        """A new state with the same fields: what ``apply`` changes."""
        made: S = type(self)(*self.values())
        return made

    def replace(self: S, **changes: object) -> S:
        """A copy with the ``changes`` made (unknown names are refused)."""
        made = self.copy()
        for name, value in changes.items():
            if name not in self.FIELDS:
                raise AttributeError(f"{type(self).__name__} has no field {name!r}")
            setattr(made, name, value)
        return made

    def become(self, other: SlottedState) -> None:
        """Take every field of ``other``: how an apply's own copy turns into a new deal."""
        for name in self.FIELDS:
            setattr(self, name, getattr(other, name))
