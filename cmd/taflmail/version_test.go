package main

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	r := run(t, "version")
	want := regexp.MustCompile(`^taflmail \S+.* \(go1\.\d+\S* \w+/\w+\)\n$`)
	if r.code != exitOK || r.stderr != "" || !want.MatchString(r.stdout) {
		t.Errorf("taflmail version = code %d, stdout %q, stderr %q; want 0, %v, nothing", r.code, r.stdout, r.stderr, want)
	}
}

// TestVersionStamped: a version set at link time is printed as it is,
// ahead of the module version.
func TestVersionStamped(t *testing.T) {
	defer func(v string) { version = v }(version)
	version = "v1.2.3-test"
	r := run(t, "version")
	want := regexp.MustCompile(`^taflmail v1\.2\.3-test( [0-9a-f]{12}(\+dirty)?)? \(go1\.\d+\S* \w+/\w+\)\n$`)
	if r.code != exitOK || !want.MatchString(r.stdout) {
		t.Errorf("taflmail version = code %d, %q; want %v", r.code, r.stdout, want)
	}
}

// TestVersionLdflags builds the binary the way docs/install.md says, with
// -ldflags "-X main.version=…", and runs `taflmail version`: the name the
// linker sets must be this package's variable.
func TestVersionLdflags(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	bin := filepath.Join(t.TempDir(), "taflmail")
	build := exec.Command("go", "build", "-o", bin, "-ldflags", "-X main.version=v0.9.0-ldflags", ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build = %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil || !strings.HasPrefix(string(out), "taflmail v0.9.0-ldflags ") {
		t.Errorf("taflmail version = %q, %v; want it to start with \"taflmail v0.9.0-ldflags \"", out, err)
	}
}
