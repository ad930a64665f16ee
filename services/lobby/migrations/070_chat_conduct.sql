-- Vulgar language in chat (PCG-3). A filtered message keeps what its sender wrote, for
-- moderators only; `text` is what the channel shows (masked) or, when refused, nothing
-- is shown and `refused` says so.
ALTER TABLE chat_messages ADD COLUMN original_text text;
ALTER TABLE chat_messages ADD COLUMN refused boolean NOT NULL DEFAULT false;

-- Per table or room (PCG-2 "where chat is enabled"): whether chat is on and what the
-- filter does with a vulgar message. A channel without a row has chat on and masks.
CREATE TABLE chat_settings (
    channel_kind text        NOT NULL CHECK (channel_kind IN ('table', 'room')),
    channel_id   text        NOT NULL,
    enabled      boolean     NOT NULL,
    policy       text        NOT NULL CHECK (policy IN ('mask', 'refuse')),
    set_by       text        NOT NULL,
    set_at       timestamptz NOT NULL,
    PRIMARY KEY (channel_kind, channel_id)
);
