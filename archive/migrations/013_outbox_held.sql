-- 013_outbox_held: a reply that a later one may take the place of
-- (issue 22 §5). The reply to a player's move against the engine waits a
-- few seconds in the outbox (next_attempt) for the engine's answer; when
-- that answer is committed while the reply is still pending and claimed
-- by no sender, the answer's mail says both plies and the reply is
-- deleted in the same transaction, so the player gets one mail. held_for
-- names what the reply waits for (the engine's timer key, "ply 4
-- engine"; '' for a mail that waits for nothing); carry is the text of
-- the reply that the mail taking its place repeats.
ALTER TABLE outbox ADD COLUMN held_for TEXT NOT NULL DEFAULT '';
ALTER TABLE outbox ADD COLUMN carry TEXT NOT NULL DEFAULT '';
CREATE INDEX outbox_held ON outbox (game_id, held_for) WHERE held_for <> '';
