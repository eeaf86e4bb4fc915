// Package digest is the referee's daily digest (issue 12, "one mail a
// day"; docs/commands.md "Notifications", docs/clock.md "The daily
// digest"): "notify", with which a player chooses a mail for every ply of
// an opponent or one mail a day at a time of day and in a time zone of
// their own, the notes held back for the digest, and the digest itself,
// sent when its timer (the player's row, archive.Player.DigestDue) falls
// due, listing every game where it is the player's move.
//
// It is a module of the core, server/internal/referee: server's assembly
// hands Module to the core (referee.Modules) and imports the package, so
// its init registers "notify" with referee.Handle. It keeps no state in a
// session. It reads the clocks of the games it lists through
// internal/gameclock and delivers the messages waiting for the player
// through internal/correspondence (MessageTo, MessagesOff), both below
// it, and names no other feature; the time-zone rules are
// internal/zones'.
//
// # Files
//
// Every non-test file of the package, one line each; a test
// (server/doc_test.go) fails when a file is missing here or named here
// but gone.
//
//   - doc.go: this map.
//   - digest_zone.go: the digest in the player's time zone: the stored zone, its texts, the time of day.
//   - digest_entry.go: one game of a digest: the games in order of urgency, each game's entry.
//   - cmd_notify.go: "notify": every mail, or a daily digest at a time and zone; its refusals of a zone.
//   - digest.go: routine mails held for the digest, and the digest sent once a day.
//   - digest_module.go: Module and its hooks.
package digest
