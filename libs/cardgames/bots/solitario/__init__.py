"""The Solitario bot and its search."""
