// Package archive is taflmail's durable store: games and their plies,
// players, the mails already processed, the outbox of replies still to
// send, and the IMAP position of each watched mailbox.
//
// It keeps everything in one SQLite file (modernc.org/sqlite, no cgo) in
// WAL mode, so readers never wait for the writer. The schema comes from the
// numbered files in migrations/, applied by [Open]; docs/archive.md
// describes the tables and how clocks, tournaments, ratings and spectators
// fit into them later.
//
// The referee works mail by mail: it asks [Store.Processed] whether a mail
// was seen before, reads the game with [Store.Game], decides, and writes the
// outcome with one [Store.Commit]. Commit records the mail's Message-ID, the
// game, the new plies, the players and the replies to send in a single
// transaction, so a mail is either fully handled or not at all, and a mail
// delivered twice is refused with [ErrDuplicate]. A change too large to
// hold at once (a tournament's start) is written in parts through one
// transaction with [Store.WriteBatch]. The sender then drains
// [Store.PendingOutbox] and reports back with [Store.MarkSent],
// [Store.MarkRetry] or [Store.MarkFailed].
//
// Every error is an [*Error]; [ErrDuplicate], [ErrConflict], [ErrNotFound],
// [ErrInvalid] and [ErrUnavailable] are matched with errors.Is. Times are
// stored in UTC with nanosecond precision and come back in UTC.
package archive
