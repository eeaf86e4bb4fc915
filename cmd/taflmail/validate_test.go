package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The -update flag rewrites the golden files under testdata/. Another test
// file of the package may declare it too; whoever comes first defines it.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files under testdata/ from the current output")
	}
}

func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// checkGolden compares got with testdata/name, or rewrites it under
// -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if updating() {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/taflmail -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test ./cmd/taflmail -update rewrites it; review the diff):\n--- got\n%s--- want\n%s", path, got, want)
	}
}

// sharedRecords is the corpus of real games, relative to this package.
const sharedRecords = "../../../shared/records"

func requireShared(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(sharedRecords); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but %s is not readable: %v", sharedRecords, err)
		}
		t.Skipf("skipping: %s not found: %v", sharedRecords, err)
	}
}

// TestValidateGolden: the human and JSON output for records with every
// kind of problem (testdata/games.tafl explains each game).
func TestValidateGolden(t *testing.T) {
	r := run(t, "validate", "testdata/games.tafl")
	if r.code != exitFailure || r.stderr != "taflmail: some games have errors\n" {
		t.Errorf("validate games.tafl = code %d, stderr %q; want 1 and the summary error", r.code, r.stderr)
	}
	checkGolden(t, "validate.golden", r.stdout)
	r = run(t, "validate", "--json", "testdata/games.tafl")
	if r.code != exitFailure {
		t.Errorf("validate --json games.tafl = code %d, want 1", r.code)
	}
	checkGolden(t, "validate-json.golden", r.stdout)
	checkValidateJSON(t, r.stdout)
}

// TestValidateOTGGolden: the four OpenTafl records of shared/records, each
// under its own rules tag (one of them needs corner and throne squares the
// engine does not support yet).
func TestValidateOTGGolden(t *testing.T) {
	requireShared(t)
	files, _ := filepath.Glob(filepath.Join(sharedRecords, "otg", "*.otg"))
	r := run(t, append([]string{"validate", "--json"}, files...)...)
	for i, f := range files {
		r.stdout = strings.ReplaceAll(r.stdout, f, filepath.Base(files[i]))
	}
	checkGolden(t, "validate-otg.golden", r.stdout)
	checkValidateJSON(t, r.stdout)
}

// checkValidateJSON checks that every line is one object with exactly the
// fields issue 3 lists, in its order, and for a timed record the "clock"
// field of CORRESPONDENCE.md §5 last.
func checkValidateJSON(t *testing.T, out string) {
	t.Helper()
	want := []string{"file", "game", "variant", "plies", "legal", "error", "captures_match", "outcome", "record_result"}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		dec := json.NewDecoder(strings.NewReader(line))
		var keys []string
		tok, err := dec.Token()
		if err != nil || tok != json.Delim('{') {
			t.Fatalf("not a JSON object: %s", line)
		}
		for dec.More() {
			k, _ := dec.Token()
			keys = append(keys, k.(string))
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				t.Fatal(err)
			}
		}
		if len(keys) > 0 && keys[len(keys)-1] == "clock" {
			keys = keys[:len(keys)-1]
		}
		if strings.Join(keys, ",") != strings.Join(want, ",") {
			t.Errorf("keys %v, want %v", keys, want)
		}
	}
}

// TestValidateCorpus: the whole corpus, as docs/corpus.md lists it: 1143
// games, and only the games our repetition rule ends early are not legal.
func TestValidateCorpus(t *testing.T) {
	requireShared(t)
	if testing.Short() {
		t.Skip("whole corpus: not with -short")
	}
	args := []string{"validate"}
	for _, f := range []string{"brandubh.csv", "copenhagen.csv"} {
		args = append(args, filepath.Join(sharedRecords, f))
	}
	otg, _ := filepath.Glob(filepath.Join(sharedRecords, "otg", "*.otg"))
	r := run(t, append(args, otg...)...)
	if r.code != exitFailure {
		t.Errorf("validate corpus = code %d, want 1 (the documented exceptions)", r.code)
	}
	if want := "total: 1143 games, 1133 legal, 10 illegal, 0 capture mismatches, 0 result mismatches\n"; !strings.HasSuffix(r.stdout, want) {
		t.Errorf("validate corpus summary:\n%s\nwant it to end with %q", r.stdout, want)
	}
}

func TestValidateUsage(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"validate"}, "no FILE given"},
		{[]string{"validate", "--variant", "nosuch", "testdata/games.tafl"}, `unknown variant "nosuch"`},
		{[]string{"validate", "--format", "pgn", "testdata/games.tafl"}, `--format "pgn"`},
		{[]string{"validate", "--variant", "brandub", "testdata/games.tafl"}, `unknown variant "brandub"; did you mean brandubh? (see taflmail variants)`},
	}
	for _, tt := range tests {
		r := run(t, tt.args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, tt.want) || r.stdout != "" {
			t.Errorf("taflmail %q = code %d, stdout %q, stderr %q; want 2 and %q", tt.args, r.code, r.stdout, r.stderr, tt.want)
		}
	}
	// A file that cannot be read is no mistake on the command line: exit
	// status 2 as documented, but no "Run … --help" (trial report §11).
	for path, want := range map[string]string{
		"testdata/nosuch.tafl": "taflmail validate: cannot read testdata/nosuch.tafl: no such file or directory\n",
		"testdata":             "taflmail validate: cannot read testdata: is a directory\n",
	} {
		r := run(t, "validate", path)
		if r.code != exitUsage || r.stderr != want || r.stdout != "" {
			t.Errorf("taflmail validate %s = code %d, stdout %q, stderr %q; want 2 and %q", path, r.code, r.stdout, r.stderr, want)
		}
	}
}

