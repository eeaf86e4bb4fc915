// Package publicname is the referee's public name feature (issue 20,
// docs/commands.md): the "name" command, with which a player asks under
// which name the club's web pages show them, chooses a public name
// (club.CheckPublicName's form, unique among the players) or goes back
// to the pseudonym, and the module that writes the choice with the
// mail's change.
//
// It is a module of the core, server/internal/referee: server's assembly
// hands Module to the core (referee.Modules) and imports the package, so
// its init registers "name" with referee.Handle. It reads the archive
// only through the core's optional port referee.PublicNameStore
// (Server.NamePort) and writes through the change the core commits. It
// names no other feature.
//
// # Files
//
// Every non-test file of the package, one line each; a test
// (server/doc_test.go) fails when a file is missing here or named here
// but gone.
//
//   - doc.go: this map.
//   - cmd_name.go: "name": showing, choosing and clearing the sender's public name; Module, its state and its Collect hook.
package publicname
