-- The wallet's ledger (schema "wallet"): accounts, immutable transfers, and balances that
-- only the database derives. Guarantee 7 rests on this file, not on application code:
--   * a transfer row can never be updated or deleted (trigger transfers_are_immutable);
--   * inserting a transfer updates both accounts' counters in the same statement
--     (trigger transfers_apply), and nothing else may touch those counters
--     (trigger balances_move_only_by_transfers), so the sum of posted balances over all
--     accounts is always zero: every row adds the same amount to a debit and a credit;
--   * a player's or an escrow's available balance can never go below zero
--     (CHECK balance_never_negative), whatever the code above does;
--   * a hold is resolved at most once (UNIQUE pending_id).

CREATE TABLE accounts (
    account_id      text PRIMARY KEY,
    kind            text NOT NULL CHECK (kind IN ('player', 'escrow', 'issuance', 'holds')),
    credits_posted  bigint NOT NULL DEFAULT 0 CHECK (credits_posted >= 0),
    debits_posted   bigint NOT NULL DEFAULT 0 CHECK (debits_posted >= 0),
    credits_pending bigint NOT NULL DEFAULT 0 CHECK (credits_pending >= 0),
    debits_pending  bigint NOT NULL DEFAULT 0 CHECK (debits_pending >= 0),
    frozen          boolean NOT NULL DEFAULT false,
    frozen_reason   text NOT NULL DEFAULT '',
    created_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
    -- Issuance is minus every coin in circulation; every other account holds what it has.
    CONSTRAINT balance_never_negative CHECK (
        kind = 'issuance' OR credits_posted - debits_posted - debits_pending >= 0
    )
);

CREATE TABLE transfers (
    seq             bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    transfer_id     text PRIMARY KEY,
    kind            text NOT NULL
                    CHECK (kind IN ('posted', 'pending', 'post_pending', 'void_pending')),
    debit_account   text NOT NULL REFERENCES accounts (account_id),
    credit_account  text NOT NULL REFERENCES accounts (account_id),
    amount          bigint NOT NULL CHECK (amount > 0),
    -- For a post or a void: the hold it resolves. UNIQUE: a hold resolves once.
    pending_id      text UNIQUE REFERENCES transfers (transfer_id),
    expires_at      timestamptz,
    cause           text NOT NULL,
    event_id        text NOT NULL DEFAULT '',
    created_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
    CHECK (debit_account <> credit_account),
    CHECK ((pending_id IS NOT NULL) = (kind IN ('post_pending', 'void_pending'))),
    CHECK (expires_at IS NULL OR kind = 'pending')
);
CREATE INDEX transfers_by_debit ON transfers (debit_account, seq);
CREATE INDEX transfers_by_credit ON transfers (credit_account, seq);

