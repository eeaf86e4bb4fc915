package server

// catalogTournamentDE holds the German texts of tournaments and ratings,
// the same keys as catalogTournamentEN; init adds them to catalogDE.
var catalogTournamentDE = map[string]string{
	"help.tournaments.usage": "turniere",
	"help.tournaments.what":  "die Turniere, zu denen du dich anmelden kannst, und die laufenden",
	"help.join.usage":        "anmelden ID",
	"help.join.what":         "dich zum Turnier ID anmelden (mit Bestätigung von deiner Adresse)",
	"help.withdraw.usage":    "abmelden ID",
	"help.withdraw.what":     "aus dem Turnier ID ausscheiden (mit Bestätigung: es lässt sich nicht rückgängig machen)",
	"help.standings.usage":   "tabelle ID",
	"help.standings.what":    "die Kreuztabelle des Turniers ID",
	"help.rating.usage":      "wertung [variante]",
	"help.rating.what":       "deine Glicko-2-Wertungszahlen, oder eine mit ihrem Verlauf",

	"err.tournament.unknown": "Es gibt kein Turnier %s; \"turniere\" nennt die, zu denen du dich anmelden kannst.",
	"result.none":            "kein Ergebnis",
	"reason.annulled":        "die Partie wurde annulliert: ein Spieler ist aus dem Turnier ausgeschieden",
	"reason.withdrawal":      "die %s sind aus dem Turnier ausgeschieden",

	"tournament.standing":            "%s: du hast %s Punkte aus %d deiner %d Partien, Platz %s von %d (Sonneborn-Berger %s). Schicke \"tabelle %s\" für die Kreuztabelle.",
	"tournament.ratings":             "Wertungszahlen in %s jetzt (Glicko-2):",
	"tournament.variant":             "Variante: %s.",
	"tournament.format.pairs":        "Modus: Rundenturnier, gegen jeden Gegner ein Wettkampf aus zwei Partien, eine mit jeder Seite, gleichzeitig begonnen.",
	"tournament.format.single":       "Modus: Rundenturnier, gegen jeden Gegner eine Partie, die Seiten ausgeglichen.",
	"tournament.format.groups":       "Gespielt in %d Gruppen, nach Wertungszahl gesetzt.",
	"tournament.rated":               "Die Partien werden gewertet (Glicko-2).",
	"tournament.unrated":             "Die Partien werden nicht gewertet.",
	"tournament.leave":               "Urlaub: bis zu %d Tage im Jahr zählen in diesen Partien.",
	"tournament.final":               "Das Turnier %s ist beendet: alle %d Partien sind zu Ende. Die Abschlusstabelle:",
	"tournament.records.attached":    "Die Aufzeichnungen aller %d Partien hängen an: %s, im Aufzeichnungsformat von taflmail. \"taflmail standings\" und \"taflmail ratings\" lesen die Datei; \"taflmail convert --to otg --game N\" schreibt Partie N für OpenTafl um, das eine Partie je Datei liest.",
	"tournament.records.large":       "Die Aufzeichnungen aller Partien (%d KB) sind größer, als dieser Schiedsrichter an eine Mail hängt; der Turnierleiter hat sie (taflmail tournament export %s).",
	"tournament.records.unavailable": "Die Aufzeichnungen konnten nicht geschrieben werden; der Turnierleiter kann sie exportieren (taflmail tournament export %s).",
	"tournament.cancelled":           "Das Turnier %s kann nicht beginnen: %d Spieler haben sich angemeldet, es braucht %d. Es fällt aus.",
	"tournament.status.created":      "Anmeldung läuft",
	"tournament.status.running":      "läuft",
	"tournament.status.finished":     "beendet",
	"tournament.status.cancelled":    "abgesagt",
	"subject.final":                  "%s: Abschlusstabelle",
	"subject.start":                  "%s beginnt: deine Partien",
	"subject.cancelled":              "%s fällt aus",
	"subject.start.watch":            "%s beginnt: seine Partien",

	"start.intro":      "Das Turnier %s (%s) beginnt jetzt: %d Spieler, %d Partien, alle gleichzeitig begonnen.",
	"start.group":      "Du spielst in Gruppe %d von %d (%d Spieler).",
	"start.list":       "Deine %d Partien:",
	"start.vs":         "gegen %s",
	"start.first.you":  "du ziehst zuerst",
	"start.first.them": "dein Gegner zieht zuerst",
	"start.how":        "Um eine Partie zu spielen, schicke deinen Zug in einer Mail, deren Betreff die Kennzeile dieser Partie [taflmail …] ist (kopiere sie), oder antworte auf diese Mail und behalte nur die Kennzeile dieser Partie. Danach trägt jede Mail zu einer Partie ihre Kennzeile; es genügt, darauf zu antworten. Die Uhren aller deiner Partien laufen ab jetzt.",

	"start.watch.list":  "Seine %d Partien, alle ab jetzt im Gang (Partie, Runde, Angreifer gegen Verteidiger); nach jedem Zug jeder von ihnen bekommst du eine Mail:",
	"start.watch.group": "Gruppe %d:",
	"start.watch.more":  "… und %d weitere Partien; schicke \"tabelle %s\" für die Kreuztabelle.",

	"withdraw.told.lost":     "%s ist aus %s ausgeschieden: diese Partie ist für ihn verloren.",
	"withdraw.told.annulled": "%s ist aus %s ausgeschieden, bevor er die Hälfte seiner Partien beendet hatte: diese Partie wird annulliert, wie alle seine Partien.",

	"tournaments.none":           "Gerade nimmt kein Turnier Anmeldungen an, und keines läuft.",
	"tournaments.open.header":    "Turniere, zu denen du dich anmelden kannst:",
	"tournaments.open":           "%s, %s; beginnt %s, Anmeldeschluss %s; bisher %d Spieler. Anmelden: anmelden %s",
	"tournaments.running.header": "Laufende Turniere:",
	"tournaments.running":        "%s, %s. Tabelle: tabelle %s",

	"err.join.started":    "%s nimmt keine Anmeldungen mehr an: es hat begonnen oder ist vorbei.",
	"err.join.invitation": "%s ist ein Einladungsturnier: der Turnierleiter bestimmt die Spieler.",
	"err.join.closed":     "Anmeldeschluss für %s war am %s.",
	"err.join.twice":      "Du bist bei %s schon angemeldet. Zum Abmelden: abmelden %s",
	"join.ask":            "Du möchtest dich bei %s anmelden (es beginnt am %s; Anmeldeschluss ist am %s). Angemeldet bist du erst, wenn du es von dieser Adresse aus bestätigst: bis dahin bindet dich nichts.",
	"join.confirm":        "Zum Anmelden antworte vor dem Anmeldeschluss mit dieser Zeile:\n    anmelden %s bestätigen %s\nWenn du dich nicht anmelden wolltest, übergehe diese Mail: dann geschieht nichts.",
	"err.join.key":        "Das ist nicht der Schlüssel deiner Anmeldung zu %s. Die Mail, die um Bestätigung bat, nennt ihn; \"anmelden %s\" schickt ihn noch einmal.",
	"join.done":           "Du bist bei %s angemeldet. Es beginnt am %s; Anmeldeschluss ist am %s. Bisher %d Spieler.",
	"join.withdraw":       "Am ersten Turniertag bekommst du eine Mail mit allen deinen Partien. Um dich vorher abzumelden: abmelden %s",

	"err.withdraw.notin":     "Du spielst nicht in %s.",
	"err.withdraw.over":      "%s ist vorbei; niemand kann mehr ausscheiden.",
	"err.withdraw.key":       "Das ist nicht der Schlüssel deiner Anmeldung zu %s. Die Mail, die um Bestätigung bat, nennt ihn.",
	"withdraw.confirm":       "Das lässt sich nicht rückgängig machen. Um auszuscheiden, antworte mit dieser Zeile:\n    abmelden %s bestätigen %s",
	"withdraw.what.entry":    "Wenn du dich von %s vor dem Beginn abmeldest, wird dein Name von der Spielerliste gestrichen.",
	"withdraw.what.annulled": "Du würdest aus %s ausscheiden, nachdem du %d deiner %d Partien beendet hast, weniger als die Hälfte: alle deine Partien würden annulliert (aus jeder Wertung gestrichen) und deine laufenden Partien ohne Ergebnis beendet.",
	"withdraw.what.lost":     "Du würdest aus %s ausscheiden, nachdem du %d deiner %d Partien beendet hast, mindestens die Hälfte: deine beendeten Partien bleiben, und jede noch laufende Partie ist verloren.",
	"withdraw.done.entry":    "Du bist von %s abgemeldet.",
	"withdraw.done.annulled": "Du bist aus %s ausgeschieden, nachdem du %d deiner %d Partien beendet hast: alle deine Partien sind annulliert. Deine Gegner wurden benachrichtigt.",
	"withdraw.done.lost":     "Du bist aus %s ausgeschieden, nachdem du %d deiner %d Partien beendet hast: deine laufenden Partien sind verloren. Deine Gegner wurden benachrichtigt.",

	"standings.header":    "%s (%s), Stand: %s.",
	"standings.noentries": "(noch niemand angemeldet)",

	"rating.none":         "Du hast noch keine gewerteten Partien. Ein neuer Spieler beginnt mit 1500 (RD 350).",
	"rating.none.variant": "Du hast noch keine gewerteten Partien in %s. Ein neuer Spieler beginnt mit 1500 (RD 350).",
	"rating.header":       "Deine Wertungszahlen (Glicko-2; die RD wächst, solange du nicht spielst):",
	"rating.line":         "%.1f  RD %.1f  Volatilität %.6f  %d gewertete Partien, die letzte endete %s",
	"rating.variant":      "Deine Wertungszahl in %s: %.1f, RD %.1f, Volatilität %.6f, %d gewertete Partien.",
	"rating.history":      "Deine gewerteten Partien, die neueste zuerst (Wertung vorher → nachher):",
	"rating.more":         "(und %d frühere Partien)",
	"rating.won":          "gewonnen",
	"rating.drawn":        "remis",
	"rating.lost":         "verloren",
	"rating.new":          "noch keine Wertung (1500)",
	"rating.after":        "Deine Wertungszahl in %s ist jetzt %.1f (RD %.1f) nach %d gewerteten Partien.",

	"invite.ratings": "Wertungszahlen in dieser Variante: du %s, %s %s.",
	"invite.rated":   "Diese Partie wird gewertet (Glicko-2): wer die Herausforderung annimmt, stimmt dem zu.",
	"games.ratings":  "Deine Wertungszahlen: %s.",
	"game.event":     ", %s, Runde %s",
}

func init() {
	for k, v := range catalogTournamentDE {
		catalogDE[k] = v
	}
}
