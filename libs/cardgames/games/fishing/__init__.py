"""The fishing family: Scopa, Scopone, Asso and Cirulla on one core (captures, count, accusi)."""
