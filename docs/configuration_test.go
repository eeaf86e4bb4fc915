package docs

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestLoopbackBudgets (outside trial §12): the loopback example raises
// the reply budgets for keyless mail above their defaults, as the table
// of configuration.md gives them, because all its accounts share one
// domain; with the defaults a few testers' help, join and standings mails
// soon went unanswered.
func TestLoopbackBudgets(t *testing.T) {
	data, err := os.ReadFile("configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	i := strings.Index(doc, "## Example: loopback testing")
	if i < 0 {
		t.Fatal("configuration.md has no section \"Example: loopback testing\"")
	}
	example := doc[i:]
	if j := strings.Index(example[3:], "\n## "); j >= 0 {
		example = example[:j+3]
	}
	for _, key := range []string{"domain_replies_per_10m", "junk_replies_per_10m"} {
		def := regexp.MustCompile("(?m)^\\| `server\\." + key + "` \\| [^|]+ \\| `([0-9]+)` \\|").FindStringSubmatch(doc)
		set := regexp.MustCompile(`(?m)^  ` + key + `: ([0-9]+)$`).FindStringSubmatch(example)
		if def == nil || set == nil {
			t.Errorf("server.%s: default %v, loopback example %v; want both", key, def, set)
			continue
		}
		d, _ := strconv.Atoi(def[1])
		if s, _ := strconv.Atoi(set[1]); s <= d {
			t.Errorf("the loopback example sets server.%s to %d, not above its default %d", key, s, d)
		}
	}
}
