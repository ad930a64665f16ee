-- Positions leave the append path: an append records its events and a marker in
-- events_unsequenced, touching no row another append needs; sequence_events() later hands
-- out gap-free positions in batches under the event_log_head lock, into event_positions.
-- See tavolo.eventlog.postgres for why. Positions already stored are copied over unchanged,
-- so an existing log keeps its order, its gaps (if any were made) and its checkpoints.

ALTER TABLE events ALTER COLUMN position DROP NOT NULL;
-- The old positions are unique in event_positions now; an index of NULLs here would only
-- cost every append one more index write.
ALTER TABLE events DROP CONSTRAINT events_position_key;

CREATE TABLE event_positions (
    position  bigint  PRIMARY KEY,
    stream_id text    NOT NULL,
    version   integer NOT NULL,
    CONSTRAINT event_positions_event_key UNIQUE (stream_id, version)
);
INSERT INTO event_positions (position, stream_id, version)
    SELECT position, stream_id, version FROM events ORDER BY position;

CREATE TRIGGER event_positions_append_only
    BEFORE UPDATE OR DELETE ON event_positions
    FOR EACH ROW EXECUTE FUNCTION events_refuse_change();
CREATE TRIGGER event_positions_no_truncate
    BEFORE TRUNCATE ON event_positions
    FOR EACH STATEMENT EXECUTE FUNCTION events_refuse_change();

-- The queue of committed events still waiting for a position, in the order they were
-- recorded (an identity drawn at insert: a stream's next version is always inserted after
-- its previous one committed, so it always draws a larger id).
CREATE TABLE events_unsequenced (
    id        bigint  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    stream_id text    NOT NULL,
    version   integer NOT NULL
);

-- Hands out positions to up to max_events waiting events and returns the head position.
-- Callers serialise on the head row, which is held to commit: positions become visible in
-- position order, exactly as appends did when each took the row itself.
CREATE FUNCTION sequence_events(max_events integer) RETURNS bigint
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    head bigint;
    taken bigint;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM events_unsequenced) THEN
        RETURN (SELECT position FROM event_log_head);
    END IF;
    SELECT position INTO head FROM event_log_head FOR UPDATE;
    -- A new statement, a new snapshot: whatever the sequencer before us took is gone.
    WITH taken_rows AS (
        DELETE FROM events_unsequenced
        WHERE id IN (SELECT id FROM events_unsequenced ORDER BY id LIMIT max_events)
        RETURNING id, stream_id, version
    )
    INSERT INTO event_positions (position, stream_id, version)
    SELECT head + row_number() OVER (ORDER BY id), stream_id, version FROM taken_rows;
    GET DIAGNOSTICS taken = ROW_COUNT;
    UPDATE event_log_head SET position = head + taken;
    RETURN head + taken;
END
$$;
