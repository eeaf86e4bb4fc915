package club

import (
	"errors"
	"fmt"
	"net/mail"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/taflmail/taflmail/archive"
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/notation"
)

// A tournament file (docs/tournaments.md, "Creating a tournament"):
//
//	id: winter-2027
//	name: Winter Cup 2027
//	variant: copenhagen
//	time_control: 30d+1d
//	format: round robin        # or: groups (with groups: N)
//	games_per_pairing: 2       # 2 (a match, Decision T1) or 1
//	start: 2027-01-15
//	rated: true
//	leave_days: 20
//	players: [alice@example.org, bob@example.org, carol@example.org]
//	# or, instead of players, open entry by mail until a day:
//	entry_closes: 2027-01-10
//
// ReadTournamentFile checks every key against these rules and reports each
// problem at its line, so a director fixes the file in one go. The
// yaml.Node tree gives the lines (go.yaml.in/yaml/v3, the YAML library
// the configuration's viper already links).

// FileProblem is one problem of a tournament file: the file's name as
// given, the line (1-based; 0 when it concerns the whole file) and what
// is wrong, in English for the director.
type FileProblem struct {
	File string
	Line int
	Msg  string
}

// Error implements error: "FILE:LINE: problem", or "FILE: problem" for
// Line 0.
func (p *FileProblem) Error() string {
	if p.Line == 0 {
		return p.File + ": " + p.Msg
	}
	return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg)
}

// tournamentKeys are the keys of a tournament file, in the order the docs
// list them.
var tournamentKeys = []string{"id", "name", "variant", "time_control", "format", "groups", "games_per_pairing", "start",
	"rated", "leave_days", "players", "entry_closes"}

// TournamentTerms are what the referee's configuration says of every
// tournament file: the default yearly leave allowance in days
// (clock.leave_days), the most players an event may have
// (server.max_tournament_players; 0 for no limit) and the referee's own
// address (server.address; "" when the configuration names none), which
// plays no games.
type TournamentTerms struct {
	LeaveDays  int
	MaxPlayers int
	Address    string
}

// TournamentFile is what a valid tournament file says: the event to
// store (status TournamentCreated, created at the instant read) and, for
// an event without open entry, its players' addresses in lower case, in
// the file's order.
type TournamentFile struct {
	Tournament archive.Tournament
	Players    []string
}

