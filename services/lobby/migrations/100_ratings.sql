-- Skill ratings as the leaderboard last told them (RatingsChanged, RATE-2): the rating a
-- ticket joins with, and the profile's ratings. rated_tables only grows, so an older
-- event arriving late never overwrites a newer rating.
CREATE TABLE player_ratings (
    player_id     text NOT NULL,
    game          text NOT NULL,
    mu            double precision NOT NULL,
    sigma         double precision NOT NULL,
    rated_tables  bigint NOT NULL,
    PRIMARY KEY (player_id, game)
);

-- The rating a ticket joined with; NULL for a player the leaderboard has not rated yet
-- (the matchmaker takes the model's start, mu 25 and sigma 25/3).
ALTER TABLE tickets ADD COLUMN rating_mu double precision;
ALTER TABLE tickets ADD COLUMN rating_sigma double precision;
