package server

// catalogTournamentEN holds the English texts of tournaments and ratings
// (tournament*.go, rating.go, cmd_tournaments.go, cmd_join.go,
// cmd_withdraw.go, cmd_standings.go, cmd_rating.go); init adds them to
// catalogEN, so they are part of it for tr and TestCatalogs.
var catalogTournamentEN = map[string]string{
	"help.tournaments.usage": "tournaments",
	"help.tournaments.what":  "the tournaments you may join, and those running",
	"help.join.usage":        "join ID",
	"help.join.what":         "enter the tournament ID (asks for a confirmation from your address)",
	"help.withdraw.usage":    "withdraw ID",
	"help.withdraw.what":     "leave the tournament ID (asks for a confirmation: it cannot be undone)",
	"help.standings.usage":   "standings ID",
	"help.standings.what":    "the crosstable of the tournament ID",
	"help.rating.usage":      "rating [variant]",
	"help.rating.what":       "your Glicko-2 ratings, or one with its history",

	"err.tournament.unknown": "There is no tournament %s; \"tournaments\" lists those you may join.",
	"result.none":            "no result",
	"reason.annulled":        "the game was annulled: a player withdrew from the tournament",
	"reason.withdrawal":      "the %s withdrew from the tournament",

	"tournament.standing":            "%s: you have %s points from %d of your %d games, place %s of %d (Sonneborn–Berger %s). Send \"standings %s\" for the crosstable.",
	"tournament.ratings":             "Ratings in %s now (Glicko-2):",
	"tournament.variant":             "Variant: %s.",
	"tournament.format.pairs":        "Format: round robin, a match of two games against each opponent, one with each side, started together.",
	"tournament.format.single":       "Format: round robin, one game against each opponent, sides balanced.",
	"tournament.format.groups":       "Played in %d groups, seeded by rating.",
	"tournament.rated":               "The games are rated (Glicko-2).",
	"tournament.unrated":             "The games are not rated.",
	"tournament.leave":               "Leave: up to %d days a year count in these games.",
	"tournament.final":               "The tournament %s is over: all %d games have ended. The final standings:",
	"tournament.records.attached":    "The records of all %d games are attached: %s, in taflmail's record format. \"taflmail standings\" and \"taflmail ratings\" read it; \"taflmail convert --to otg --game N\" writes game N for OpenTafl, which takes one game a file.",
	"tournament.records.large":       "The records of all games (%d KB) are larger than this referee attaches to a mail; the director has them (taflmail tournament export %s).",
	"tournament.records.unavailable": "The records could not be written; the director can export them (taflmail tournament export %s).",
	"tournament.cancelled":           "The tournament %s cannot start: %d players entered, it needs %d. It is cancelled.",
	"tournament.status.created":      "taking entries",
	"tournament.status.running":      "running",
	"tournament.status.finished":     "finished",
	"tournament.status.cancelled":    "cancelled",
	"subject.final":                  "%s: final standings",
	"subject.start":                  "%s starts: your games",
	"subject.cancelled":              "%s is cancelled",
	"subject.start.watch":            "%s starts: its games",

	"start.intro":      "The tournament %s (%s) starts now: %d players, %d games, all started at once.",
	"start.group":      "You play in group %d of %d (%d players).",
	"start.list":       "Your %d games:",
	"start.vs":         "vs %s",
	"start.first.you":  "you move first",
	"start.first.them": "your opponent moves first",
	"start.how":        "To play a game, send your move in a mail whose subject is that game's tag line [taflmail …] (copy it), or reply to this mail keeping only that game's tag line. From then on every mail about a game carries its tag; replying to it is enough. The clocks of all your games run from now.",

	"start.watch.list":  "Its %d games, all running from now (game, round, attackers vs defenders); you get a mail after every move of each:",
	"start.watch.group": "Group %d:",
	"start.watch.more":  "… and %d more games; send \"standings %s\" for the crosstable.",

	"withdraw.told.lost":     "%s withdrew from %s: this game is lost for them.",
	"withdraw.told.annulled": "%s withdrew from %s before finishing half of their games: this game is annulled, as are all their games.",

	"tournaments.none":           "No tournament takes entries or is running just now.",
	"tournaments.open.header":    "Tournaments you may join:",
	"tournaments.open":           "%s, %s; starts %s, entries close %s; %d players so far. To enter: join %s",
	"tournaments.running.header": "Tournaments running:",
	"tournaments.running":        "%s, %s. Standings: standings %s",

	"err.join.started":    "%s takes no more entries: it has started, or is over.",
	"err.join.invitation": "%s is by invitation: its director names the players.",
	"err.join.closed":     "Entries to %s closed on %s.",
	"err.join.twice":      "You are already entered in %s. To leave it: withdraw %s",
	"err.join.full":       "%s is full: it takes at most %d players.",
	"join.ask":            "You asked to enter %s (it starts on %s; entries close on %s). You are entered only once you confirm from this address: until then nothing binds you.",
	"join.confirm":        "To enter, reply with this line before entries close:\n    join %s confirm %s\nIf you did not ask to enter, ignore this mail: nothing happens.",
	"err.join.key":        "That is not the key of your request to enter %s. The mail that asked you to confirm gives it; \"join %s\" sends it again.",
	"join.done":           "You are entered in %s. It starts on %s; entries close on %s. %d players so far.",
	"join.withdraw":       "On the start day you get one mail listing all your games. To leave before then: withdraw %s",

	"err.withdraw.notin":     "You are not a player of %s.",
	"err.withdraw.over":      "%s is over; nobody can withdraw from it any more.",
	"err.withdraw.key":       "That is not the key of your entry in %s. The mail that asked you to confirm gives it.",
	"withdraw.confirm":       "This cannot be undone. To withdraw, reply with this line:\n    withdraw %s confirm %s",
	"withdraw.what.entry":    "Withdrawing from %s before it starts takes your name off the list of players.",
	"withdraw.what.annulled": "You would withdraw from %s having finished %d of your %d games, fewer than half: all your games would be annulled (removed from every score) and your running games ended without a result.",
	"withdraw.what.lost":     "You would withdraw from %s having finished %d of your %d games, at least half: your finished games stand and every game still running is lost.",
	"withdraw.done.entry":    "You have withdrawn from %s.",
	"withdraw.done.annulled": "You have withdrawn from %s having finished %d of your %d games: all your games are annulled. Your opponents have been told.",
	"withdraw.done.lost":     "You have withdrawn from %s having finished %d of your %d games: your running games are lost. Your opponents have been told.",

	"standings.header":    "%s (%s), %s.",
	"standings.noentries": "(nobody has entered yet)",

	"crosstable.place":              "Place",
	"crosstable.player":             "Player",
	"crosstable.points":             "Pts",
	"crosstable.sb":                 "S–B",
	"crosstable.wins":               "W",
	"crosstable.games":              "Games",
	"crosstable.noevent":            "(no event)",
	"crosstable.group":              "%s, group %d",
	"crosstable.withdrawn.lost":     "Withdrawn, unfinished games lost: ",
	"crosstable.withdrawn.annulled": "Withdrawn, games annulled: ",
	"crosstable.finished":           "%d of %d games finished.",

	"rating.none":         "You have no rated games yet. A new player starts at 1500 (RD 350).",
	"rating.none.variant": "You have no rated games of %s yet. A new player starts at 1500 (RD 350).",
	"rating.header":       "Your ratings (Glicko-2; the RD grows while you do not play):",
	"rating.line":         "%.1f  RD %.1f  volatility %.6f  %d rated games, the last ended %s",
	"rating.variant":      "Your rating in %s: %.1f, RD %.1f, volatility %.6f, %d rated games.",
	"rating.history":      "Your rated games, newest first (rating before → after):",
	"rating.more":         "(and %d earlier games)",
	"rating.won":          "won",
	"rating.drawn":        "drawn",
	"rating.lost":         "lost",
	"rating.new":          "no rating yet (1500)",
	"rating.after":        "Your rating in %s is now %.1f (RD %.1f) after %d rated games.",

	"invite.ratings": "Ratings in this variant: you %s, %s %s.",
	"invite.rated":   "This game is rated (Glicko-2): accepting the challenge agrees to that.",
	"games.ratings":  "Your ratings: %s.",
	"game.event":     ", %s, round %s",
}

func init() {
	for k, v := range catalogTournamentEN {
		catalogEN[k] = v
	}
}
