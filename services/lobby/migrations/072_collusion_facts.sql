-- The facts the collusion signals fold (PCG-3), in the order the lobby learnt them: a
-- finished table's humans, places and stake (from TableFinished), a game's turn changes,
-- and the network address and client installation of each login. Signals are rebuilt
-- from these rows alone; a fact recorded twice (a redelivery) is kept once.
CREATE TABLE collusion_facts (
    seq         bigserial   PRIMARY KEY,
    fact_id     text        NOT NULL UNIQUE,
    kind        text        NOT NULL CHECK (kind IN ('table', 'turn', 'session')),
    payload     jsonb       NOT NULL,
    recorded_at timestamptz NOT NULL
);
