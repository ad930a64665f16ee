"""The event log's tables in one service's PostgreSQL schema, created idempotently at start.

Tables (all in the service's schema):

- ``events``: one row per event. ``PRIMARY KEY (stream_id, version)`` is the optimistic
  concurrency guard; ``event_id`` is unique. Its ``position`` column holds the positions
  of events recorded before positions moved to ``event_positions`` (NULL since).
- ``events_unsequenced``: events recorded but not yet given a position, one marker per
  append (``version`` to ``last_version``; one per event where ``last_version`` is NULL).
- ``event_positions``: the global order, ``position -> (stream_id, version)``, gap-free.
- ``event_log_head``: one row holding the last global position handed out (see
  ``tavolo.eventlog.postgres`` for why positions come from a row, after the append).
- ``relay_checkpoints``: the outbox relay's last published position, per relay name.

The first shape comes from ``_DDL`` below; later changes are migration files in
``migrations/`` (``eventlog_NNN_*.sql``), recorded in the schema's ``schema_migrations``
beside the service's own and applied in the same transaction and under the same lock.

Append-only is enforced by triggers that refuse UPDATE, DELETE and TRUNCATE on ``events``
and ``event_positions`` for everyone, the table owner included. To simulate tampering in
a test, or to repair by hand with a record of why, the table owner can lift them for one
transaction::

    BEGIN;
    ALTER TABLE engine.events DISABLE TRIGGER events_append_only;
    UPDATE engine.events SET data = '{"cheat": true}' WHERE stream_id = 'table-42' AND version = 3;
    ALTER TABLE engine.events ENABLE TRIGGER events_append_only;
    COMMIT;

(a superuser may instead ``SET session_replication_role = replica``, which skips
ordinary triggers on that connection). Either way `verify_stream` then names the event.
Triggers stop mistakes and casual edits; the hash chain is what makes a deliberate edit
visible afterwards.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tavolo.servicekit.migrations import apply_scripts, read_scripts

MIGRATIONS = Path(__file__).parent / "migrations"

_SCHEMA_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")

# Serialises concurrent installs (several replicas starting at once): CREATE ... IF NOT
# EXISTS alone can still collide on the catalog when two connections run it together.
_INSTALL_LOCK = "SELECT pg_advisory_xact_lock(hashtext('tavolo.eventlog.install'), hashtext($1))"

_DDL = """
CREATE SCHEMA IF NOT EXISTS {s};

CREATE TABLE IF NOT EXISTS {s}.events (
    position    bigint      NOT NULL,
    stream_id   text        NOT NULL,
    version     integer     NOT NULL CHECK (version >= 1),
    event_id    uuid        NOT NULL,
    type        text        NOT NULL,
    data        json        NOT NULL,
    metadata    json        NOT NULL,
    recorded_at timestamptz NOT NULL,
    prev_hash   bytea       NOT NULL CHECK (length(prev_hash) = 32),
    hash        bytea       NOT NULL CHECK (length(hash) = 32),
    CONSTRAINT events_stream_version_key PRIMARY KEY (stream_id, version),
    CONSTRAINT events_position_key UNIQUE (position),
    CONSTRAINT events_event_id_key UNIQUE (event_id)
);

CREATE TABLE IF NOT EXISTS {s}.event_log_head (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    position  bigint  NOT NULL
);
INSERT INTO {s}.event_log_head (position)
    SELECT coalesce(max(position), 0) FROM {s}.events
    ON CONFLICT DO NOTHING;

CREATE TABLE IF NOT EXISTS {s}.relay_checkpoints (
    relay      text        PRIMARY KEY,
    position   bigint      NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE OR REPLACE FUNCTION {s}.events_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the event log %.% is append-only: % refused', TG_TABLE_SCHEMA,
        TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'restrict_violation';
END
$$;

CREATE OR REPLACE TRIGGER events_append_only
    BEFORE UPDATE OR DELETE ON {s}.events
    FOR EACH ROW EXECUTE FUNCTION {s}.events_refuse_change();

CREATE OR REPLACE TRIGGER events_no_truncate
    BEFORE TRUNCATE ON {s}.events
    FOR EACH STATEMENT EXECUTE FUNCTION {s}.events_refuse_change();
"""


def quoted_schema(schema: str) -> str:
    """The schema as a quoted SQL identifier, after checking it is a plain lowercase name."""
    if not _SCHEMA_NAME.match(schema):
        raise ValueError(
            f"schema name {schema!r} must be lowercase letters, digits and '_' (at most 63)"
        )
    return f'"{schema}"'


async def install(conn: Any, schema: str) -> None:
    """Create the schema, tables and triggers if missing (needs PostgreSQL 14 or later)."""
    ddl = _DDL.format(s=quoted_schema(schema))
    scripts = read_scripts(MIGRATIONS)
    async with conn.transaction():
        await conn.execute(_INSTALL_LOCK, schema)
        await conn.execute(ddl)
        await apply_scripts(conn, schema, scripts)
