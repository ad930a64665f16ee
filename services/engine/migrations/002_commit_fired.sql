-- The due timers of many tables, decided by the engine from its cached tables, committed
-- in one statement (one round trip, one implicit transaction). No row lock is held while
-- the engine thinks or waits for the network: a player's command on one of these tables
-- waits for this statement alone, not for a transaction that lives across round trips.
--
-- Per table (the arrays starting with table_ids, one element per table): the version the
-- command was decided on, the timer it fires, and the new head (new_versions NULL: the
-- command decided nothing and the fired row is only dropped). Per wanted deadline
-- (d_*): restart is true for the fired timer, which starts again; any other wanted timer
-- keeps a stored due time and is inserted only if missing; stored timers not wanted are
-- stopped. Per event (e_*): as append_group takes them, with the table of each.
--
-- A table is written only if no other transaction holds its row (SKIP LOCKED), it is still
-- at the version decided on, its timer still exists and is due by the database's clock,
-- and its events link to its stream's head. Returns one row per table: 'written', 'busy'
-- (another transaction holds it), 'moved' (its version or its timer changed) or 'stale'
-- (the events do not link: the caller's remembered head was not the stream's).
CREATE FUNCTION commit_fired(
    table_ids text[], expected integer[], fired_keys text[], new_versions integer[],
    statuses text[],
    d_tables text[], d_keys text[], d_seats integer[], d_kinds text[], d_dues timestamptz[],
    d_restart boolean[],
    e_tables text[], e_streams text[], e_versions integer[], e_ids uuid[], e_types text[],
    e_datas text[], e_metadatas text[], e_recorded_ats timestamptz[], e_prev_hashes bytea[],
    e_hashes bytea[], e_firsts boolean[]
) RETURNS TABLE (table_id text, outcome text)
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
#variable_conflict use_column
DECLARE
    free text[];
    ready text[];
    written_streams text[] := '{}';
    done text[];
    r_streams text[];
    r_versions integer[];
    r_ids uuid[];
    r_types text[];
    r_datas text[];
    r_metadatas text[];
    r_recorded_ats timestamptz[];
    r_prev_hashes bytea[];
    r_hashes bytea[];
    r_firsts boolean[];
BEGIN
    WITH locked AS (
        SELECT t.table_id FROM tables AS t WHERE t.table_id = ANY (table_ids)
        ORDER BY t.table_id FOR UPDATE OF t SKIP LOCKED
    )
    SELECT coalesce(array_agg(l.table_id), '{}') INTO free FROM locked AS l;

    SELECT coalesce(array_agg(c.id), '{}') INTO ready
    FROM unnest(table_ids, expected, fired_keys) AS c(id, v, k)
    JOIN tables AS t ON t.table_id = c.id AND t.version = c.v
    WHERE c.id = ANY (free) AND EXISTS (
        SELECT 1 FROM deadlines AS d
        WHERE d.table_id = c.id AND d.timer_key = c.k AND d.due_at <= now());

    -- the events of the ready tables only, in their order
    SELECT array_agg(x.s ORDER BY x.o), array_agg(x.v ORDER BY x.o),
           array_agg(x.i ORDER BY x.o), array_agg(x.y ORDER BY x.o),
           array_agg(x.da ORDER BY x.o), array_agg(x.m ORDER BY x.o),
           array_agg(x.ra ORDER BY x.o), array_agg(x.p ORDER BY x.o),
           array_agg(x.h ORDER BY x.o), array_agg(x.f ORDER BY x.o)
    INTO r_streams, r_versions, r_ids, r_types, r_datas, r_metadatas, r_recorded_ats,
         r_prev_hashes, r_hashes, r_firsts
    FROM unnest(e_tables, e_streams, e_versions, e_ids, e_types, e_datas, e_metadatas,
                e_recorded_ats, e_prev_hashes, e_hashes, e_firsts)
         WITH ORDINALITY AS x(t, s, v, i, y, da, m, ra, p, h, f, o)
    WHERE x.t = ANY (ready);

    IF r_streams IS NOT NULL THEN
        SELECT coalesce(array_agg(w), '{}') INTO written_streams
        FROM append_group(r_streams, r_versions, r_ids, r_types, r_datas, r_metadatas,
                          r_recorded_ats, r_prev_hashes, r_hashes, r_firsts) AS w;
    END IF;

    -- written: a ready table that decided nothing, or whose events were all written
    SELECT coalesce(array_agg(c.id), '{}') INTO done
    FROM unnest(table_ids, new_versions) AS c(id, nv)
    WHERE c.id = ANY (ready) AND (c.nv IS NULL OR NOT EXISTS (
        SELECT 1 FROM unnest(e_tables, e_streams) AS e(t, s)
        WHERE e.t = c.id AND NOT e.s = ANY (written_streams)));

    DELETE FROM deadlines AS d
    USING unnest(table_ids, fired_keys, new_versions) AS c(id, k, nv)
    WHERE c.nv IS NULL AND c.id = ANY (done) AND d.table_id = c.id AND d.timer_key = c.k;

    DELETE FROM deadlines AS d
    USING unnest(table_ids, new_versions) AS c(id, nv)
    WHERE c.nv IS NOT NULL AND c.id = ANY (done) AND d.table_id = c.id
      AND NOT EXISTS (SELECT 1 FROM unnest(d_tables, d_keys) AS w(t, k)
                      WHERE w.t = d.table_id AND w.k = d.timer_key);

    INSERT INTO deadlines (table_id, timer_key, seat, kind, due_at)
    SELECT w.t, w.k, w.s, w.kd, w.du
    FROM unnest(d_tables, d_keys, d_seats, d_kinds, d_dues, d_restart) AS w(t, k, s, kd, du, r)
    WHERE w.r AND w.t = ANY (done)
    ON CONFLICT (table_id, timer_key) DO UPDATE
        SET seat = excluded.seat, kind = excluded.kind, due_at = excluded.due_at;

    INSERT INTO deadlines (table_id, timer_key, seat, kind, due_at)
    SELECT w.t, w.k, w.s, w.kd, w.du
    FROM unnest(d_tables, d_keys, d_seats, d_kinds, d_dues, d_restart) AS w(t, k, s, kd, du, r)
    WHERE NOT w.r AND w.t = ANY (done)
    ON CONFLICT (table_id, timer_key) DO NOTHING;

    UPDATE tables AS t SET version = c.nv, status = c.st,
        closed_at = CASE WHEN c.st = 'playing' THEN NULL ELSE now() END
    FROM unnest(table_ids, new_versions, statuses) AS c(id, nv, st)
    WHERE c.nv IS NOT NULL AND c.id = ANY (done) AND t.table_id = c.id;

    RETURN QUERY
    SELECT c.id, CASE
        WHEN c.id = ANY (done) THEN 'written'
        WHEN NOT c.id = ANY (free) THEN 'busy'
        WHEN NOT c.id = ANY (ready) THEN 'moved'
        ELSE 'stale' END
    FROM unnest(table_ids) AS c(id);
END
$$;
