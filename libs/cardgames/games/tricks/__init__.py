"""The trick family: a trick core under Briscola, Tresette, Ciapanò, Bestia, Hearts, Spades."""
