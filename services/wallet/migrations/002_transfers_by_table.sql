-- A table's coin movements (AUDIT-5) are read by the table id inside their transfer ids
-- (stake:, payout:, refund:, reward: <table>:<seat>): the replay page lists them beside
-- the events that caused them, so finding them must not scan the whole ledger.
CREATE INDEX transfers_by_table ON transfers (split_part(transfer_id, ':', 2))
    WHERE transfer_id ~ '^(stake|payout|refund|reward):';
