-- 003_clock: correspondence clocks (CORRESPONDENCE.md §2–§5, issue 10).
--
-- games.started_at is when the game started (the acceptance was
-- committed): the first mover's clock starts there (§2.1); NULL before.
-- games.ended_at is when the game ended (for a time-out: when it was
-- declared); NULL while it runs.
ALTER TABLE games ADD COLUMN started_at TEXT;
ALTER TABLE games ADD COLUMN ended_at TEXT;

-- plies.at is the ply's arrival (the IMAP INTERNALDATE of the mail that
-- carried it, §2.2); plies.avail is when the referee committed it, kept
-- only when that was notably later (the daemon was down): the opponent's
-- clock starts there (§2.1, the record's [%avail]).
ALTER TABLE plies ADD COLUMN avail TEXT;

-- A player's leave, per address (Decision C5: it stops the clocks of all
-- the player's games): whole UTC days first_day to last_day inclusive,
-- written YYYY-MM-DD.
CREATE TABLE leave (
	address   TEXT NOT NULL,
	first_day TEXT NOT NULL,
	last_day  TEXT NOT NULL CHECK (last_day >= first_day),
	PRIMARY KEY (address, first_day)
) STRICT, WITHOUT ROWID;

-- The scheduler's timers: the instants at which a game needs the referee
-- without a mail (a reminder, a deadline). key identifies the timer within
-- its game independently of its instant ("ply 12 reminder 7d", "ply 12
-- deadline"), so (game_id, key) is the idempotency key of what it does:
-- done is set in the transaction that commits the timer's effect and
-- replies, and a timer done is never pending again. ply is the ply the
-- timer waits for; done marks of earlier plies are dropped when the
-- game's timers are replaced after a ply.
CREATE TABLE timers (
	game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	key     TEXT NOT NULL,
	kind    TEXT NOT NULL CHECK (kind IN ('reminder', 'deadline')),
	ply     INTEGER NOT NULL CHECK (ply >= 1),
	due     TEXT NOT NULL,
	done    TEXT,
	PRIMARY KEY (game_id, key)
) STRICT, WITHOUT ROWID;

-- the pending timers by due time: finding the due ones costs O(due), the
-- next one O(log n)
CREATE INDEX timers_due ON timers (due) WHERE done IS NULL;
