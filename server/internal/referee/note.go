package referee

import "github.com/taflmail/taflmail/archive"

// Note is one reply being composed for one recipient.
type Note struct {
	To   string // the recipient's address
	Lang string // the reply's language
	// Game is the game the reply is about (its subject, its thread, its
	// board), nil for a reply about none.
	Game *Table
	// Subject is the reply's subject when it is not the game's.
	Subject string
	// Sections are the reply's paragraphs, in order, each a text of the
	// note's language without the greeting and the board.
	Sections []string
	// Headers are extra header fields of the mail, e.g. List-Unsubscribe
	// on the confirmation of "watch" (cmd_watch.go).
	Headers map[string]string
	// Routine counts the sections that only bring the news of an
	// opponent's ply (TellNews), as the digest counts them (its
	// NewsWatcher): a note of nothing else is held back for a player who
	// chose the daily digest (digest.go).
	Routine int
	// Replaces is the held reply whose place this one takes, nil for
	// none: it is threaded as that reply was (internal/opponent).
	Replaces *archive.OutboxMail
	// boards is true when a section holds the board of another game than
	// game (AddBoardOf: a game watched, answered in the thread of the
	// sender's own game): then each board of the mail is labelled with
	// its game ("board.of").
	boards bool
	// Other is the subject after the tag of a reply whose one section is
	// about another game than game (such as a game watched, answered in
	// the thread of the sender's own game): then the mail says nothing of
	// game, and its subject names what it does say. "" for none.
	Other string
}
