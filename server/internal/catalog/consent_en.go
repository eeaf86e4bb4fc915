package catalog

// catalogConsentEN holds the English texts of consent (issue 18,
// server/consent.go, cmd_block.go): the requests to confirm, "block" and
// "unblock", the refusals of invitations; init adds them to catalogEN,
// so they are part of it for Text and TestCatalogs.
var catalogConsentEN = map[string]string{
	"confirm.watch":               "Someone asked from this address, perhaps you, to watch game %s (%s against %s): you would get a mail with the board after every move.",
	"confirm.watch.results":       "Someone asked from this address, perhaps you, to watch game %s (%s against %s) for its result: you would get one mail when it ends.",
	"confirm.watch.event":         "Someone asked from this address, perhaps you, to follow %s (%s): you would get a mail after every move of each of its games.",
	"confirm.watch.event.results": "Someone asked from this address, perhaps you, to follow the results of %s (%s): you would get one mail when each of its games ends.",
	"confirm.notify":              "Someone asked from this address, perhaps you, for \"%s\": how you would hear of your opponents' moves. You play no game here, so it waits for your word.",
	"confirm.unblock":             "Someone asked from this address, perhaps you, to undo your \"block\": you would get invitations to games and requests like this one again.",
	"confirm.how":                 "Nothing happens unless you confirm it by sending me this line (a reply to this mail with it will do):\n\n    %s\n\nIf you did not ask for it, ignore this mail: it is the only one you get about it, and its key expires on %s.",
	"confirm.block":               "To get no invitations to games and no requests like this one from me at all, reply \"block\".",
	"err.confirm.key":             "This key does not confirm a request of yours for \"%s\": it is not the key I mailed you, it was used already, or it has expired (a key holds for %d days). Send the line of my mail that asked you to confirm; once that has expired, \"%s\" gets you a new one.",

	"block.done":         "From now on I send you no invitations to games and no requests to confirm that someone else may have made in your name. That includes your own \"watch\", \"join\" and (while you play no game) \"notify\" without a key: I cannot tell them from forged ones, so they get no answer while the block lasts. Your other mails are answered as before, and the mails of your games go on. To undo it, send \"unblock\".",
	"block.already":      "You blocked invitations and requests to confirm already, so your own \"watch\", \"join\" and \"notify\" that need a confirmation get no answer either. To undo it, send \"unblock\".",
	"unblock.not":        "You have not blocked anything: invitations and requests to confirm reach you.",
	"unblock.done":       "Invitations to games and requests to confirm reach you again; \"block\" stops them.",
	"err.invite.blocked": "%s takes no invitations from me: they sent \"block\".",
	"err.invite.once":    "%s has never written to me, and an address that never wrote to me gets one invitation from me, which it has had. Ask them to answer it, or to write to me first.",
	"invite.block":       "If you do not want to play, reply \"decline\" or ignore this mail. To get no invitations from me at all, reply \"block\".",

	"syntax.confirmkey": "the key I mailed you",

	"help.block.usage": "block / unblock",
	"help.block.what":  "no invitations and no requests to confirm that others made in your name / let them come again",
}

func init() {
	for k, v := range catalogConsentEN {
		catalogEN[k] = v
	}
}
