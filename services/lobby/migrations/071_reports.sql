-- Player reports (PCG-3): about a chat message, a table or a player, with the evidence
-- copied in when filed (the chat lines around it, the table's event-log stream), and a
-- moderator's decision: a sanction (PCG-4) or a dismissal with a note.
CREATE TABLE reports (
    seq             bigserial   PRIMARY KEY,
    report_id       text        NOT NULL UNIQUE,
    reporter_id     text        NOT NULL,
    subject         text        NOT NULL CHECK (subject IN ('message', 'table', 'player')),
    player_id       text,
    message_id      text,
    table_id        text,
    reason          text        NOT NULL CHECK (reason <> ''),
    chat_lines      jsonb       NOT NULL,
    log_ref         text        NOT NULL,
    filed_at        timestamptz NOT NULL,
    resolved_by     text,
    resolved_at     timestamptz,
    sanction_id     text,
    note            text
);
CREATE INDEX reports_open ON reports (seq) WHERE resolved_at IS NULL;
CREATE INDEX reports_reporter ON reports (reporter_id, seq);
