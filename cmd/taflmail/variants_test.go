package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/taflmail/taflmail/engine"
)

func TestVariantsText(t *testing.T) {
	r := run(t, "variants")
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("taflmail variants = code %d, stderr %q", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	vs := engine.Variants()
	if len(lines) != len(vs) {
		t.Fatalf("taflmail variants printed %d lines, want %d:\n%s", len(lines), len(vs), r.stdout)
	}
	want := regexp.MustCompile(`^copenhagen +11×11  ` + regexp.QuoteMeta(vs[0].Summary) + `$`)
	if !want.MatchString(lines[0]) {
		t.Errorf("line 1 = %q, want %v", lines[0], want)
	}
	col := strings.Index(lines[0], vs[0].Summary)
	for i, v := range vs {
		f := strings.Fields(lines[i])
		if len(f) < 3 || f[0] != v.Name || f[1] != fmt.Sprintf("%d×%d", v.Size, v.Size) {
			t.Errorf("line %d = %q, want name %q and size %d×%d", i+1, lines[i], v.Name, v.Size, v.Size)
		}
		if !strings.HasSuffix(lines[i], v.Summary) || len([]rune(lines[i]))-len([]rune(v.Summary)) != len([]rune(lines[0][:col])) {
			t.Errorf("line %d = %q, want summary %q aligned with line 1", i+1, lines[i], v.Summary)
		}
		if i > 0 && vs[i-1].Tier > v.Tier {
			t.Errorf("line %d: tier %d after tier %d, want tier 1 first", i+1, v.Tier, vs[i-1].Tier)
		}
	}
}

func TestVariantsJSON(t *testing.T) {
	r := run(t, "variants", "--json")
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("taflmail variants --json = code %d, stderr %q", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	vs := engine.Variants()
	if len(lines) != len(vs) {
		t.Fatalf("taflmail variants --json printed %d lines, want %d", len(lines), len(vs))
	}
	for i, line := range lines {
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		var got variantJSON
		if err := dec.Decode(&got); err != nil {
			t.Fatalf("line %d %q: %v", i+1, line, err)
		}
		v := vs[i]
		if want := (variantJSON{v.Name, v.Title, v.Tier, v.Size, v.Summary}); got != want {
			t.Errorf("line %d = %+v, want %+v", i+1, got, want)
		}
	}
}
