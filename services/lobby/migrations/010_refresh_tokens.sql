-- Refresh tokens (guarantee 9): kept as their SHA-256, never as the token itself. A login
-- starts a family; each refresh marks its token used and issues the next one of the family.
-- A used token presented again means it was stolen (or copied): the whole family is
-- revoked. A suspension of all accounts revokes every family of the person's accounts.
CREATE TABLE refresh_tokens (
    token_hash  bytea       PRIMARY KEY,
    family_id   text        NOT NULL,
    player_id   text        NOT NULL REFERENCES players,
    issued_at   timestamptz NOT NULL,
    expires_at  timestamptz NOT NULL,
    used_at     timestamptz,
    revoked_at  timestamptz,
    revoked_why text
);
CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_live ON refresh_tokens (player_id) WHERE revoked_at IS NULL;
