"""Bots of the trick games: card memory, sampled worlds and the endgame search they share."""
