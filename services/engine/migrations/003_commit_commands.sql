-- Every command on a table committed in one statement (one round trip, one implicit
-- transaction): a player's action, a player leaving, a bot's move, a timer expiring. The
-- engine decides each command on its cached table; commit_command checks inside the
-- database that the decision still holds and writes it, so no row lock lives across a
-- round trip, and a command costs one round trip where a transaction took seven. It
-- replaces commit_fired (fired timers only), whose set-based batch took 1.0 ms of the
-- server for one table where commit_command's scalar checks take 0.24 ms.
--
-- A command: the table and its stream, the version it was decided on, the timer it fires
-- (NULL for a player's command), the new head (new_version NULL: a fired timer decided
-- nothing and its row is only dropped), the caller's request id (NULL: none), every
-- timer the table wants running after it (d_*: the fired one restarts; any other keeps a
-- due time already stored and is inserted only if missing; stored timers not wanted
-- stop), and its events (e_*: as the event log's append_one takes them).
--
-- `wait` (a player's command) waits for a transaction of another replica holding the
-- table's row; the timer loop skips such a table (SKIP LOCKED). A command is written only
-- if its table's stream is still at the version it was decided on (the stream, not the
-- row, is the truth), its request id is new, its timer still exists and is due by the
-- database's clock, and its events link to the stream's head.
--
-- Returns the outcome, the version (the one a retried request produced; else the table's
-- row version now) and the database's clock. Outcomes: 'written'; 'busy' (another
-- transaction holds the table); 'retried' (the request id was answered before); 'moved'
-- (the stream is past the version decided on); 'gone' (the fired timer was stopped or is
-- not due, or there is no such table); 'stale' (the events do not link: the caller's
-- remembered head of the stream was not the stream's).
DROP FUNCTION commit_fired(
    text[], integer[], text[], integer[], text[], text[], text[], integer[], text[],
    timestamptz[], boolean[], text[], text[], integer[], uuid[], text[], text[], text[],
    timestamptz[], bytea[], bytea[], boolean[]);

CREATE FUNCTION commit_command(
    wait boolean, table_key text, stream text, expected integer, fired_key text,
    new_version integer, new_status text, player text, request text,
    d_keys text[], d_seats integer[], d_kinds text[], d_dues timestamptz[],
    e_versions integer[], e_ids uuid[], e_types text[], e_datas text[], e_metadatas text[],
    e_recorded_ats timestamptz[], e_prev_hashes bytea[], e_hashes bytea[]
) RETURNS TABLE (outcome text, version integer, db_now timestamptz)
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
#variable_conflict use_column
DECLARE
    head integer;
    answered integer;
    appended text;
BEGIN
    IF wait THEN
        SELECT t.version INTO head FROM tables AS t WHERE t.table_id = table_key FOR UPDATE;
    ELSE
        SELECT t.version INTO head FROM tables AS t WHERE t.table_id = table_key
        FOR UPDATE SKIP LOCKED;
    END IF;
    IF NOT FOUND THEN
        RETURN QUERY SELECT CASE WHEN EXISTS (
            SELECT 1 FROM tables AS t WHERE t.table_id = table_key) THEN 'busy' ELSE 'gone' END,
            NULL::integer, now();
        RETURN;
    END IF;
    IF request IS NOT NULL THEN
        SELECT q.version INTO answered FROM requests AS q
        WHERE q.table_id = table_key AND q.player_id = player AND q.request_id = request;
        IF FOUND THEN
            RETURN QUERY SELECT 'retried', answered, now();
            RETURN;
        END IF;
    END IF;
    IF EXISTS (SELECT 1 FROM events AS e WHERE e.stream_id = stream AND e.version > expected)
    THEN
        RETURN QUERY SELECT 'moved', head, now();
        RETURN;
    END IF;
    IF fired_key IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM deadlines AS d
        WHERE d.table_id = table_key AND d.timer_key = fired_key AND d.due_at <= now())
    THEN
        RETURN QUERY SELECT 'gone', head, now();
        RETURN;
    END IF;
    IF new_version IS NULL THEN
        DELETE FROM deadlines AS d WHERE d.table_id = table_key AND d.timer_key = fired_key;
        RETURN QUERY SELECT 'written', head, now();
        RETURN;
    END IF;
    appended := append_one(stream, expected, e_prev_hashes[1], e_versions, e_ids, e_types,
                           e_datas, e_metadatas, e_recorded_ats, e_prev_hashes, e_hashes);
    IF appended <> 'written' THEN
        RETURN QUERY SELECT CASE WHEN appended = 'stale' THEN 'stale' ELSE 'moved' END, head,
                            now();
        RETURN;
    END IF;
    IF request IS NOT NULL THEN
        INSERT INTO requests (table_id, player_id, request_id, version)
        VALUES (table_key, player, request, new_version);
    END IF;
    DELETE FROM deadlines AS d
    WHERE d.table_id = table_key AND NOT d.timer_key = ANY (d_keys);
    INSERT INTO deadlines (table_id, timer_key, seat, kind, due_at)
    SELECT table_key, w.k, w.s, w.kd, w.du
    FROM unnest(d_keys, d_seats, d_kinds, d_dues) AS w(k, s, kd, du)
    ON CONFLICT (table_id, timer_key) DO UPDATE
        SET seat = excluded.seat, kind = excluded.kind, due_at = excluded.due_at
        WHERE excluded.timer_key = fired_key;  -- the fired timer restarts; others keep theirs
    UPDATE tables AS t SET version = new_version, status = new_status,
        closed_at = CASE WHEN new_status = 'playing' THEN NULL ELSE now() END
    WHERE t.table_id = table_key;
    RETURN QUERY SELECT 'written', new_version, now();
END
$$;

-- Many commands (the timer loop's batch), each as commit_command above: one round trip
-- for all. Per command (the arrays starting with table_ids): as commit_command takes it,
-- with how many of the wanted deadlines (d_*) and of the events (e_*) are its own, in
-- the commands' order. Returns one row per command, in their order.
CREATE FUNCTION commit_commands(
    wait boolean,
    table_ids text[], streams text[], expected integer[], fired_keys text[],
    new_versions integer[], statuses text[], players text[], request_ids text[],
    d_counts integer[], d_keys text[], d_seats integer[], d_kinds text[],
    d_dues timestamptz[],
    e_counts integer[], e_versions integer[], e_ids uuid[], e_types text[], e_datas text[],
    e_metadatas text[], e_recorded_ats timestamptz[], e_prev_hashes bytea[],
    e_hashes bytea[]
) RETURNS TABLE (table_id text, outcome text, version integer, db_now timestamptz)
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    d integer := 1;  -- the first deadline of command i
    e integer := 1;  -- its first event
    dn integer;
    en integer;
BEGIN
    FOR i IN 1 .. coalesce(array_length(table_ids, 1), 0) LOOP
        dn := d + d_counts[i] - 1;
        en := e + e_counts[i] - 1;
        RETURN QUERY SELECT table_ids[i], c.outcome, c.version, c.db_now
        FROM commit_command(
            wait, table_ids[i], streams[i], expected[i], fired_keys[i], new_versions[i],
            statuses[i], players[i], request_ids[i],
            d_keys[d:dn], d_seats[d:dn], d_kinds[d:dn], d_dues[d:dn],
            e_versions[e:en], e_ids[e:en], e_types[e:en], e_datas[e:en], e_metadatas[e:en],
            e_recorded_ats[e:en], e_prev_hashes[e:en], e_hashes[e:en]) AS c;
        d := dn + 1;
        e := en + 1;
    END LOOP;
END
$$;
