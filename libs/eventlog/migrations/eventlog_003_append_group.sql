-- A group commit's appends in one statement and one round trip: each append is written
-- whole when its version and link hold (ON CONFLICT leaves a stale one out), and if a
-- race leaves any append partly written the whole statement fails, so nothing of the
-- group commits and the store re-runs the appends one by one. Returns the streams written.
CREATE FUNCTION append_group(
    stream_ids text[], versions integer[], event_ids uuid[], types text[], datas text[],
    metadatas text[], recorded_ats timestamptz[], prev_hashes bytea[], hashes bytea[],
    firsts boolean[]
) RETURNS SETOF text
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    written text[];
    broken text;
BEGIN
    WITH batch AS (
        SELECT * FROM unnest(stream_ids, versions, event_ids, types, datas, metadatas,
                             recorded_ats, prev_hashes, hashes, firsts)
             WITH ORDINALITY AS b(stream_id, version, event_id, type, data, metadata,
                                  recorded_at, prev_hash, hash, first, ord)
    ), linked AS (
        SELECT b.stream_id FROM batch AS b
        WHERE b.first AND (b.version = 1 OR EXISTS (
            SELECT 1 FROM events AS x
            WHERE x.stream_id = b.stream_id AND x.version = b.version - 1
              AND x.hash = b.prev_hash))
    ), recorded AS (
        INSERT INTO events (stream_id, version, event_id, type, data, metadata, recorded_at,
                            prev_hash, hash)
        SELECT b.stream_id, b.version, b.event_id, b.type, b.data::json, b.metadata::json,
               b.recorded_at, b.prev_hash, b.hash
        FROM batch AS b WHERE b.stream_id IN (SELECT stream_id FROM linked)
        ORDER BY b.ord
        ON CONFLICT ON CONSTRAINT events_stream_version_key DO NOTHING
        RETURNING stream_id, version
    ), queued AS (
        INSERT INTO events_unsequenced (stream_id, version)
        SELECT stream_id, version FROM recorded ORDER BY stream_id, version
    )
    SELECT coalesce(array_agg(stream_id), '{}') INTO written FROM recorded;

    SELECT wanted.stream_id INTO broken
    FROM (SELECT s AS stream_id, count(*) AS n FROM unnest(stream_ids) AS s GROUP BY s) AS wanted
    JOIN (SELECT w AS stream_id, count(*) AS n FROM unnest(written) AS w GROUP BY w) AS got
      ON got.stream_id = wanted.stream_id
    WHERE got.n <> wanted.n
    LIMIT 1;
    IF broken IS NOT NULL THEN
        RAISE EXCEPTION 'the append to % was only partly written', broken
            USING ERRCODE = 'serialization_failure';
    END IF;
    RETURN QUERY SELECT DISTINCT w FROM unnest(written) AS w;
END
$$;
