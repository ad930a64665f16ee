-- One append to one stream inside a caller's transaction, in one round trip. The
-- EXCEPTION block is the savepoint (a subtransaction) a client would otherwise open and
-- release around the insert in two more round trips: a taken version or event id rolls
-- back only this append, and the caller's transaction stays usable.
--
-- Writes the events if version ``expected`` of ``stream`` exists with hash ``prev`` (or
-- ``expected`` is 0), with their markers for the sequencer in version order. Returns
-- 'written'; 'stale' when the link does not hold (nothing written); or, when a unique
-- key refuses a row, the name of that constraint (nothing written).
CREATE FUNCTION append_one(
    stream text, expected integer, prev bytea,
    versions integer[], event_ids uuid[], types text[], datas text[], metadatas text[],
    recorded_ats timestamptz[], prev_hashes bytea[], hashes bytea[]
) RETURNS text
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    written integer;
    refused text;
BEGIN
    WITH recorded AS (
        INSERT INTO events (stream_id, version, event_id, type, data, metadata, recorded_at,
                            prev_hash, hash)
        SELECT stream, b.version, b.event_id, b.type, b.data::json, b.metadata::json,
               b.recorded_at, b.prev_hash, b.hash
        FROM unnest(versions, event_ids, types, datas, metadatas, recorded_ats, prev_hashes,
                    hashes) AS b(version, event_id, type, data, metadata, recorded_at,
                                 prev_hash, hash)
        WHERE expected = 0 OR EXISTS (
            SELECT 1 FROM events AS x
            WHERE x.stream_id = stream AND x.version = expected AND x.hash = prev)
        RETURNING version
    ), queued AS (
        INSERT INTO events_unsequenced (stream_id, version)
        SELECT stream, version FROM recorded ORDER BY version
    )
    SELECT count(*) INTO written FROM recorded;
    RETURN CASE WHEN written = 0 THEN 'stale' ELSE 'written' END;
EXCEPTION WHEN unique_violation THEN
    GET STACKED DIAGNOSTICS refused = CONSTRAINT_NAME;
    RETURN refused;
END
$$;
