-- The traceparent of the JoinQueue call that queued a ticket, when tracing was on: the
-- matchmaker's span forming the ticket's table links to it (tavolo.servicekit.tracing).
ALTER TABLE tickets ADD COLUMN traceparent text;
