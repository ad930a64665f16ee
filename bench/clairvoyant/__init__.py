"""A clairvoyant matcher for ``bench_ratings.py`` (RATE-2): it knows every arrival of a
pool in advance, so what it reaches is out of reach of any rule that does not, and what
it cannot reach is out of reach of every rule.

``instance`` holds the arrivals and the wait rule shared by both halves: ``grouping``
finds a good grouping (a figure the clairvoyant reaches: an upper bound on its best) and
``bound`` a figure no grouping beats (a lower bound on its best)."""
