package server

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/taflmail/taflmail/grammar"
)

// The registry ties each mail command of the grammar to the code that runs
// it and to its lines in the help overview. Every cmd_*.go file registers
// its own commands in an init function:
//
//	func init() {
//		handle("board", (*session).board)
//		helpLine(40, "help.board")
//	}
//
// so a new command is its grammar struct, one cmd_*.go file with its test,
// its catalogue keys and its row in docs/commands.md (docs/architecture.md,
// "Where to change what"). TestRegistry checks that every command of the
// grammar has a handler.

// command is how the referee runs one kind of grammar command.
type command struct {
	// name is the command's name in `taflmail inspect`: "move", "offer draw".
	name string
	// run runs the command for the mail's sender (ss.from). It returns nil
	// when the command was carried out, a *refusal when it is refused
	// (its words, written by run, go to the sender; nothing the command
	// did is kept), and any other error for a failure of the referee
	// itself.
	run func(ss *session, c grammar.Command) error
}

// commands maps the dynamic type of a grammar.Command (*grammar.BoardCommand)
// to how it is run.
var commands = map[reflect.Type]command{}

// handle registers run as the handler of the grammar command type C under
// name (see command). It is called from init functions and panics when C
// already has a handler: a programming error every test finds.
func handle[C grammar.Command](name string, run func(ss *session, c C) error) {
	t := reflect.TypeFor[C]()
	if _, dup := commands[t]; dup {
		panic(fmt.Sprintf("server: two handlers for %v", t))
	}
	commands[t] = command{name: name, run: func(ss *session, c grammar.Command) error { return run(ss, c.(C)) }}
}

// helpEntry is one line of the help overview: key+".usage", the command
// as written, then key+".what", what it does, when the catalogue has such a
// key.
type helpEntry struct {
	rank int // place in the overview, lowest first
	key  string
}

// helpEntries are the lines of the help overview, in registration order.
var helpEntries []helpEntry

// helpLine registers a line of the help overview at rank (lowest first)
// for the catalogue keys key+".usage" and, if present, key+".what".
func helpLine(rank int, key string) {
	helpEntries = append(helpEntries, helpEntry{rank: rank, key: key})
}

// sortedHelp returns the help entries by rank.
func sortedHelp() []helpEntry {
	es := slices.Clone(helpEntries)
	slices.SortStableFunc(es, func(a, b helpEntry) int { return a.rank - b.rank })
	return es
}

// dispatch runs one parsed command through its registered handler.
func (ss *session) dispatch(l commandLine) error {
	c, ok := commands[reflect.TypeOf(l.cmd)]
	if !ok {
		return fmt.Errorf("server: unhandled command %T", l.cmd)
	}
	return c.run(ss, l.cmd)
}

// commandName names a command for inspect's output: its registered name,
// or "unknown".
func commandName(c grammar.Command) string {
	if e, ok := commands[reflect.TypeOf(c)]; ok {
		return e.name
	}
	return "unknown"
}
