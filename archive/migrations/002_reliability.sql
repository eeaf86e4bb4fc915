-- 002_reliability: what the referee decided about each mail and why, and
-- outbox claims (issue 8).
--
-- processed_mails.authenticated is 1 when the mail carried the sender's
-- valid key for the game it named; replies counts the outbox mails the
-- mail caused; reason says why a mail was ignored (never answered), so an
-- operator can answer "where is my move?"; subject is kept for that
-- listing.
ALTER TABLE processed_mails ADD COLUMN authenticated INTEGER NOT NULL DEFAULT 0 CHECK (authenticated IN (0, 1));
ALTER TABLE processed_mails ADD COLUMN replies INTEGER NOT NULL DEFAULT 0 CHECK (replies >= 0);
ALTER TABLE processed_mails ADD COLUMN reason TEXT NOT NULL DEFAULT '';
ALTER TABLE processed_mails ADD COLUMN subject TEXT NOT NULL DEFAULT '';

-- the reply budgets count answered mails by time, per sender and overall
CREATE INDEX processed_mails_answered ON processed_mails (authenticated, at) WHERE replies > 0;
CREATE INDEX processed_mails_at ON processed_mails (at);

-- A sender claims a pending mail before it hands it to SMTP, so that two
-- processes never send the same mail: claimed_by is the claiming process's
-- id ('' when unclaimed), claimed_at when it claimed. A claim older than the
-- lease (the Store's ClaimLease) is stale and may be taken over.
ALTER TABLE outbox ADD COLUMN claimed_by TEXT NOT NULL DEFAULT '';
ALTER TABLE outbox ADD COLUMN claimed_at TEXT;
