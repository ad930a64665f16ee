-- Knock-out tournaments (PCG-7). A tournament is its event stream (`tournament-<id>` in
-- the lobby's event log); these rows only index it: for listing, for the loop that starts
-- and plays tournaments (any replica, one at a time per tournament), the draw's seed kept
-- secret until the draw reveals it, which tournament an engine table plays for, and when
-- each player last followed a tournament (a player who follows it shows for a match).
CREATE TABLE tournaments (
    tournament_id text        PRIMARY KEY,
    seed          bytea       NOT NULL,
    starts_at     timestamptz NOT NULL,
    status        text        NOT NULL,
    created_at    timestamptz NOT NULL
);
CREATE INDEX tournaments_live ON tournaments (starts_at)
    WHERE status IN ('registering', 'playing');

CREATE TABLE tournament_tables (
    table_id      text PRIMARY KEY,
    tournament_id text NOT NULL REFERENCES tournaments (tournament_id)
);

CREATE TABLE tournament_presence (
    tournament_id text        NOT NULL REFERENCES tournaments (tournament_id),
    player_id     text        NOT NULL,
    seen_at       timestamptz NOT NULL,
    PRIMARY KEY (tournament_id, player_id)
);
