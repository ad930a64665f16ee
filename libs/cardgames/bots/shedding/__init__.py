"""Bots of Pika and Uno."""
