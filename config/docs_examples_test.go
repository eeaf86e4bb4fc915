package config_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// yamlBlock is a fenced YAML block of a Markdown page.
var yamlBlock = regexp.MustCompile("(?s)```yaml\n(.*?)```")

// TestDocExamplesLoad: every whole configuration the operator's pages
// show (a YAML block with the imap, smtp and server sections, not a
// fragment) loads and validates as it stands, once its password file
// exists, so that copying one gives a daemon that starts. The
// configuration.md example of a provider once set
// server.require_auth_results without the server.authserv_id it needs.
func TestDocExamplesLoad(t *testing.T) {
	password := writeFile(t, "app-password", "app-password\n")
	checked := 0
	for _, page := range []string{"../docs/configuration.md", "../docs/install.md", "../docs/operations.md"} {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range yamlBlock.FindAllStringSubmatch(string(text), -1) {
			block := m[1]
			if !strings.Contains(block, "\nimap:") && !strings.HasPrefix(block, "imap:") ||
				!strings.Contains(block, "\nsmtp:") || !strings.Contains(block, "\nserver:") {
				continue // a fragment
			}
			t.Run(page+"#"+string(rune('0'+i)), func(t *testing.T) {
				block = strings.ReplaceAll(block, "/etc/taflmail/app-password", password)
				// a section without password_file has its password in
				// the environment, as the pages say; SMTP only with a
				// user name (no AUTH without one)
				if imap := section(block, "imap"); !strings.Contains(imap, "password_file:") {
					t.Setenv("TAFLMAIL_IMAP_PASSWORD", "app-password")
				}
				if smtp := section(block, "smtp"); !strings.Contains(smtp, "password_file:") && strings.Contains("\n"+smtp, "\n  username:") {
					t.Setenv("TAFLMAIL_SMTP_PASSWORD", "app-password")
				}
				if _, err := load(t, writeFile(t, "taflmail.yaml", block)); err != nil {
					t.Errorf("the example of %s does not load:\n%v\n%s", page, err, block)
				}
			})
			checked++
		}
	}
	if checked < 4 {
		t.Errorf("checked %d examples; the pages have at least 4 (configuration.md's provider and loopback, install.md's Gmail and Fastmail)", checked)
	}
}

// section returns the lines of YAML section name in block, up to the
// next unindented line.
func section(block, name string) string {
	_, rest, ok := strings.Cut("\n"+block, "\n"+name+":\n")
	if !ok {
		return ""
	}
	var b strings.Builder
	for line := range strings.Lines(rest) {
		if line != "" && line[0] != ' ' && line[0] != '#' && line[0] != '\n' {
			break
		}
		b.WriteString(line)
	}
	return b.String()
}
