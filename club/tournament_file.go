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
	root, err := decodeTournamentFile(name, data)
	if err != nil {
		return nil, err
	}
	r := newTournamentReader(name, now, terms)
	r.indexKeys(root)
	r.readIdentity()
	r.readTimeControl()
	r.readFormat()
	r.readSettings()
	r.readPlayers()
	return r.result()
}

// decodeTournamentFile parses data as YAML and returns its top node, a
// mapping of keys. It fails with one *FileProblem for the file name: a
// YAML syntax error at its line (yamlProblem), or "want a mapping" for
// an empty document (line 0) or one whose top is not a mapping (at its
// line).
func decodeTournamentFile(name string, data []byte) (*yaml.Node, error) {
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
	return doc.Content[0], nil
}

// tournamentReader checks the keys of one tournament file in turn: it
// collects every problem found (line 0 for one of the whole file) and
// fills in the file's event and players as it goes. Its read methods
// run in the order of ReadTournamentFile, so problems on the same line
// keep that order.
type tournamentReader struct {
	name     string
	today    time.Time // the day read, midnight UTC
	terms    TournamentTerms
	keys     map[string]*yaml.Node // each known key given, by name: its value
	keyLine  map[string]int        // and the key's line
	groups   bool                  // format: groups
	f        *TournamentFile
	problems []error
}

// newTournamentReader starts a reader of the file name as of now, with
// the event's defaults: one group, two games a pairing, the terms'
// leave allowance, status TournamentCreated, created at now.
func newTournamentReader(name string, now time.Time, terms TournamentTerms) *tournamentReader {
	return &tournamentReader{
		name:    name,
		today:   time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC),
		terms:   terms,
		keys:    map[string]*yaml.Node{},
		keyLine: map[string]int{},
		f: &TournamentFile{Tournament: archive.Tournament{Groups: 1, GamesPerPairing: 2, LeaveDays: terms.LeaveDays,
			Status: archive.TournamentCreated, CreatedAt: now}},
	}
}

// bad records a problem at node n's line, the message formatted as by
// fmt.Sprintf.
func (r *tournamentReader) bad(n *yaml.Node, format string, args ...any) {
	r.problems = append(r.problems, &FileProblem{r.name, n.Line, fmt.Sprintf(format, args...)})
}

// fileProblem records a problem of the whole file (line 0), such as a
// missing key.
func (r *tournamentReader) fileProblem(msg string) {
	r.problems = append(r.problems, &FileProblem{r.name, 0, msg})
}

// indexKeys notes the value and line of each key of the top mapping
// root, in the file's order, refusing a key not in tournamentKeys and
// a key given twice (at the second, naming the first's line).
func (r *tournamentReader) indexKeys(root *yaml.Node) {
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch {
		case !slices.Contains(tournamentKeys, k.Value):
			r.bad(k, "unknown key %q (the keys are %s)", k.Value, strings.Join(tournamentKeys, ", "))
		case r.keys[k.Value] != nil:
			r.bad(k, "%s is given twice (first on line %d)", k.Value, r.keyLine[k.Value])
		default:
			r.keys[k.Value], r.keyLine[k.Value] = v, k.Line
		}
	}
}

// scalar is the value of key when the file gives it as a single value.
// It reports false otherwise: a problem "KEY is missing" (line 0) when
// the key is absent and required, one at the value when it is a list
// or mapping, none when it is absent and optional.
func (r *tournamentReader) scalar(key string, required bool) (*yaml.Node, bool) {
	n := r.keys[key]
	if n == nil {
		if required {
			r.fileProblem(key + " is missing")
		}
		return nil, false
	}
	if n.Kind != yaml.ScalarNode {
		r.bad(n, "%s: want a single value", key)
		return nil, false
	}
	return n, true
}

// day reads the value n of key as a day, YYYY-MM-DD (midnight UTC). It
// reports false, with a problem at n, when n is not such a day (the
// zero time) or is before today (the day itself).
func (r *tournamentReader) day(key string, n *yaml.Node) (time.Time, bool) {
	d, err := time.Parse("2006-01-02", n.Value)
	if err != nil {
		r.bad(n, "%s: %q is not a day written YYYY-MM-DD", key, n.Value)
		return time.Time{}, false
	}
	if d.Before(r.today) {
		r.bad(n, "%s: %s is in the past (today is %s)", key, n.Value, r.today.Format("2006-01-02"))
		return d, false
	}
	return d, true
}

// integer reads the value n of key as a whole number from lo to hi. It
// reports false, with a problem at n, for anything else.
func (r *tournamentReader) integer(key string, n *yaml.Node, lo, hi int) (int, bool) {
	v, err := strconv.Atoi(n.Value)
	if err != nil || v < lo || v > hi {
		r.bad(n, "%s: want a whole number from %d to %d, not %q", key, lo, hi, n.Value)
		return 0, false
	}
	return v, true
}

