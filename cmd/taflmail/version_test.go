package main

import (
	"regexp"
	"testing"
)

func TestVersion(t *testing.T) {
	r := run(t, "version")
	want := regexp.MustCompile(`^taflmail \S+.* \(go1\.\d+\S* \w+/\w+\)\n$`)
	if r.code != exitOK || r.stderr != "" || !want.MatchString(r.stdout) {
		t.Errorf("taflmail version = code %d, stdout %q, stderr %q; want 0, %v, nothing", r.code, r.stdout, r.stderr, want)
	}
}
