-- Tournament results (PCG-7), one row per entrant of a finished tournament, from the
-- lobby's TournamentFinished: a source of truth of its own (a redelivery finds its rows
-- and adds nothing), summed into each player's stats: tournaments played, won, finals
-- reached and prize coins.
CREATE TABLE tournament_results (
    tournament_id text   NOT NULL,
    player_id     text   NOT NULL,
    game          text   NOT NULL,
    place         int    NOT NULL CHECK (place > 0),
    prize         bigint NOT NULL CHECK (prize >= 0),
    PRIMARY KEY (tournament_id, player_id)
);
CREATE INDEX tournament_results_player ON tournament_results (player_id);