// ReadTournamentFile parses and checks the tournament file data, named
// name in its problems, as of now (a start or closing day in the past is
// refused; today is allowed) against the referee's terms: whatever it
// accepts, `tournament start` can start (issue 18 §4), so a list of more
// players than terms.MaxPlayers, fewer than MinPlayers, the engine's
// address and the referee's own are refused at their lines. The id must
// pass ValidTournamentID, must not look like a game's id
// (LooksLikeGameID) and must not read as a word after "watch". All
// problems are returned, joined with errors.Join, each a *FileProblem,
// in line order.
func ReadTournamentFile(name string, data []byte, now time.Time, terms TournamentTerms) (*TournamentFile, error) {
	leaveDays := terms.LeaveDays
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, yamlProblem(name, err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		line := 0
		if len(doc.Content) > 0 {
			line = doc.Content[0].Line
		}
		return nil, &FileProblem{name, line, "want a mapping of keys (id, name, variant, …), see docs/tournaments.md"}
	}
	var problems []error
	bad := func(n *yaml.Node, format string, args ...any) {
		problems = append(problems, &FileProblem{name, n.Line, fmt.Sprintf(format, args...)})
	}
	root := doc.Content[0]
	keys := map[string]*yaml.Node{}
	keyLine := map[string]int{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch {
		case !slices.Contains(tournamentKeys, k.Value):
			bad(k, "unknown key %q (the keys are %s)", k.Value, strings.Join(tournamentKeys, ", "))
		case keys[k.Value] != nil:
			bad(k, "%s is given twice (first on line %d)", k.Value, keyLine[k.Value])
		default:
			keys[k.Value], keyLine[k.Value] = v, k.Line
		}
	}
	f := &TournamentFile{Tournament: archive.Tournament{Groups: 1, GamesPerPairing: 2, LeaveDays: leaveDays, Status: archive.TournamentCreated, CreatedAt: now}}
	t := &f.Tournament
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	scalar := func(key string, required bool) (*yaml.Node, bool) {
		n := keys[key]
		if n == nil {
			if required {
				problems = append(problems, &FileProblem{name, 0, key + " is missing"})
			}
			return nil, false
		}
		if n.Kind != yaml.ScalarNode {
			bad(n, "%s: want a single value", key)
			return nil, false
		}
		return n, true
	}
	day := func(key string, n *yaml.Node) (time.Time, bool) {
		d, err := time.Parse("2006-01-02", n.Value)
		if err != nil {
			bad(n, "%s: %q is not a day written YYYY-MM-DD", key, n.Value)
			return time.Time{}, false
		}
		if d.Before(today) {
			bad(n, "%s: %s is in the past (today is %s)", key, n.Value, today.Format("2006-01-02"))
			return d, false
		}
		return d, true
	}
	integer := func(key string, n *yaml.Node, lo, hi int) (int, bool) {
		v, err := strconv.Atoi(n.Value)
		if err != nil || v < lo || v > hi {
			bad(n, "%s: want a whole number from %d to %d, not %q", key, lo, hi, n.Value)
			return 0, false
		}
		return v, true
	}

	if n, ok := scalar("id", true); ok {
		switch t.ID = n.Value; {
		case !ValidTournamentID(t.ID):
			bad(n, "id: %q is not an id: 2 to 32 lower-case letters, digits and -, starting with a letter and not ending in - (players type it: join %s)", n.Value, "winter-2027")
		case LooksLikeGameID(t.ID):
			// "watch abc123" would look for a game ABC123 first.
			bad(n, "id: %q has the shape of a game's id (six letters and digits): put a - in it, as in %s-%s", n.Value, n.Value[:3], n.Value[3:])
		case !grammar.IsCommandLine("watch " + t.ID):
			// A word of letters alone, not six long, is prose after
			// "watch" ("watch this"): spectators could not name the event.
			bad(n, "id: %q would read as a word in a mail (\"watch %s\" is taken for a sentence): put a digit or - in it, as in %s-2027", n.Value, n.Value, n.Value)
		}
	}
	if n, ok := scalar("name", true); ok {
		if t.Name = strings.TrimSpace(n.Value); t.Name == "" {
			bad(n, "name is empty")
		}
	}
	if n, ok := scalar("variant", true); ok {
		if v, found := engine.Lookup(strings.ToLower(n.Value)); found {
			t.Variant = v.Name
		} else {
			bad(n, "variant: unknown variant %q ('taflmail variants' lists them)", n.Value)
		}
	}
	if n, ok := scalar("time_control", false); !ok {
		if keys["time_control"] == nil {
			problems = append(problems, &FileProblem{name, 0, "time_control is missing: a tournament game always has one (Decision C1), e.g. 30d+1d"})
		}
	} else if tc, err := notation.ParseTimeControl(name, n.Value); err != nil {
		bad(n, "time_control %q: %s", n.Value, timeControlProblem(name, err))
	} else if !tc.Timed() {
		bad(n, "time_control: a tournament game always has a time control, not %q (Decision C1)", n.Value)
	} else {
		t.TimeControl = tc.String()
	}
	groups := false
	if n, ok := scalar("format", false); ok {
		switch strings.ToLower(strings.TrimSpace(n.Value)) {
		case "round robin", "round-robin":
		case "groups":
			groups = true
		default:
			bad(n, "format: want \"round robin\" or \"groups\", not %q", n.Value)
		}
	}
	if n, ok := scalar("groups", false); ok {
		if v, ok := integer("groups", n, 2, 100); ok {
			t.Groups = v
		}
		if !groups {
			bad(n, "groups: only with format: groups")
		}
	} else if groups && keys["groups"] == nil {
		bad(keys["format"], "format: groups needs groups: N (the number of groups, 2 or more)")
	}
	if n, ok := scalar("games_per_pairing", false); ok {
		if v, ok := integer("games_per_pairing", n, 1, 2); ok {
			t.GamesPerPairing = v
		}
	}
	if n, ok := scalar("start", true); ok {
		t.StartDate, _ = day("start", n)
	}
	if n, ok := scalar("rated", false); ok {
		switch strings.ToLower(n.Value) {
		case "true", "yes":
			t.Rated = true
		case "false", "no":
		default:
			bad(n, "rated: want true or false, not %q", n.Value)
		}
	}
	if n, ok := scalar("leave_days", false); ok {
		if v, ok := integer("leave_days", n, 0, 366); ok {
			t.LeaveDays = v
		}
	}
	if n, ok := scalar("entry_closes", false); ok {
		if d, ok := day("entry_closes", n); ok {
			t.OpenEntry, t.EntryCloses = true, d
			if !t.StartDate.IsZero() && d.After(t.StartDate) {
				bad(n, "entry_closes: %s is after the start (%s)", n.Value, t.StartDate.Format("2006-01-02"))
			}
		}
	}
	if n := keys["players"]; n != nil {
		if keys["entry_closes"] != nil {
			bad(n, "players: give either players or entry_closes (open entry by mail), not both")
		}
		if n.Kind != yaml.SequenceNode {
			bad(n, "players: want a list of mail addresses")
		} else {
			seen := map[string]int{}
			for _, p := range n.Content {
				a, err := mail.ParseAddress(p.Value)
				if p.Kind != yaml.ScalarNode || err != nil || a.Address != strings.TrimSpace(p.Value) {
					bad(p, "players: %q is not a mail address", p.Value)
					continue
				}
				addr := strings.ToLower(a.Address)
				if line, dup := seen[addr]; dup {
					bad(p, "players: %s is named twice (first on line %d)", addr, line)
					continue
				}
				switch {
				case addr == EngineAddress:
					bad(p, "players: %s is the engine's address: the engine plays a player who asks for it by mail (new … with engine), not in tournaments", addr)
					continue
				case terms.Address != "" && addr == strings.ToLower(terms.Address):
					bad(p, "players: %s is the referee's own address (server.address), which plays no games", addr)
					continue
				}
				seen[addr] = p.Line
				f.Players = append(f.Players, addr)
			}
			if most := terms.MaxPlayers; most > 0 && len(n.Content) > most {
				// at the first player too many, so the director sees where
				// the list must end
				bad(n.Content[most], "players: %d players, more than the %d a tournament may have (server.max_tournament_players); this is the %s",
					len(n.Content), most, ordinal(most+1))
			} else if len(n.Content) < MinPlayers {
				bad(n, "players: %s; a round robin needs at least %d", playerCount(len(n.Content)), MinPlayers)
			} else if groups && t.Groups > 1 && len(f.Players) < 2*t.Groups {
				bad(n, "players: %d players cannot fill %d groups of at least 2", len(f.Players), t.Groups)
			}
		}
	} else if keys["entry_closes"] == nil {
		problems = append(problems, &FileProblem{name, 0, "give players (a list of addresses) or entry_closes (open entry by mail until that day)"})
	}
	if len(problems) > 0 {
		slices.SortStableFunc(problems, func(a, b error) int { return a.(*FileProblem).Line - b.(*FileProblem).Line })
		return nil, errors.Join(problems...)
	}
	return f, nil
}

// yamlLine finds the line in a YAML library error.
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlProblem turns a YAML syntax error into a problem at its line.
func yamlProblem(name string, err error) error {
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &FileProblem{name, line, "not YAML: " + m[2]}
	}
	return &FileProblem{name, 0, "not YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")}
}

// timeControlProblem is the grammar's refusal of a time control without
// its position (the line is the key's): what was expected and the forms.
func timeControlProblem(name string, err error) string {
	msg := strings.TrimPrefix(err.Error(), name+":")
	if i := strings.Index(msg, ": "); i >= 0 {
		msg = msg[i+2:] // "1:3: expected …" → "expected …"
	}
	return msg + " (the forms: 30d+1d, 10d+2d max 20d, 3d/move, … iccf; docs/clock.md)"
}

// playerCount writes n players in English: "1 player", "2 players".
func playerCount(n int) string {
	if n == 1 {
		return "1 player"
	}
	return strconv.Itoa(n) + " players"
}

// ordinal writes n as an English ordinal: 1st, 2nd, 3rd, 4th, 11th, 301st.
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}
