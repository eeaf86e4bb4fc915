package catalog

// catalogConsentDE holds the German texts of consent (issue 18), under
// the same keys as catalogConsentEN; init adds them to catalogDE.
var catalogConsentDE = map[string]string{
	"confirm.watch":               "Jemand hat von dieser Adresse aus, vielleicht du, darum gebeten, der Partie %s (%s gegen %s) zuzuschauen: du bekämst nach jedem Zug eine Mail mit dem Brett.",
	"confirm.watch.results":       "Jemand hat von dieser Adresse aus, vielleicht du, um das Ergebnis der Partie %s (%s gegen %s) gebeten: du bekämst eine Mail, wenn sie endet.",
	"confirm.watch.event":         "Jemand hat von dieser Adresse aus, vielleicht du, darum gebeten, %s (%s) zu verfolgen: du bekämst nach jedem Zug jeder seiner Partien eine Mail.",
	"confirm.watch.event.results": "Jemand hat von dieser Adresse aus, vielleicht du, um die Ergebnisse von %s (%s) gebeten: du bekämst eine Mail, wenn eine seiner Partien endet.",
	"confirm.notify":              "Jemand hat von dieser Adresse aus, vielleicht du, um \"%s\" gebeten: wie du von den Zügen deiner Gegner hören würdest. Du spielst hier keine Partie, darum wartet es auf dein Wort.",
	"confirm.unblock":             "Jemand hat von dieser Adresse aus, vielleicht du, darum gebeten, deine Sperre (\"sperren\") aufzuheben: du bekämst wieder Einladungen zu Partien und Bitten wie diese.",
	"confirm.how":                 "Es geschieht nichts, solange du es nicht bestätigst, indem du mir diese Zeile schickst (eine Antwort auf diese Mail mit ihr genügt):\n\n    %s\n\nWenn du nicht darum gebeten hast, beachte diese Mail nicht: es ist die einzige, die du dazu bekommst, und ihr Schlüssel verfällt am %s.",
	"confirm.block":               "Wenn du von mir gar keine Einladungen zu Partien und keine Bitten wie diese mehr bekommen willst, antworte \"sperren\".",
	"err.confirm.key":             "Dieser Schlüssel bestätigt keine Bitte von dir um \"%s\": er ist nicht der, den ich dir geschickt habe, er wurde schon benutzt, oder er ist verfallen (ein Schlüssel gilt %d Tage). Schicke die Zeile aus meiner Mail, die dich um Bestätigung bat; ist sie verfallen, bringt dir \"%s\" einen neuen.",

	"block.done":         "Ab jetzt schicke ich dir keine Einladungen zu Partien und keine Bitten um Bestätigung, die jemand anderes in deinem Namen gestellt haben könnte. Das gilt auch für dein eigenes \"zuschauen\", \"anmelden\" und (solange du keine Partie spielst) \"benachrichtigung\" ohne Schlüssel: Ich kann sie von gefälschten nicht unterscheiden, darum bleiben sie unbeantwortet, solange die Sperre gilt. Deine anderen Mails beantworte ich wie bisher, und die Mails deiner Partien gehen weiter. Rückgängig machen: \"entsperren\".",
	"block.already":      "Du hast Einladungen und Bitten um Bestätigung schon gesperrt, darum bleiben auch dein eigenes \"zuschauen\", \"anmelden\" und \"benachrichtigung\", die eine Bestätigung brauchen, unbeantwortet. Rückgängig machen: \"entsperren\".",
	"unblock.not":        "Du hast nichts gesperrt: Einladungen und Bitten um Bestätigung erreichen dich.",
	"unblock.done":       "Einladungen zu Partien und Bitten um Bestätigung erreichen dich wieder; \"sperren\" hält sie auf.",
	"err.invite.blocked": "%s nimmt keine Einladungen von mir an: von dort kam \"sperren\".",
	"err.invite.once":    "%s hat mir noch nie geschrieben, und eine Adresse, die mir nie geschrieben hat, bekommt von mir eine Einladung, und die hatte sie schon. Bitte darum, dass sie darauf antwortet oder mir zuerst schreibt.",
	"invite.block":       "Wenn du nicht spielen willst, antworte \"ablehnen\" oder beachte diese Mail nicht. Wenn du von mir gar keine Einladungen bekommen willst, antworte \"sperren\".",

	"syntax.confirmkey": "der Schlüssel, den ich dir geschickt habe",

	"help.block.usage": "sperren / entsperren",
	"help.block.what":  "keine Einladungen und keine Bitten um Bestätigung, die andere in deinem Namen stellen / sie wieder zulassen",
}

func init() {
	for k, v := range catalogConsentDE {
		catalogDE[k] = v
	}
}
