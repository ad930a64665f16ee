-- Skill ratings (RATE-1), projections of table_finished_log like the league: emptied and
-- rebuilt from it at any time, tables applied in the log's order.

-- Each player's current rating per game. rating = mu - 3 sigma clamped at 0, kept for
-- the top-of-the-game index.
CREATE TABLE player_ratings (
    game          text NOT NULL,
    player_id     text NOT NULL,
    mu            double precision NOT NULL,
    sigma         double precision NOT NULL,
    rating        double precision NOT NULL,
    rated_tables  bigint NOT NULL,
    PRIMARY KEY (game, player_id)
);
CREATE INDEX player_ratings_order ON player_ratings (game, (-rating), player_id);
CREATE INDEX player_ratings_player ON player_ratings (player_id);

-- One row per rated table and player: the rating before and after. position is the
-- table's place in table_finished_log, the order ratings are applied in.
CREATE TABLE rating_history (
    player_id     text NOT NULL,
    game          text NOT NULL,
    position      bigint NOT NULL,
    table_id      text NOT NULL,
    finished_at   timestamptz NOT NULL,
    mu_before     double precision NOT NULL,
    sigma_before  double precision NOT NULL,
    mu_after      double precision NOT NULL,
    sigma_after   double precision NOT NULL,
    tables_after  bigint NOT NULL,
    PRIMARY KEY (player_id, game, position)
);
