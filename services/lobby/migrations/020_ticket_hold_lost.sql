-- A stake ticket whose hold failed at the wallet before a table formed (expired, voided)
-- leaves the queue as 'hold_lost' (MODE-4): the lobby forms stake tables on standing holds only.
ALTER TABLE tickets DROP CONSTRAINT tickets_state_check;
ALTER TABLE tickets ADD CONSTRAINT tickets_state_check
    CHECK (state IN ('waiting', 'seated', 'left', 'cancelled', 'hold_lost'));
