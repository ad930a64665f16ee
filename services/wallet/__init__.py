"""Tavolo."""
