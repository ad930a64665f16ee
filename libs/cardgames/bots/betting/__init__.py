"""Bots of Poker and Sette e mezzo: odds and bets."""
