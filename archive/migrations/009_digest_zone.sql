-- 009_digest_zone: the daily digest in the player's own time zone
-- ("notify digest 07:30 Europe/Berlin", issue 12).
--
-- players.digest_zone is the IANA name of the time zone in which
-- digest_at (005) is the time of day, e.g. 'Europe/Berlin'; '' is UTC,
-- which is what every row written before this migration meant. It is ''
-- whenever digest_at is NULL ("notify each"). digest_due stays an instant
-- in UTC: the referee works it out from digest_at in that zone, across
-- the zone's changes of daylight saving time.
ALTER TABLE players ADD COLUMN digest_zone TEXT NOT NULL DEFAULT '' CHECK (digest_zone = '' OR digest_at IS NOT NULL);
