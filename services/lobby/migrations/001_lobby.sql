-- The lobby's own tables (schema "lobby"; search_path is set by the migration runner).
-- Ids are text: they arrive from clients and tokens, and an unknown or malformed id must
-- read as "not found", never as a type error.

-- Accounts. nickname_key is the look-alike skeleton (tavolo.lobby.nicknames): the UNIQUE
-- index makes "unique regardless of case and look-alikes" hold across replicas (PCG-1).
-- owner_id names the person: accounts registered while logged in share it (PCG-4).
CREATE TABLE players (
    player_id     text        PRIMARY KEY,
    owner_id      text        NOT NULL,
    nickname      text        NOT NULL,
    nickname_key  text        NOT NULL,
    password_hash text        NOT NULL,
    roles         text[]      NOT NULL DEFAULT ARRAY['player'],
    created_at    timestamptz NOT NULL
);
CREATE UNIQUE INDEX players_nickname_key ON players (nickname_key);
CREATE INDEX players_owner ON players (owner_id);

-- Sanctions (PCG-4): who, why and until when (NULL = permanent); lifting keeps the row.
CREATE TABLE sanctions (
    sanction_id text        PRIMARY KEY,
    player_id   text        NOT NULL REFERENCES players,
    kind        text        NOT NULL CHECK (kind IN ('chat', 'lobby', 'all_accounts', 'freeze')),
    applied_by  text        NOT NULL,
    reason      text        NOT NULL CHECK (reason <> ''),
    applied_at  timestamptz NOT NULL,
    until       timestamptz,
    lifted_at   timestamptz,
    lifted_by   text
);
CREATE INDEX sanctions_player ON sanctions (player_id, applied_at);

-- Tables the lobby formed or opened, and who sits at them (kept after the end: chat
-- membership and history).
CREATE TABLE game_tables (
    table_id   text        PRIMARY KEY,
    game       text        NOT NULL,
    mode       text        NOT NULL,
    players    integer     NOT NULL,
    options    jsonb       NOT NULL,
    stake      bigint      NOT NULL DEFAULT 0,
    bot_filled boolean     NOT NULL DEFAULT false,
    room_id    text,
    formed_at  timestamptz NOT NULL,
    started_at timestamptz,
    ended_at   timestamptz,
    end_reason text
);
CREATE TABLE table_seats (
    table_id  text    NOT NULL REFERENCES game_tables,
    seat      integer NOT NULL,
    player_id text,
    nickname  text    NOT NULL,
    bot_level text,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX table_seats_player ON table_seats (player_id) WHERE player_id IS NOT NULL;

-- What a player is busy with: one waiting ticket or one seat at a live table, never two
-- things at once. The primary key is the guard every replica meets (MODE-3: never seated
-- at two tables at once).
CREATE TABLE busy_players (
    player_id text        PRIMARY KEY,
    ticket_id text,
    table_id  text,
    since     timestamptz NOT NULL,
    CHECK ((ticket_id IS NULL) <> (table_id IS NULL))
);
CREATE INDEX busy_players_table ON busy_players (table_id) WHERE table_id IS NOT NULL;

-- Matchmaking tickets: durable, so a restart loses none. "pool" is the exact table wanted
-- (game, seats, stake, options); the matchmaker takes a pool's oldest tickets with
-- SELECT ... FOR UPDATE SKIP LOCKED.
CREATE TABLE tickets (
    ticket_id text        PRIMARY KEY,
    player_id text        NOT NULL,
    nickname  text        NOT NULL,
    game      text        NOT NULL,
    players   integer     NOT NULL,
    stake     bigint      NOT NULL,
    options   jsonb       NOT NULL,
    pool      text        NOT NULL,
    state     text        NOT NULL CHECK (state IN ('waiting', 'seated', 'left', 'cancelled')),
    queued_at timestamptz NOT NULL,
    hold_id   text,
    table_id  text,
    seat      integer,
    closed_at timestamptz
);
CREATE INDEX tickets_waiting ON tickets (pool, queued_at, ticket_id) WHERE state = 'waiting';
CREATE UNIQUE INDEX tickets_one_waiting_per_player ON tickets (player_id) WHERE state = 'waiting';
CREATE INDEX tickets_player ON tickets (player_id, queued_at DESC);

-- Private rooms (MODE-2) and their invitations.
CREATE TABLE rooms (
    room_id       text        PRIMARY KEY,
    host_id       text        NOT NULL,
    host_nickname text        NOT NULL,
    game          text        NOT NULL,
    players       integer     NOT NULL,
    options       jsonb       NOT NULL,
    created_at    timestamptz NOT NULL,
    table_id      text
);
CREATE TABLE invitations (
    room_id      text        NOT NULL REFERENCES rooms,
    player_id    text        NOT NULL,
    nickname     text        NOT NULL,
    state        text        NOT NULL CHECK (state IN ('pending', 'accepted', 'declined')),
    invited_at   timestamptz NOT NULL,
    responded_at timestamptz,
    PRIMARY KEY (room_id, player_id)
);
CREATE INDEX invitations_pending ON invitations (player_id) WHERE state = 'pending';

-- Chat (PCG-2): every message with sender and time; seq orders a channel's pages.
CREATE TABLE chat_messages (
    seq             bigserial   PRIMARY KEY,
    message_id      text        NOT NULL UNIQUE,
    channel_kind    text        NOT NULL CHECK (channel_kind IN ('table', 'room')),
    channel_id      text        NOT NULL,
    sender_id       text        NOT NULL,
    sender_nickname text        NOT NULL,
    text            text        NOT NULL,
    sent_at         timestamptz NOT NULL
);
CREATE INDEX chat_messages_channel ON chat_messages (channel_kind, channel_id, seq);

-- Stake holds to void at the wallet (a ticket left the queue, or a hold whose ticket could
-- not be recorded). Written in the same transaction as the reason, retried until done.
CREATE TABLE hold_releases (
    hold_id      text        PRIMARY KEY,
    player_id    text        NOT NULL,
    requested_at timestamptz NOT NULL,
    done_at      timestamptz,
    attempts     integer     NOT NULL DEFAULT 0,
    last_error   text
);
CREATE INDEX hold_releases_pending ON hold_releases (requested_at) WHERE done_at IS NULL;
