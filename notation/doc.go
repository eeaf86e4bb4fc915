// Package notation connects the grammar's syntax trees to the engine:
// OTN position and rules strings both ways (OTN spec §1 and §3; RULES.md
// §0 and §2 tier 2), replaying game records of every format through the
// engine with every check RULES.md §4 asks for, writing records back as
// canonical native records, OpenTafl records and CSV lines, and board
// diagrams (ASCII for mail, Unicode for terminals; the SVG and PNG
// pictures are in the subpackage notation/picture, so that the mail
// referee does not link a drawing library).
//
// Files: position.go (OTN position records), rules.go (OTN rules strings
// and engine.Variant), game.go (Game: a record of any format, ReadGames),
// scan.go (ScanGames: the games of a file one at a time, a CSV file in
// the memory of one game), replay.go (Game.Replay and its checks), write.go (the writers), error.go
// (the package's one error type, *Error), diagram.go (boards as text, and
// the options every board writer takes).
//
// docs/notation.md documents the formats and the choices made where OTN
// and the engine disagree; docs/corpus.md what the replay finds in
// shared/records. Square names and OTN conventions follow RULES.md §0.
package notation
