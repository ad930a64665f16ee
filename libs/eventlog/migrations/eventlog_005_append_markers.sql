-- An append of several events leaves one marker for the sequencer instead of one per
-- event: last_version says how far it reaches (NULL: the marker stands for version
-- alone, as every marker written before this did and a lone event's still does).
-- sequence_events hands out a marker's versions one after the other, in order, so
-- positions come out exactly as they did from one marker per event; an append is never
-- split between two calls.
ALTER TABLE events_unsequenced ADD COLUMN last_version integer;

-- Hands out positions to up to max_events waiting events, marker by marker in the order
-- they were inserted (the first marker is taken whatever its size; one that would go
-- past max_events waits for the next call), and returns the head position.
CREATE OR REPLACE FUNCTION sequence_events(max_events integer) RETURNS bigint
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
    WITH waiting AS (
        SELECT id, events, sum(events) OVER (ORDER BY id) AS upto
        FROM (SELECT id, coalesce(last_version, version) - version + 1 AS events
              FROM events_unsequenced ORDER BY id LIMIT max_events) AS w
    ), taken_rows AS (
        -- upto grows with id: the markers taken are the first ones, never one skipped.
        DELETE FROM events_unsequenced
        WHERE id IN (SELECT id FROM waiting WHERE upto <= max_events OR upto = events)
        RETURNING id, stream_id, version, last_version
    )
    INSERT INTO event_positions (position, stream_id, version)
    SELECT head + row_number() OVER (ORDER BY t.id, v.version), t.stream_id, v.version
    FROM taken_rows AS t
    CROSS JOIN LATERAL generate_series(t.version, coalesce(t.last_version, t.version))
        AS v(version);
    GET DIAGNOSTICS taken = ROW_COUNT;
    UPDATE event_log_head SET position = head + taken;
    RETURN head + taken;
END
$$;
