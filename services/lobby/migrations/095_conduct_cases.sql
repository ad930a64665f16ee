-- Reports merge into cases (PCG-3): every report on the same player (or on the same table,
-- for a table report naming nobody) while one is open joins the first one's case; the
-- nicknames are kept beside the ids as they were when the report was filed. A report
-- older than this has a case of its own.
ALTER TABLE reports ADD COLUMN case_id text;
ALTER TABLE reports ADD COLUMN target text NOT NULL DEFAULT '';
ALTER TABLE reports ADD COLUMN reporter_nickname text NOT NULL DEFAULT '';
ALTER TABLE reports ADD COLUMN player_nickname text NOT NULL DEFAULT '';
UPDATE reports SET case_id = report_id;
ALTER TABLE reports ALTER COLUMN case_id SET NOT NULL;
CREATE INDEX reports_case ON reports (case_id);
CREATE INDEX reports_target_open ON reports (target) WHERE resolved_at IS NULL;
CREATE INDEX reports_reporter_filed ON reports (reporter_id, filed_at);

-- How long a sanction was applied for (PCG-4): a warning, a day, a week, months, a year,
-- for ever. NULL for sanctions recorded before durations were.
ALTER TABLE sanctions ADD COLUMN duration text;
