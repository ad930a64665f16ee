"""Asso Pigliatutto's bots: the fishing player at three levels (see ``bots.fishing``)."""

from tavolo.cardgames.bots.fishing.core import BOTS

__all__ = ["BOTS"]
