"""The betting family: Poker all'italiana and Sette e mezzo, games of chips and hands."""
