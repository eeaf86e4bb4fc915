-- 011_public_names: the name under which a player appears on the club's
-- web pages (issue 20), chosen by mail ("name Ada Lovelace"); '' for
-- none, when the pages show a pseudonym derived from the address with
-- the key below. public_fold is the name folded to lower case with its
-- blanks collapsed, the archive's own form for the uniqueness check:
-- two players never share a name, however they write it.
ALTER TABLE players ADD COLUMN public_name TEXT NOT NULL DEFAULT '';
ALTER TABLE players ADD COLUMN public_fold TEXT NOT NULL DEFAULT '';
CREATE UNIQUE INDEX players_public_fold ON players (public_fold) WHERE public_fold <> '';

-- Secrets of this archive that never leave it. 'pseudonym' is the key of
-- the HMAC that turns a mail address into a pseudonym: without it nobody
-- can try addresses until one gives a pseudonym seen on a page. 32
-- random bytes (SQLite's randomblob, seeded from the operating system).
CREATE TABLE site_keys (
	name TEXT PRIMARY KEY,
	key  BLOB NOT NULL CHECK (length(key) >= 16)
) STRICT;
INSERT INTO site_keys (name, key) VALUES ('pseudonym', randomblob(32));
