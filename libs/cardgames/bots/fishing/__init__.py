"""Bots of the fishing games: one capture-choosing core, one module per game."""
