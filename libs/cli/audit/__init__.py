"""``tavolo audit``: verify, export, dispute, the ledger audit and the replay page."""
