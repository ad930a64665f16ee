"""Seeded games recorded into one digest: the scaffold the replay-digest tests share.

Each item (a view, a legal list, events, a refusal) is hashed in its canonical JSON form,
so a digest recorded before a change to the rules pins every byte they produce after it.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from tavolo.cardgames.actions import Action
from tavolo.cardgames.contract import JSON
from tavolo.cardgames.errors import RuleError


class Digest:
    """A running sha256 of JSON items, each in sorted-key compact form."""

    def __init__(self) -> None:
        self._hasher = hashlib.sha256()

    def add(self, item: JSON) -> None:
        self._hasher.update(json.dumps(item, sort_keys=True, separators=(",", ":")).encode())

    def hexdigest(self) -> str:
        return self._hasher.hexdigest()


def refused(game: Any, state: Any, seat: int, action: Action) -> JSON:
    """How the rules answer ``action``: the refusal's class, message and reason, or
    ``"accepted"``."""
    try:
        game.apply(state, seat, action)
    except RuleError as error:
        return [type(error).__name__, str(error), error.reason]
    return "accepted"
