-- 007_tournaments: correspondence tournaments and Glicko-2 ratings
-- (CORRESPONDENCE.md §6–§7, issue 11).
--
-- A tournament is created by its director (`taflmail tournament create`)
-- in status 'created' and takes entries until it starts; starting it
-- creates every game at once ('running'); the transaction that ends its
-- last game sets 'finished'. An event that cannot start on its start date
-- (too few entries) is 'cancelled'. id is the director's id
-- ("winter-2027"), name what records carry as their Event tag. groups is
-- 1 for a single round robin, more for a round robin in groups seeded by
-- rating (§6.2); games_per_pairing 2 (a match, Decision T1) or 1.
-- start_date, entry_closes: whole UTC days, YYYY-MM-DD (entry_closes NULL
-- without open entry: the director named every player). leave_days is
-- the leave each player may take per calendar year in the event's games
-- (§3.1: fewer than the server's, or none). version is the optimistic
-- concurrency counter, bumped by every write of the row: every change
-- that ends a game of the event writes it, so two changes that could both
-- end the event's last game cannot both commit.
CREATE TABLE tournaments (
	id                TEXT PRIMARY KEY,
	name              TEXT NOT NULL,
	variant           TEXT NOT NULL,
	time_control      TEXT NOT NULL,
	groups            INTEGER NOT NULL DEFAULT 1 CHECK (groups >= 1),
	games_per_pairing INTEGER NOT NULL CHECK (games_per_pairing IN (1, 2)),
	start_date        TEXT NOT NULL,
	rated             INTEGER NOT NULL CHECK (rated IN (0, 1)),
	leave_days        INTEGER NOT NULL CHECK (leave_days >= 0),
	open_entry        INTEGER NOT NULL CHECK (open_entry IN (0, 1)),
	entry_closes      TEXT,
	status            TEXT NOT NULL CHECK (status IN ('created', 'running', 'finished', 'cancelled')),
	version           INTEGER NOT NULL CHECK (version >= 1),
	created_at        TEXT NOT NULL,
	started_at        TEXT,
	finished_at       TEXT
) STRICT;

-- the scheduler's question: which events are due to start
CREATE INDEX tournaments_start ON tournaments (start_date) WHERE status = 'created';

-- The players of a tournament. seq is the order of entry; section (the
-- group, 1-based) and number (the Berger number in it) are set when the
-- event starts, 0 before; rating is the rating the player was seeded
-- with. key is the entry's secret (ten characters, as a game's key): the
-- mail that asks a player to confirm a withdrawal carries it, so a forged
-- sender cannot withdraw anybody. withdrawn_at is when the player
-- withdrew or was removed; annulled is 1 when that happened with fewer
-- than half of their games finished (Decision T3: every game of theirs
-- annulled).
CREATE TABLE entries (
	tournament_id TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
	player        TEXT NOT NULL,
	seq           INTEGER NOT NULL,
	key           TEXT NOT NULL,
	section       INTEGER NOT NULL DEFAULT 0 CHECK (section >= 0),
	number        INTEGER NOT NULL DEFAULT 0 CHECK (number >= 0),
	rating        REAL NOT NULL DEFAULT 0,
	joined_at     TEXT NOT NULL,
	withdrawn_at  TEXT,
	annulled      INTEGER NOT NULL DEFAULT 0 CHECK (annulled IN (0, 1)),
	PRIMARY KEY (tournament_id, player)
) STRICT, WITHOUT ROWID;

CREATE INDEX entries_player ON entries (player);

-- Where the schedule puts each game of a tournament: its group, the
-- round and board of the Berger table, and its number in a match of two
-- games (1 or 2; 1 with one game per pairing). games.tournament_id names
-- the event as well.
CREATE TABLE pairings (
	game_id       TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
	tournament_id TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
	section       INTEGER NOT NULL CHECK (section >= 1),
	round         INTEGER NOT NULL CHECK (round >= 1),
	board         INTEGER NOT NULL CHECK (board >= 1),
	match_game    INTEGER NOT NULL CHECK (match_game IN (1, 2))
) STRICT;

CREATE INDEX pairings_tournament ON pairings (tournament_id, section, round, board, match_game);

-- games.rated is 1 for a game that counts for the ratings: a game of a
-- rated tournament, or a casual game both players agreed to rate ("new …
-- rated", §7.3).
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));

-- Every rated game, in the order the referee rated it (seq): the order of
-- rating is the order the games ended (ended_at, Decision R1: the end of
-- the game's record, tournament.GameEnd), seq deciding between games that
-- ended at the same instant. A game that ended before one already rated
-- makes the referee rate its variant again from these rows.
CREATE TABLE rated_games (
	seq       INTEGER PRIMARY KEY,
	game_id   TEXT NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE,
	variant   TEXT NOT NULL,
	attackers TEXT NOT NULL,
	defenders TEXT NOT NULL,
	result    TEXT NOT NULL CHECK (result IN ('attackers', 'defenders', 'draw')),
	ended_at  TEXT NOT NULL
) STRICT;

CREATE INDEX rated_games_variant ON rated_games (variant, ended_at, seq);

-- A player's rating in one variant (Decision R1) after their last rated
-- game: rating, rd (rating deviation) and volatility as Glicko-2 writes
-- them (the RD has not grown for the idle time since last_end; whoever
-- shows it applies that), games the number of rated games.
CREATE TABLE ratings (
	player     TEXT NOT NULL,
	variant    TEXT NOT NULL,
	rating     REAL NOT NULL,
	rd         REAL NOT NULL,
	volatility REAL NOT NULL,
	games      INTEGER NOT NULL CHECK (games >= 1),
	last_end   TEXT NOT NULL,
	PRIMARY KEY (player, variant)
) STRICT, WITHOUT ROWID;

-- A row per player and rated game, n = 1, 2, … in the order rated: the
-- game, when it ended, the opponent, the player's side and score, the RD
-- growth steps before it, and the rating before (after the idle growth)
-- and after.
CREATE TABLE rating_history (
	player            TEXT NOT NULL,
	variant           TEXT NOT NULL,
	n                 INTEGER NOT NULL CHECK (n >= 1),
	game_id           TEXT NOT NULL,
	ended_at          TEXT NOT NULL,
	opponent          TEXT NOT NULL,
	side              TEXT NOT NULL CHECK (side IN ('attackers', 'defenders')),
	score             REAL NOT NULL CHECK (score IN (0, 0.5, 1)),
	idle_periods      INTEGER NOT NULL CHECK (idle_periods >= 0),
	rating_before     REAL NOT NULL,
	rd_before         REAL NOT NULL,
	volatility_before REAL NOT NULL,
	rating            REAL NOT NULL,
	rd                REAL NOT NULL,
	volatility        REAL NOT NULL,
	PRIMARY KEY (player, variant, n)
) STRICT, WITHOUT ROWID;
