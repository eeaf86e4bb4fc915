-- 008_tournament_mail: entries confirmed by mail, and spectators of a
-- whole tournament (issues 11 and 12).
--
-- A "join ID" mail proves nothing about its sender: From can be forged.
-- So it enters nobody: it asks the address to confirm, with a key of its
-- own mailed only to that address, and the entry (entries, 007) is
-- written only when a mail from that address brings the key back. Until
-- then the request waits here, one row per tournament and address: key is
-- the ten-character secret the confirmation must carry, asked_at when
-- the request first came (a repeated request keeps the row and its key, so
-- that a forger who repeats it cannot void the key the player holds).
-- Writing the entry deletes the row. A row whose event started or closed
-- its entries is dead: the confirmation is refused for that reason.
CREATE TABLE pending_entries (
	tournament_id TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
	player        TEXT NOT NULL,
	key           TEXT NOT NULL,
	asked_at      TEXT NOT NULL,
	PRIMARY KEY (tournament_id, player)
) STRICT, WITHOUT ROWID;

-- Addresses that follow every game of a tournament ("watch ID"), those
-- paired at its start included, as the spectators table (004) does for
-- one game: results_only for the results only, thread the Message-ID of
-- the spectator's own "watch" mail, which the spectator's mails answer.
CREATE TABLE tournament_spectators (
	tournament_id TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
	address       TEXT NOT NULL,
	results_only  INTEGER NOT NULL DEFAULT 0 CHECK (results_only IN (0, 1)),
	thread        TEXT NOT NULL DEFAULT '',
	created_at    TEXT NOT NULL,
	PRIMARY KEY (tournament_id, address)
) STRICT, WITHOUT ROWID;

CREATE INDEX tournament_spectators_address ON tournament_spectators (address);
