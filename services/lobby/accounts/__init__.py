"""Accounts, nicknames, passwords, sessions and refresh tokens, and the rules of sanctions."""
