-- A pool's recent tickets, seated or waiting: the matchmaker reads how fast they come,
-- which ratings they bring and how long they waited (tavolo.lobby.play.foresight).
CREATE INDEX tickets_pool_recent ON tickets (pool, queued_at);
