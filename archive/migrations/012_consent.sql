-- 012_consent: nobody is mailed who did not ask (issue 18 §1).
--
-- A mail's From can be forged, so a request that makes the referee mail
-- an address again and again ("watch GAME" for a spectator's mail per
-- ply, "watch EVENT", "notify digest" of an address that plays no game,
-- "unblock") takes effect only when that address confirms it from its
-- own mailbox. The referee mails the address once, with a key of its
-- own, and keeps the request here until a mail from the address brings
-- the key back, one row per address and request (what: 'watch K7QX2M',
-- 'watch cup-27', 'notify', 'unblock'). request is the command line
-- that the confirmation carries out, as the referee wrote it ('watch
-- K7QX2M results', 'notify digest 07:30 Europe/Berlin'); key the
-- ten-character secret; asked_at when the request was mailed;
-- expires_at when the key stops working (a week later: an unconfirmed
-- request sends nothing more and simply lapses); confirmed_at when it was
-- confirmed, NULL while it waits. The rows of the last day count the
-- requests mailed to an address, which are capped per day; rows past
-- their expiry are deleted when new ones are written.
CREATE TABLE confirmations (
	address      TEXT NOT NULL,
	what         TEXT NOT NULL,
	request      TEXT NOT NULL,
	key          TEXT NOT NULL,
	asked_at     TEXT NOT NULL,
	expires_at   TEXT NOT NULL,
	confirmed_at TEXT,
	PRIMARY KEY (address, what)
) STRICT, WITHOUT ROWID;

CREATE INDEX confirmations_expiry ON confirmations (expires_at);

-- players.blocked: the address wrote "block": the referee sends it no
-- invitation to a game and no request to confirm that someone else may
-- have made in its name, until it confirms "unblock".
ALTER TABLE players ADD COLUMN blocked INTEGER NOT NULL DEFAULT 0 CHECK (blocked IN (0, 1));

-- players.proved_at: when a mail from the address first carried a key
-- the referee had mailed to that address alone (a player's key for a
-- game, the key of a confirmation): from then on the referee knows that
-- mail from it is read there. An address that never proved itself gets
-- at most one invitation to a game. NULL: never.
ALTER TABLE players ADD COLUMN proved_at TEXT;

-- Every address that sent a mail with its key before this migration has
-- proved itself then.
INSERT INTO players (address, created_at, proved_at)
SELECT sender, MIN(at), MIN(at) FROM processed_mails WHERE authenticated = 1 GROUP BY sender
ON CONFLICT (address) DO UPDATE SET proved_at = excluded.proved_at;