// TestValidateSummaries: every file gets a summary line under the path as
// given, one that does not parse too, and a file without any game is a
// problem (trial report §10, §11).
func TestValidateSummaries(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good := write("good.tafl", "[Variant \"brandubh\"]\n\n1. d2-e2 c4-c5 2. --- defenders\n")
	bad := write("bad.tafl", "1. d2- e2 *\n")
	empty := write("empty.tafl", "")
	r := run(t, "validate", good, bad, empty)
	wantOut := good + ": 1 game, 1 legal, 0 illegal, 0 capture mismatches, 0 result mismatches\n" +
		bad + ": not read: a syntax error (above)\n" +
		empty + ": no game in the file\n" +
		"total: 1 game, 1 legal, 0 illegal, 0 capture mismatches, 0 result mismatches; 2 files without games\n"
	if r.code != exitFailure || r.stdout != wantOut || !strings.Contains(r.stderr, bad+":1:7: unexpected white space inside move") {
		t.Errorf("validate = code %d, stdout\n%s\nstderr %q; want 1 and\n%s", r.code, r.stdout, r.stderr, wantOut)
	}
	r = run(t, "validate", empty)
	if r.code != exitFailure || r.stdout != empty+": no game in the file\n" {
		t.Errorf("validate of an empty file = code %d, stdout %q; want 1 and the file named", r.code, r.stdout)
	}
	// With --json, stdout stays JSON: the file is named on stderr.
	r = run(t, "validate", "--json", empty)
	if r.code != exitFailure || r.stdout != "" || r.stderr != empty+": no game in the file\ntaflmail: some files hold no game\n" {
		t.Errorf("validate --json of an empty file = code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

func TestValidateLegalAndSyntax(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.tafl")
	os.WriteFile(good, []byte("[Variant \"brandubh\"]\n\n1. d2-e2 c4-c5 2. --- defenders\n"), 0o644)
	r := run(t, "validate", good)
	if r.code != exitOK || r.stderr != "" || !strings.Contains(r.stdout, "good.tafl: 1 game, 1 legal") {
		t.Errorf("validate good.tafl = code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	bad := filepath.Join(dir, "bad.tafl")
	os.WriteFile(bad, []byte("1. d2- e2 *\n"), 0o644)
	r = run(t, "validate", bad, good)
	if r.code != exitFailure || !strings.Contains(r.stderr, "bad.tafl:1:7: unexpected white space inside move") {
		t.Errorf("validate bad.tafl = code %d, stderr %q", r.code, r.stderr)
	}
	csv := filepath.Join(dir, "games.txt")
	os.WriteFile(csv, []byte("d2-e2 c4-c5,0,0,Ongoing\n"), 0o644)
	r = run(t, "validate", "--variant", "brandubh", "--format", "csv", "--json", csv)
	if r.code != exitOK || !bytes.Contains([]byte(r.stdout), []byte(`"variant":"brandubh","plies":2,"legal":true`)) {
		t.Errorf("validate --format csv = code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// TestValidateFinishedGames: records that end by resignation or agreement
// are legal, and --json gives their end as the record's result (the
// engine's outcome stays open: the rules did not end the game).
func TestValidateFinishedGames(t *testing.T) {
	for _, tc := range []struct{ file, result string }{
		{"export-resigned.tafl", `"record_result":{"winner":"defenders","reason":"resignation"}`},
		{"export-drawn.tafl", `"record_result":{"winner":"draw","reason":"draw agreed"}`},
	} {
		path := "testdata/operator/" + tc.file
		r := run(t, "validate", path)
		if want := path + ": 1 game, 1 legal, 0 illegal, 0 capture mismatches, 0 result mismatches\n"; r.code != exitOK || r.stdout != want {
			t.Errorf("taflmail validate %s = code %d, stdout %q; want %q", tc.file, r.code, r.stdout, want)
		}
		r = run(t, "validate", "--json", path)
		if r.code != exitOK || !strings.Contains(r.stdout, tc.result) || !strings.Contains(r.stdout, `"outcome":{"winner":null,"reason":null`) {
			t.Errorf("taflmail validate --json %s = code %d, %s; want %s", tc.file, r.code, r.stdout, tc.result)
		}
	}
}

// TestRecordCommandsUnreadable: every record tool says "cannot read" for a
// missing file, with exit status 2 and no hint to read --help.
func TestRecordCommandsUnreadable(t *testing.T) {
	for _, args := range [][]string{
		{"convert", "testdata/nosuch.tafl", "--to", "native"},
		{"diagram", "testdata/nosuch.tafl"},
		{"standings", "testdata/nosuch.tafl"},
		{"ratings", "testdata/nosuch.tafl"},
		{"analyse", "testdata/nosuch.tafl"},
	} {
		r := run(t, args...)
		want := "taflmail " + args[0] + ": cannot read testdata/nosuch.tafl: no such file or directory\n"
		if r.code != exitUsage || r.stderr != want {
			t.Errorf("taflmail %q = code %d, stderr %q; want 2 and %q", args, r.code, r.stderr, want)
		}
	}
}
