-- The engine's own tables beside the event log (tavolo.eventlog installs `events`).
-- The event log is the truth about every table; these rows are what the engine needs to
-- run tables: the private seed, the stream head for a cheap staleness check, the timers
-- that must fire, and the answers to retried commands.

-- One row per table. `seed` stays here until the table closes and its last event reveals
-- it (AUDIT-2). The row is also the per-table write lock: every command locks it first, so
-- the deadlines below and the stream always move together.
CREATE TABLE tables (
    table_id        text        PRIMARY KEY,
    game            text        NOT NULL,
    mode            text        NOT NULL,
    seed            bytea       NOT NULL CHECK (length(seed) = 32),
    seed_commitment text        NOT NULL,
    version         integer     NOT NULL,
    status          text        NOT NULL DEFAULT 'playing'
                    CHECK (status IN ('playing', 'finished', 'aborted')),
    opened_at       timestamptz NOT NULL DEFAULT now(),
    closed_at       timestamptz
);

CREATE INDEX tables_playing ON tables (opened_at) WHERE status = 'playing';

-- Timers that must fire: rule timers (turn, Pika call window) and bot moves. A row is
-- written in the same transaction as the event that started it and deleted in the same
-- transaction as the event that fired or cancelled it, so each fires exactly once.
CREATE TABLE deadlines (
    table_id  text        NOT NULL REFERENCES tables (table_id),
    timer_key text        NOT NULL,
    seat      integer     NOT NULL,
    kind      text        NOT NULL,
    due_at    timestamptz NOT NULL,
    PRIMARY KEY (table_id, timer_key)
);

CREATE INDEX deadlines_due ON deadlines (due_at);

-- Commands already applied, by the caller's request id: a retry gets the first answer.
CREATE TABLE requests (
    table_id   text    NOT NULL REFERENCES tables (table_id),
    player_id  text    NOT NULL,
    request_id text    NOT NULL,
    version    integer NOT NULL,
    PRIMARY KEY (table_id, player_id, request_id)
);
