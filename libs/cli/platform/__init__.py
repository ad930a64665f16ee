"""``tavolo up``: the whole platform on one machine, its supervisor, replicas and token secret."""
