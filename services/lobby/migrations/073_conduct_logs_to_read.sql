-- Finished tables whose game log the lobby still has to read for soft play (PCG-3). The
-- consumer of TableFinished queues the table in its own transaction; a background reader
-- asks the engine for the log outside any transaction, records the turn facts and drops
-- the row, so an engine that is down delays the signals and loses nothing.
CREATE TABLE conduct_logs_to_read (
    table_id  text        PRIMARY KEY,
    game      text        NOT NULL,
    -- Seat by seat, the human player's id, or null for a bot.
    players   jsonb       NOT NULL,
    queued_at timestamptz NOT NULL
);
