"""Solitario (Klondike): one seat, the piles and the scoring."""
