-- 006_engine: games against the engine opponent (issue 13, docs/engine.md
-- "Playing the engine by mail").
--
-- games.engine_level is the engine's level (search.Level, 1 to 5) in a
-- game against the engine, 0 in a game between two people. The engine
-- plays under a reserved address that receives no mail (server.EngineAddress).
ALTER TABLE games ADD COLUMN engine_level INTEGER NOT NULL DEFAULT 0 CHECK (engine_level >= 0);

-- The timers gain a third kind, 'engine': the engine's reply is due (its
-- move, or its answer to a draw offer). SQLite cannot change a CHECK
-- constraint, so the table is built again with the same rows.
CREATE TABLE timers_new (
	game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	key     TEXT NOT NULL,
	kind    TEXT NOT NULL CHECK (kind IN ('reminder', 'deadline', 'engine')),
	ply     INTEGER NOT NULL CHECK (ply >= 1),
	due     TEXT NOT NULL,
	done    TEXT,
	PRIMARY KEY (game_id, key)
) STRICT, WITHOUT ROWID;

INSERT INTO timers_new (game_id, key, kind, ply, due, done) SELECT game_id, key, kind, ply, due, done FROM timers;
DROP TABLE timers;
ALTER TABLE timers_new RENAME TO timers;

-- the pending timers by due time, as in 003_clock
CREATE INDEX timers_due ON timers (due) WHERE done IS NULL;
