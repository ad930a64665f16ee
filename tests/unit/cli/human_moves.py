"""What the human seat of an offline game played, recorded as it is applied."""

from __future__ import annotations

from typing import Any

import pytest

from tavolo.cardgames.actions import Action
from tavolo.cli.play import command


def record_human_moves(monkeypatch: pytest.MonkeyPatch) -> list[Action]:
    """The list every action of the human seat is appended to, in the order played."""
    played: list[Action] = []
    apply = command._Table._apply

    def record(table: Any, seat: int, action: Action) -> None:
        if seat == command.HUMAN:
            played.append(action)
        apply(table, seat, action)

    monkeypatch.setattr(command._Table, "_apply", record)
    return played
