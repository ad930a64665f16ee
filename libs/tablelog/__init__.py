"""A game table as its event log: the setup, the fold of events into a table, replay and
audit, what each seat may see, and the wire form of all of it.

Pure and shared: the engine service decides and stores with it, and anyone holding a
table's log (``tavolo audit``, the terminal client) reads it with the same code, so the
client never needs the service's modules.
"""
