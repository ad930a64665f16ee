-- Duplicate Solitario: competitions on one committed deal, and each entrant's table.
CREATE TABLE duplicates (
    duplicate_id text        PRIMARY KEY,
    game         text        NOT NULL,
    options      jsonb       NOT NULL,
    opens_at     timestamptz NOT NULL,
    closes_at    timestamptz NOT NULL,
    -- The deal's seed stays in the lobby until closes_at; the commitment is public.
    seed         bytea       NOT NULL,
    commitment   text        NOT NULL,
    created_by   text        NOT NULL,
    created_at   timestamptz NOT NULL
);

CREATE TABLE duplicate_entries (
    duplicate_id text        NOT NULL REFERENCES duplicates,
    player_id    text        NOT NULL,
    nickname     text        NOT NULL,
    table_id     text        NOT NULL UNIQUE,
    joined_at    timestamptz NOT NULL,
    -- Filled when the entrant's table ends.
    result       text,
    score        bigint,
    moves        integer,
    millis       bigint,
    PRIMARY KEY (duplicate_id, player_id)
);
