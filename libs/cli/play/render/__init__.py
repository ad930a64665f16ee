"""How each game looks in the terminal: one module per game, by the game's name."""
