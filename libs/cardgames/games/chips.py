"""Chips shared by the games played for them (Bestia, Sette e mezzo, Poker): a seat never
pays more than it holds, and what it cannot pay is simply not paid."""

from __future__ import annotations


def pay(chips: int, owed: int) -> int:
    """What a seat holding ``chips`` pays of ``owed``: all of it, or all it has."""
    return min(chips, owed)
