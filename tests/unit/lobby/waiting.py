"""Waiting tickets for the rated matchmaking tests (RATE-2), at one moment."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tavolo.lobby.play.policy import WaitingTicket

NOW = datetime(2026, 5, 1, 20, 0, tzinfo=UTC)


def rated(*tickets: tuple[float, float], sigma: float = 2.0) -> list[WaitingTicket]:
    """Tickets (age in seconds at NOW, mu), oldest first as given, each of ``sigma``."""
    return [
        WaitingTicket(f"t{i}", f"p{i}", f"n{i}", NOW - timedelta(seconds=age), None, mu, sigma)
        for i, (age, mu) in enumerate(tickets)
    ]
