"""One structured action type for every game: a kind with named fields, never a bare integer.

Clients send actions, bots choose them from ``legal_actions``, the event log records them.
``to_dict``/``from_dict`` give a stable JSON form (fields at their defaults are left out).

How each game of RULES.md uses it:

- **Pika / Uno**: ``PLAY(cards=(card,), colour=...)`` (colour only for black cards);
  ``DRAW``; after drawing a playable card, ``PLAY`` it or ``KEEP``; ``TAKE`` a pending
  stack; ``CALL`` ("Pika"/"UNO"); Uno's ``CHALLENGE`` / ``ACCEPT`` of a wild +4;
  ``REORDER(cards=whole hand in the new order)`` at any time.
- **Spades, Hearts**: ``BID(amount=n)`` (0 = nil; ``BLIND_NIL``), ``PLAY(cards=(card,))``;
  Hearts' pass is ``PASS_CARDS(cards=three cards)``.
- **Briscola, Tresette, Bestia**: ``PLAY(cards=(card,))``; Tresette's declarations
  ``CALL(call=...)``; Bestia's ``PASS`` / ``PLAY``.
- **Scopa, Scopone, Asso Pigliatutto, Cirulla**: ``PLAY(cards=(card,), capture=(table
  cards taken...))``, an empty ``capture`` lays the card; Cirulla's accusi is ``CALL``.
- **Burraco, Scala 40**: ``DRAW`` from stock, ``TAKE_DISCARD``; ``MELD(cards=...)`` opens a
  new meld; ``ATTACH(cards=..., meld=index)`` adds to meld ``index``; ``DISCARD(cards=(c,))``
  ends the turn.
- **Poker all'italiana**: ``BET/RAISE(amount=...)``, ``CALL_BET``, ``CHECK``, ``FOLD``;
  ``DISCARD(cards=...)`` for the change. **Sette e mezzo**: ``HIT`` / ``STAND``, ``BET``.
- **Solitario (Klondike)**: ``MOVE(source=pile, target=pile, count=n)``, ``DRAW`` (turn the
  stock), ``STOP``.
- **Every game**: ``EXPIRE(timer=key)`` is a timer running out. Only the engine issues it,
  for the seat the timer belongs to; it is recorded like any action, so replay needs no clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from tavolo.cardgames.errors import MalformedAction


class ActionKind(StrEnum):
    """What a seat does; the fields of :class:`Action` say with what."""

    PLAY = "play"
    DRAW = "draw"
    KEEP = "keep"
    TAKE = "take"
    CALL = "call"
    CHALLENGE = "challenge"
    ACCEPT = "accept"
    REORDER = "reorder"
    BID = "bid"
    BLIND_NIL = "blind_nil"
    PASS = "pass"
    PASS_CARDS = "pass_cards"
    TAKE_DISCARD = "take_discard"
    MELD = "meld"
    ATTACH = "attach"
    DISCARD = "discard"
    BET = "bet"
    RAISE = "raise"
    CALL_BET = "call_bet"
    CHECK = "check"
    FOLD = "fold"
    HIT = "hit"
    STAND = "stand"
    MOVE = "move"
    STOP = "stop"
    EXPIRE = "expire"


@dataclass(frozen=True, slots=True)
class Action:
    """A move with named fields. Cards are the game's card codes (strings)."""

    kind: ActionKind
    cards: tuple[str, ...] = ()
    capture: tuple[str, ...] = ()
    colour: str | None = None
    amount: int | None = None
    meld: int | None = None
    source: str | None = None
    target: str | None = None
    count: int | None = None
    call: str | None = None
    timer: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The stable JSON form: the kind plus every field not at its default."""
        out: dict[str, Any] = {"kind": self.kind.value}
        if self.cards:
            out["cards"] = list(self.cards)
        if self.capture:
            out["capture"] = list(self.capture)
        for name in ("colour", "amount", "meld", "source", "target", "count", "call", "timer"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        """Parse the JSON form, refusing unknown kinds, unknown fields and wrong types."""
        if not isinstance(data, dict):
            raise MalformedAction("an action must be an object with a 'kind'")
        try:
            kind = ActionKind(str(data.get("kind")))
        except ValueError:
            known = ", ".join(k.value for k in ActionKind)
            raise MalformedAction(
                f"unknown action kind {data.get('kind')!r}; known kinds: {known}"
            ) from None
        unknown = set(data) - _FIELDS
        if unknown:
            raise MalformedAction(f"unknown action fields: {', '.join(sorted(unknown))}")
        kwargs: dict[str, Any] = {}
        for name in ("cards", "capture"):
            if name in data:
                value = data[name]
                if not isinstance(value, list | tuple) or not all(
                    isinstance(c, str) for c in value
                ):
                    raise MalformedAction(f"'{name}' must be a list of card codes")
                kwargs[name] = tuple(value)
        for name in ("colour", "source", "target", "call", "timer"):
            if name in data and data[name] is not None:
                if not isinstance(data[name], str):
                    raise MalformedAction(f"'{name}' must be a string")
                kwargs[name] = data[name]
        for name in ("amount", "meld", "count"):
            if name in data and data[name] is not None:
                value = data[name]
                if isinstance(value, bool) or not isinstance(value, int):
                    raise MalformedAction(f"'{name}' must be a whole number")
                kwargs[name] = value
        return cls(kind=kind, **kwargs)

    def __str__(self) -> str:
        parts = [self.kind.value, *self.cards]
        if self.capture:
            parts.append("takes " + " ".join(self.capture))
        for name in ("colour", "amount", "meld", "source", "target", "count", "call", "timer"):
            value = getattr(self, name)
            if value is not None:
                parts.append(f"{name}={value}")
        return " ".join(parts)


_FIELDS: Final = {
    "kind",
    "cards",
    "capture",
    "colour",
    "amount",
    "meld",
    "source",
    "target",
    "count",
    "call",
    "timer",
}
