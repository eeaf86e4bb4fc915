package docs

import (
	"os"
	"strings"
	"testing"
)

// TestInstallUnit: install.md shows docs/systemd/taflmail.service word
// for word, so the unit an operator copies from the page is the file CI
// checks with systemd-analyze (.ci/run), and operations.md names the
// backup units that exist.
func TestInstallUnit(t *testing.T) {
	unit, err := os.ReadFile("systemd/taflmail.service")
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile("install.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "```ini\n"+string(unit)+"```\n") {
		t.Error("install.md does not show docs/systemd/taflmail.service as it is: copy the file into its ```ini block")
	}
	for _, want := range []string{"RestartPreventExitStatus=78", "ProtectSystem=strict", "ReadWritePaths=/var/lib/taflmail",
		"NoNewPrivileges=yes", "CapabilityBoundingSet=\n", "SystemCallFilter=@system-service"} {
		if !strings.Contains(string(unit), want) {
			t.Errorf("docs/systemd/taflmail.service lacks %q", want)
		}
	}
	ops, err := os.ReadFile("operations.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"taflmail-backup.service", "taflmail-backup.timer"} {
		if _, err := os.Stat("systemd/" + name); err != nil {
			t.Error(err)
		}
		if !strings.Contains(string(ops), "(systemd/"+name+")") {
			t.Errorf("operations.md does not link systemd/%s", name)
		}
	}
}
