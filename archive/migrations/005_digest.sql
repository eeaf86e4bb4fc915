-- 005_digest: one mail a day instead of one per ply (issue 12, "notify").
--
-- players.digest_at is NULL for "notify each" (the default: a mail for
-- every ply of an opponent), else the time of day of the player's daily
-- digest in minutes after 00:00 UTC (0–1439). players.digest_due is the
-- digest's durable timer: the instant (UTC) the next digest is due, set
-- exactly when digest_at is. The transaction that queues a digest mail
-- moves digest_due to the next day only if it still holds the instant
-- that was due, so a digest is committed once however often the daemon
-- stops and starts.
ALTER TABLE players ADD COLUMN digest_at INTEGER CHECK (digest_at BETWEEN 0 AND 1439);
ALTER TABLE players ADD COLUMN digest_due TEXT CHECK ((digest_at IS NULL) = (digest_due IS NULL));

-- the pending digests by due time, beside the game timers' timers_due
CREATE INDEX players_digest_due ON players (digest_due) WHERE digest_due IS NOT NULL;