-- Holds not yet resolved: derived by the trigger below, read by the expiry sweeper.
CREATE TABLE open_holds (
    hold_id     text PRIMARY KEY REFERENCES transfers (transfer_id),
    account_id  text NOT NULL,
    expires_at  timestamptz
);
CREATE INDEX open_holds_by_expiry ON open_holds (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX open_holds_by_account ON open_holds (account_id);

-- SET search_path FROM CURRENT: the body names this schema's tables whatever the caller's path.
CREATE FUNCTION transfers_apply() RETURNS trigger LANGUAGE plpgsql
SET search_path FROM CURRENT AS $$
DECLARE
    hold transfers%ROWTYPE;
BEGIN
    IF NEW.kind = 'posted' THEN
        UPDATE accounts SET debits_posted = debits_posted + NEW.amount
         WHERE account_id = NEW.debit_account;
        UPDATE accounts SET credits_posted = credits_posted + NEW.amount
         WHERE account_id = NEW.credit_account;
    ELSIF NEW.kind = 'pending' THEN
        UPDATE accounts SET debits_pending = debits_pending + NEW.amount
         WHERE account_id = NEW.debit_account;
        UPDATE accounts SET credits_pending = credits_pending + NEW.amount
         WHERE account_id = NEW.credit_account;
        INSERT INTO open_holds (hold_id, account_id, expires_at)
        VALUES (NEW.transfer_id, NEW.debit_account, NEW.expires_at);
    ELSE
        SELECT * INTO hold FROM transfers WHERE transfer_id = NEW.pending_id;
        IF hold.kind IS DISTINCT FROM 'pending' THEN
            RAISE EXCEPTION 'transfer % resolves %, which is not a hold',
                NEW.transfer_id, NEW.pending_id USING ERRCODE = 'check_violation';
        END IF;
        -- A resolution moves exactly the hold's coins out of exactly the hold's debit
        -- account; a post may credit another account (a stake into the table's escrow).
        IF NEW.amount <> hold.amount OR NEW.debit_account <> hold.debit_account
           OR (NEW.kind = 'void_pending' AND NEW.credit_account <> hold.credit_account) THEN
            RAISE EXCEPTION 'transfer % does not match hold %', NEW.transfer_id, hold.transfer_id
                USING ERRCODE = 'check_violation';
        END IF;
        UPDATE accounts SET debits_pending = debits_pending - hold.amount
         WHERE account_id = hold.debit_account;
        UPDATE accounts SET credits_pending = credits_pending - hold.amount
         WHERE account_id = hold.credit_account;
        IF NEW.kind = 'post_pending' THEN
            UPDATE accounts SET debits_posted = debits_posted + NEW.amount
             WHERE account_id = NEW.debit_account;
            UPDATE accounts SET credits_posted = credits_posted + NEW.amount
             WHERE account_id = NEW.credit_account;
        END IF;
        DELETE FROM open_holds WHERE hold_id = NEW.pending_id;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER transfers_apply AFTER INSERT ON transfers
    FOR EACH ROW EXECUTE FUNCTION transfers_apply();

CREATE FUNCTION refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% rows are immutable: record a new transfer instead', TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END;
$$;
CREATE TRIGGER transfers_are_immutable BEFORE UPDATE OR DELETE ON transfers
    FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER transfers_are_never_truncated BEFORE TRUNCATE ON transfers
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();

-- Counters change only inside transfers_apply (trigger depth 2), never by a direct UPDATE.
CREATE FUNCTION balances_move_only_by_transfers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF pg_trigger_depth() < 2 AND (
        NEW.credits_posted <> OLD.credits_posted OR NEW.debits_posted <> OLD.debits_posted
        OR NEW.credits_pending <> OLD.credits_pending OR NEW.debits_pending <> OLD.debits_pending
        OR NEW.kind <> OLD.kind OR NEW.account_id <> OLD.account_id
    ) THEN
        RAISE EXCEPTION 'balances change only by inserting transfers'
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END;
$$;
CREATE TRIGGER balances_move_only_by_transfers BEFORE UPDATE ON accounts
    FOR EACH ROW EXECUTE FUNCTION balances_move_only_by_transfers();
CREATE TRIGGER accounts_are_never_deleted BEFORE DELETE ON accounts
    FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER accounts_are_never_truncated BEFORE TRUNCATE ON accounts
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();

-- Freezes in force (PCG-4). An account is frozen while it has at least one: each sanction
-- freezes under its own key, so lifting one sanction leaves another's freeze in place.
-- accounts.frozen and frozen_reason mirror this table, updated in the same transaction.
CREATE TABLE active_freezes (
    account_id  text NOT NULL REFERENCES accounts (account_id),
    freeze_key  text NOT NULL,
    reason      text NOT NULL,
    by_player   text NOT NULL,
    since       timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (account_id, freeze_key)
);

-- Every freeze and unfreeze, who applied it, when and why (PCG-4: sanctions are recorded).
CREATE TABLE account_freezes (
    seq         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id  text NOT NULL REFERENCES accounts (account_id),
    freeze_key  text NOT NULL,
    frozen      boolean NOT NULL,
    reason      text NOT NULL,
    by_player   text NOT NULL,
    event_id    text NOT NULL DEFAULT '',
    at          timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE TRIGGER account_freezes_are_immutable BEFORE UPDATE OR DELETE ON account_freezes
    FOR EACH ROW EXECUTE FUNCTION refuse_change();

-- Stake tables whose holds were posted into escrow (MatchFormed handled).
CREATE TABLE stake_tables (
    table_id        text PRIMARY KEY,
    stake           bigint NOT NULL,
    seats           integer NOT NULL,
    formed_event    text NOT NULL,
    formed_at       timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- How each table was settled, once: the pot paid, the stakes refunded, the rewards paid.
CREATE TABLE table_settlements (
    table_id    text PRIMARY KEY,
    outcome     text NOT NULL CHECK (outcome IN ('paid', 'refunded', 'rewarded', 'cancelled')),
    event_id    text NOT NULL,
    settled_at  timestamptz NOT NULL DEFAULT clock_timestamp()
);
