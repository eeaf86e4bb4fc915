package referee

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/taflmail/taflmail/grammar"
)

// The registry ties each mail command of the grammar to the code that runs
// it and to its lines in the help overview. Every cmd_*.go file registers
// its own commands in an init function, the core's here:
//
//	func init() {
//		Handle("board", (*Session).board)
//		HelpLine(40, "help.board")
//	}
//
// and a feature's in package server, with a function taking the session:
//
//	func init() {
//		referee.Handle("watch", watch)
//		referee.HelpLine(63, "help.watch")
//	}
//
// so a new command is its grammar struct, one cmd_*.go file with its test,
// its catalogue keys and its row in docs/commands.md (docs/architecture.md,
// "Where to change what"). TestRegistry checks that every command of the
// grammar has a handler.

// command is how the referee runs one kind of grammar command.
type command struct {
	// Name is the command's name in `taflmail inspect`: "move", "offer draw".
	Name string
	// run runs the command for the mail's sender (ss.From). It returns nil
	// when the command was carried out, a *refusal when it is refused
	// (its words, written by run, go to the sender; nothing the command
	// did is kept), and any other error for a failure of the referee
	// itself.
	run func(ss *Session, c grammar.Command) error
}

// Commands maps the dynamic type of a grammar.Command (*grammar.BoardCommand)
// to how it is run.
var Commands = map[reflect.Type]command{}

// Handle registers run as the handler of the grammar command type C under
// name (see command). It is called from init functions and panics when C
// already has a handler: a programming error every test finds.
func Handle[C grammar.Command](name string, run func(ss *Session, c C) error) {
	t := reflect.TypeFor[C]()
	if _, dup := Commands[t]; dup {
		panic(fmt.Sprintf("server: two handlers for %v", t))
	}
	Commands[t] = command{Name: name, run: func(ss *Session, c grammar.Command) error { return run(ss, c.(C)) }}
}

// helpEntry is one line of the help overview: key+".usage", the command
// as written, then key+".what", what it does, when the catalogue has such a
// key.
type helpEntry struct {
	Rank int    // place in the overview, lowest first
	Key  string // the catalogue key the line's texts are under: "help.name"
}

// HelpEntries are the lines of the help overview, in registration order.
var HelpEntries []helpEntry

// HelpLine registers a line of the help overview at rank (lowest first)
// for the catalogue keys key+".usage" and, if present, key+".what".
func HelpLine(rank int, key string) {
	HelpEntries = append(HelpEntries, helpEntry{Rank: rank, Key: key})
}

// SortedHelp returns the help entries by rank.
func SortedHelp() []helpEntry {
	es := slices.Clone(HelpEntries)
	slices.SortStableFunc(es, func(a, b helpEntry) int { return a.Rank - b.Rank })
	return es
}

// dispatch runs one parsed command through its registered handler.
func (ss *Session) dispatch(l CommandLine) error {
	c, ok := Commands[reflect.TypeOf(l.cmd)]
	if !ok {
		return fmt.Errorf("server: unhandled command %T", l.cmd)
	}
	return c.run(ss, l.cmd)
}

// CommandName names a command for inspect's output: its registered name,
// or "unknown".
func CommandName(c grammar.Command) string {
	if e, ok := Commands[reflect.TypeOf(c)]; ok {
		return e.Name
	}
	return "unknown"
}