// readIdentity reads what the event is called and played as: id (see
// checkID), name (not blank; stored trimmed) and variant (a name
// engine.Lookup knows, in any case; stored as the variant's own name).
// All three are required.
func (r *tournamentReader) readIdentity() {
	t := &r.f.Tournament
	if n, ok := r.scalar("id", true); ok {
		t.ID = n.Value
		r.checkID(n)
	}
	if n, ok := r.scalar("name", true); ok {
		if t.Name = strings.TrimSpace(n.Value); t.Name == "" {
			r.bad(n, "name is empty")
		}
	}
	if n, ok := r.scalar("variant", true); ok {
		if v, found := engine.Lookup(strings.ToLower(n.Value)); found {
			t.Variant = v.Name
		} else {
			r.bad(n, "variant: unknown variant %q ('taflmail variants' lists them)", n.Value)
		}
	}
}

// checkID refuses, at n, an id players could not type after join or
// watch: one ValidTournamentID refuses, one with a game id's shape
// (LooksLikeGameID) and one the grammar takes for a word of prose
// after "watch". Only the first of these problems is reported.
func (r *tournamentReader) checkID(n *yaml.Node) {
	id := n.Value
	switch {
	case !ValidTournamentID(id):
		r.bad(n, "id: %q is not an id: 2 to 32 lower-case letters, digits and -, starting with a letter and not ending in - (players type it: join %s)", n.Value, "winter-2027")
	case LooksLikeGameID(id):
		// "watch abc123" would look for a game ABC123 first.
		r.bad(n, "id: %q has the shape of a game's id (six letters and digits): put a - in it, as in %s-%s", n.Value, n.Value[:3], n.Value[3:])
	case !grammar.IsCommandLine("watch " + id):
		// A word of letters alone, not six long, is prose after
		// "watch" ("watch this"): spectators could not name the event.
		r.bad(n, "id: %q would read as a word in a mail (\"watch %s\" is taken for a sentence): put a digit or - in it, as in %s-2027", n.Value, n.Value, n.Value)
	}
}

// readTimeControl reads time_control, which every tournament game has
// (Decision C1): required, in the grammar's forms
// (notation.ParseTimeControl; docs/clock.md) and timed. It is stored in
// its canonical form.
func (r *tournamentReader) readTimeControl() {
	n, ok := r.scalar("time_control", false)
	if !ok {
		if r.keys["time_control"] == nil {
			r.fileProblem("time_control is missing: a tournament game always has one (Decision C1), e.g. 30d+1d")
		}
		return
	}
	tc, err := notation.ParseTimeControl(r.name, n.Value)
	switch {
	case err != nil:
		r.bad(n, "time_control %q: %s", n.Value, timeControlProblem(r.name, err))
	case !tc.Timed():
		r.bad(n, "time_control: a tournament game always has a time control, not %q (Decision C1)", n.Value)
	default:
		r.f.Tournament.TimeControl = tc.String()
	}
}

// readFormat reads how players are paired, all optional: format
// ("round robin", the default, or "groups", in any case), groups (2 to
// 100, given with format: groups and only then) and games_per_pairing
// (1 or 2, default 2). It notes format: groups for readPlayers.
func (r *tournamentReader) readFormat() {
	t := &r.f.Tournament
	if n, ok := r.scalar("format", false); ok {
		switch strings.ToLower(strings.TrimSpace(n.Value)) {
		case "round robin", "round-robin":
		case "groups":
			r.groups = true
		default:
			r.bad(n, "format: want \"round robin\" or \"groups\", not %q", n.Value)
		}
	}
	if n, ok := r.scalar("groups", false); ok {
		if v, ok := r.integer("groups", n, 2, 100); ok {
			t.Groups = v
		}
		if !r.groups {
			r.bad(n, "groups: only with format: groups")
		}
	} else if r.groups && r.keys["groups"] == nil {
		r.bad(r.keys["format"], "format: groups needs groups: N (the number of groups, 2 or more)")
	}
	if n, ok := r.scalar("games_per_pairing", false); ok {
		if v, ok := r.integer("games_per_pairing", n, 1, 2); ok {
			t.GamesPerPairing = v
		}
	}
}

