"""The wallet: coins as a double-entry ledger, stakes held in escrow, pots, refunds, rewards.

Layout: ``accounts``, ``transfers``, ``payouts`` and ``facts`` are pure; ``ledger`` runs
the ledger's operations inside a transaction; ``app`` (API use cases) and ``settlement``
(event use cases) decide; ``store`` and ``settlement_store`` are the SQL; ``consumers``
and ``grpc_api`` translate; ``bootstrap`` wires it all at start-up.
"""
