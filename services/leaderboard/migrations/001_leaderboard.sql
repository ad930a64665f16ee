-- The leaderboard's tables (schema "leaderboard"; search_path is set while this runs).
--
-- table_finished_log is the source of truth: every TableFinished event received, kept
-- exactly as it arrived, append-only. Every other table is a projection of it and can be
-- emptied and rebuilt from it at any time (tavolo.leaderboard.store.rebuild).

CREATE TABLE table_finished_log (
    position     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id     text NOT NULL UNIQUE,
    table_id     text NOT NULL UNIQUE,
    occurred_at  timestamptz NOT NULL,
    payload      bytea NOT NULL,
    received_at  timestamptz NOT NULL DEFAULT now()
);

-- Append-only: history is never edited, so a rebuild always has the whole of it.
CREATE FUNCTION refuse_history_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'table_finished_log is append-only: % refused', TG_OP;
END;
$$;
CREATE TRIGGER table_finished_log_append_only
    BEFORE UPDATE OR DELETE ON table_finished_log
    FOR EACH ROW EXECUTE FUNCTION refuse_history_change();
CREATE TRIGGER table_finished_log_no_truncate
    BEFORE TRUNCATE ON table_finished_log
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_history_change();

-- Projection: total XP per player.
CREATE TABLE player_xp (
    player_id  text PRIMARY KEY,
    xp         bigint NOT NULL
);

-- Projection: how often each player reached each place of each game; games and wins
-- per game are sums over it (a win is place 1).
CREATE TABLE player_place_counts (
    player_id  text NOT NULL,
    game       text NOT NULL,
    place      integer NOT NULL,
    times      bigint NOT NULL,
    PRIMARY KEY (player_id, game, place)
);

-- Projection: the weekly league. week = ISO year * 100 + ISO week; game '' = all games.
-- Points are doubled (a bot-filled table counts half).
CREATE TABLE league_scores (
    week       integer NOT NULL,
    game       text NOT NULL,
    player_id  text NOT NULL,
    points_x2  bigint NOT NULL,
    games      bigint NOT NULL,
    PRIMARY KEY (week, game, player_id)
);
-- League order (most points first, then player id) as one ascending key, so a page or a
-- player's neighbours is a row comparison the index answers directly.
CREATE INDEX league_scores_order ON league_scores (week, game, (-points_x2), player_id);

-- Projection: how many players of a week's league hold each points value. A rank is
-- 1 + the players with more points: a sum over the few distinct values above, instead of
-- counting up to a million rows.
CREATE TABLE league_points_histogram (
    week       integer NOT NULL,
    game       text NOT NULL,
    points_x2  bigint NOT NULL,
    players    bigint NOT NULL,
    PRIMARY KEY (week, game, points_x2)
);

-- Projection: all-time wins per game at league tables.
CREATE TABLE alltime_scores (
    game       text NOT NULL,
    player_id  text NOT NULL,
    wins       bigint NOT NULL,
    games      bigint NOT NULL,
    PRIMARY KEY (game, player_id)
);
CREATE INDEX alltime_scores_order ON alltime_scores (game, (-wins), player_id);
