-- 001_initial: games, plies, players, processed mails, outbox, mailbox state.
--
-- Times are TEXT in UTC, fixed width, "2006-01-02T15:04:05.000000000Z",
-- so they sort as strings and SQLite's date functions read them.
-- Addresses are stored in lower case.

CREATE TABLE players (
	address    TEXT PRIMARY KEY,
	name       TEXT NOT NULL DEFAULT '',
	language   TEXT NOT NULL DEFAULT '',
	created_at TEXT NOT NULL
) STRICT;

CREATE TABLE games (
	id               TEXT PRIMARY KEY,
	variant          TEXT NOT NULL,
	attackers        TEXT NOT NULL,
	defenders        TEXT NOT NULL,
	challenger       TEXT NOT NULL,
	status           TEXT NOT NULL
	                 CHECK (status IN ('invited', 'active', 'finished', 'declined')),
	result           TEXT NOT NULL DEFAULT '',
	reason           TEXT NOT NULL DEFAULT '',
	draw_offer_by    TEXT NOT NULL DEFAULT '',
	attacker_token   TEXT NOT NULL DEFAULT '',
	defender_token   TEXT NOT NULL DEFAULT '',
	attackers_thread TEXT NOT NULL DEFAULT '',
	defenders_thread TEXT NOT NULL DEFAULT '',
	start_position   TEXT NOT NULL DEFAULT '',
	time_control     TEXT NOT NULL DEFAULT '',
	-- NULL for casual games; a tournaments table may reference it later.
	tournament_id    TEXT,
	-- number of rows in plies for this game, kept by Commit
	ply_count        INTEGER NOT NULL DEFAULT 0 CHECK (ply_count >= 0),
	-- optimistic concurrency: bumped by every write of the game or its plies
	version          INTEGER NOT NULL CHECK (version >= 1),
	created_at       TEXT NOT NULL,
	updated_at       TEXT NOT NULL
) STRICT;

CREATE INDEX games_attackers ON games (attackers);
CREATE INDEX games_defenders ON games (defenders);
CREATE INDEX games_status ON games (status, updated_at);
CREATE INDEX games_tournament ON games (tournament_id) WHERE tournament_id IS NOT NULL;

CREATE TABLE plies (
	game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	n          INTEGER NOT NULL CHECK (n >= 1),
	move       TEXT NOT NULL,
	at         TEXT NOT NULL,
	message_id TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (game_id, n)
) STRICT, WITHOUT ROWID;

CREATE TABLE processed_mails (
	message_id   TEXT PRIMARY KEY,
	-- NULL when unknown; two mails with the same hash are one mail
	content_hash TEXT UNIQUE,
	sender       TEXT NOT NULL,
	-- the game the mail named, which need not exist: no foreign key
	game_id      TEXT NOT NULL DEFAULT '',
	disposition  TEXT NOT NULL,
	at           TEXT NOT NULL
) STRICT;

CREATE INDEX processed_mails_sender ON processed_mails (sender, disposition, at);

CREATE TABLE outbox (
	id           INTEGER PRIMARY KEY,
	-- '' for mails about no game (help, unknown game); no foreign key
	game_id      TEXT NOT NULL DEFAULT '',
	message_id   TEXT NOT NULL,
	sender       TEXT NOT NULL,
	-- JSON array of envelope recipients
	recipients   TEXT NOT NULL,
	raw          BLOB NOT NULL,
	status       TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
	attempts     INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
	next_attempt TEXT NOT NULL,
	last_error   TEXT NOT NULL DEFAULT '',
	created_at   TEXT NOT NULL,
	sent_at      TEXT
) STRICT;

CREATE INDEX outbox_due ON outbox (status, next_attempt);
CREATE INDEX outbox_game ON outbox (game_id, status);

CREATE TABLE mailbox_state (
	mailbox      TEXT PRIMARY KEY,
	uid_validity INTEGER NOT NULL,
	last_uid     INTEGER NOT NULL,
	updated_at   TEXT NOT NULL
) STRICT;