// readSettings reads the rest of the event's terms: start (required; a
// day, not past), rated (true/yes or false/no, default false),
// leave_days (0 to 366, default the terms' allowance) and entry_closes
// (optional; a day, not past and not after the start), which opens
// entry by mail.
func (r *tournamentReader) readSettings() {
	t := &r.f.Tournament
	if n, ok := r.scalar("start", true); ok {
		t.StartDate, _ = r.day("start", n)
	}
	if n, ok := r.scalar("rated", false); ok {
		switch strings.ToLower(n.Value) {
		case "true", "yes":
			t.Rated = true
		case "false", "no":
		default:
			r.bad(n, "rated: want true or false, not %q", n.Value)
		}
	}
	if n, ok := r.scalar("leave_days", false); ok {
		if v, ok := r.integer("leave_days", n, 0, 366); ok {
			t.LeaveDays = v
		}
	}
	if n, ok := r.scalar("entry_closes", false); ok {
		if d, ok := r.day("entry_closes", n); ok {
			t.OpenEntry, t.EntryCloses = true, d
			if !t.StartDate.IsZero() && d.After(t.StartDate) {
				r.bad(n, "entry_closes: %s is after the start (%s)", n.Value, t.StartDate.Format("2006-01-02"))
			}
		}
	}
}

// readPlayers reads players, a list of mail addresses, which a file
// gives unless it gives entry_closes (never both; one of them is
// required). Each entry is checked by player and the list's length by
// checkPlayerCount.
func (r *tournamentReader) readPlayers() {
	n := r.keys["players"]
	if n == nil {
		if r.keys["entry_closes"] == nil {
			r.fileProblem("give players (a list of addresses) or entry_closes (open entry by mail until that day)")
		}
		return
	}
	if r.keys["entry_closes"] != nil {
		r.bad(n, "players: give either players or entry_closes (open entry by mail), not both")
	}
	if n.Kind != yaml.SequenceNode {
		r.bad(n, "players: want a list of mail addresses")
		return
	}
	seen := map[string]int{} // address → line of the entry that named it
	for _, p := range n.Content {
		if addr, ok := r.player(p, seen); ok {
			seen[addr] = p.Line
			r.f.Players = append(r.f.Players, addr)
		}
	}
	r.checkPlayerCount(n)
}

// player reads the list entry p as a player's address, in lower case.
// It reports false, with a problem at p, when p is not a bare mail
// address, names an address seen before (by line), or is the engine's
// or the referee's own (terms.Address).
func (r *tournamentReader) player(p *yaml.Node, seen map[string]int) (string, bool) {
	a, err := mail.ParseAddress(p.Value)
	if p.Kind != yaml.ScalarNode || err != nil || a.Address != strings.TrimSpace(p.Value) {
		r.bad(p, "players: %q is not a mail address", p.Value)
		return "", false
	}
	addr := strings.ToLower(a.Address)
	if line, dup := seen[addr]; dup {
		r.bad(p, "players: %s is named twice (first on line %d)", addr, line)
		return "", false
	}
	switch {
	case addr == EngineAddress:
		r.bad(p, "players: %s is the engine's address: the engine plays a player who asks for it by mail (new … with engine), not in tournaments", addr)
		return "", false
	case r.terms.Address != "" && addr == strings.ToLower(r.terms.Address):
		r.bad(p, "players: %s is the referee's own address (server.address), which plays no games", addr)
		return "", false
	}
	return addr, true
}

// checkPlayerCount refuses a players list n of more entries than
// terms.MaxPlayers (at the first entry too many), of fewer than
// MinPlayers, or, with format: groups, of too few accepted players to
// put two in each group. Only the first of these problems is reported.
func (r *tournamentReader) checkPlayerCount(n *yaml.Node) {
	t := &r.f.Tournament
	if most := r.terms.MaxPlayers; most > 0 && len(n.Content) > most {
		// at the first player too many, so the director sees where
		// the list must end
		r.bad(n.Content[most], "players: %d players, more than the %d a tournament may have (server.max_tournament_players); this is the %s",
			len(n.Content), most, ordinal(most+1))
	} else if len(n.Content) < MinPlayers {
		r.bad(n, "players: %s; a round robin needs at least %d", playerCount(len(n.Content)), MinPlayers)
	} else if r.groups && t.Groups > 1 && len(r.f.Players) < 2*t.Groups {
		r.bad(n, "players: %d players cannot fill %d groups of at least 2", len(r.f.Players), t.Groups)
	}
}

// result is the file read: the event and players when no problem was
// found, else every problem, sorted by line (stably, so those of one
// line keep their order) and joined with errors.Join.
func (r *tournamentReader) result() (*TournamentFile, error) {
	if len(r.problems) > 0 {
		slices.SortStableFunc(r.problems, func(a, b error) int { return a.(*FileProblem).Line - b.(*FileProblem).Line })
		return nil, errors.Join(r.problems...)
	}
	return r.f, nil
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
