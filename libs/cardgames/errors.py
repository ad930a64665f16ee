"""Errors a rules engine raises: each says what is wrong in words a player understands.

Each also carries a ``reason``, a stable UPPER_SNAKE_CASE name a client app can act on
(``CARD_NOT_HELD``, ``MUST_FOLLOW_SUIT``; ``RULE_VIOLATION`` when no finer name was given),
and ``metadata``, the values that explain it (the card, the suit led). The engine adds the
table, its version and the seat, and sends them as a ``google.rpc.ErrorInfo``; the names
are listed in ``tavolo.servicekit.reasons``.
"""

from __future__ import annotations

from collections.abc import Mapping

Metadata = Mapping[str, object] | None


def _strings(metadata: Metadata) -> dict[str, str]:
    """Metadata as ErrorInfo carries it: strings; a collection joined by commas."""
    return {
        key: ",".join(map(str, value)) if isinstance(value, list | tuple) else str(value)
        for key, value in (metadata or {}).items()
    }


class RuleError(Exception):
    """An action that the rules do not allow now; the message says why and what is allowed."""

    def __init__(
        self, message: str = "", *, reason: str = "RULE_VIOLATION", metadata: Metadata = None
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.metadata = _strings(metadata)


class NotYourTurn(RuleError):
    """The seat may not act now."""

    def __init__(
        self, message: str = "", *, reason: str = "NOT_YOUR_TURN", metadata: Metadata = None
    ) -> None:
        super().__init__(message, reason=reason, metadata=metadata)


class GameOver(RuleError):
    """The game has ended; no action is accepted."""

    def __init__(
        self, message: str = "", *, reason: str = "GAME_OVER", metadata: Metadata = None
    ) -> None:
        super().__init__(message, reason=reason, metadata=metadata)


class MalformedAction(ValueError):
    """An action whose shape is wrong (unknown kind, missing field), before any rule is asked."""

    def __init__(
        self, message: str = "", *, reason: str = "ACTION_MALFORMED", metadata: Metadata = None
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.metadata = _strings(metadata)


class InvalidOptions(ValueError):
    """Table options that the game does not offer, or values out of range."""

    def __init__(
        self, message: str = "", *, reason: str = "OPTION_INVALID", metadata: Metadata = None
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.metadata = _strings(metadata)
