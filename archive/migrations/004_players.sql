-- 004_players: what correspondence players expect (issue 12): private
-- games, messages to the opponent, conditional moves, takebacks,
-- spectators.
--
-- attackers_private / defenders_private are 1 when that side's player
-- refuses spectators; message_to_* hold the opponent's message waiting for
-- the next mail to that side's player; *_conditions a player's conditional
-- moves as JSON ('' for none); takeback_by the side whose request to take
-- back its last ply stands ('' for none).
ALTER TABLE games ADD COLUMN attackers_private INTEGER NOT NULL DEFAULT 0 CHECK (attackers_private IN (0, 1));
ALTER TABLE games ADD COLUMN defenders_private INTEGER NOT NULL DEFAULT 0 CHECK (defenders_private IN (0, 1));
ALTER TABLE games ADD COLUMN message_to_attackers TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN message_to_defenders TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN attackers_conditions TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN defenders_conditions TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN takeback_by TEXT NOT NULL DEFAULT '';

-- 1 when the player chose "messages off"
ALTER TABLE players ADD COLUMN messages_off INTEGER NOT NULL DEFAULT 0 CHECK (messages_off IN (0, 1));

-- Plies undone by agreement. A takeback moves the game's last ply here, so
-- that plies stays the game as it stands, numbered 1 to ply_count; n is the
-- ply's number when it was played, undone_by the Message-ID of the mail
-- that agreed to the takeback. id keeps the order of several takebacks.
CREATE TABLE taken_back (
	id         INTEGER PRIMARY KEY,
	game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	n          INTEGER NOT NULL CHECK (n >= 1),
	move       TEXT NOT NULL,
	at         TEXT NOT NULL,
	message_id TEXT NOT NULL DEFAULT '',
	undone_at  TEXT NOT NULL,
	undone_by  TEXT NOT NULL DEFAULT ''
) STRICT;

CREATE INDEX taken_back_game ON taken_back (game_id, id);

-- Addresses that follow a game they do not play in. thread is the
-- Message-ID of the spectator's own "watch" mail, which the spectator's
-- mails answer; it never holds a player's key.
CREATE TABLE spectators (
	game_id      TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	address      TEXT NOT NULL,
	results_only INTEGER NOT NULL DEFAULT 0 CHECK (results_only IN (0, 1)),
	thread       TEXT NOT NULL DEFAULT '',
	created_at   TEXT NOT NULL,
	PRIMARY KEY (game_id, address)
) STRICT, WITHOUT ROWID;

CREATE INDEX spectators_address ON spectators (address);
