package web

import (
	"strings"
	"testing"
)

// TestCountedTexts: the pages' counted phrases read in the singular for
// one thing and in the plural for more, in both languages (issue 22 §4).
func TestCountedTexts(t *testing.T) {
	for _, c := range []struct {
		lang, key string
		n         int
		args      []any
		want      string
	}{
		{"en", "player.rated", 1, []any{1}, "1 rated game"},
		{"en", "player.rated", 2, []any{2}, "2 rated games"},
		{"de", "player.rated", 1, []any{1}, "1 gewertete Partie"},
		{"de", "player.rated", 2, []any{2}, "2 gewertete Partien"},
		{"en", "event.gamescount", 1, []any{0, 1}, "0 of 1 game finished"},
		{"en", "event.gamescount", 2, []any{1, 2}, "1 of 2 games finished"},
		{"de", "event.gamescount", 1, []any{0, 1}, "0 von 1 Partie beendet"},
		{"de", "event.gamescount", 2, []any{1, 2}, "1 von 2 Partien beendet"},
	} {
		p := &page{Lang: c.lang}
		if got := p.TN(c.key, c.n, c.args...); got != c.want {
			t.Errorf("%s %s for %d: %q, want %q", c.lang, c.key, c.n, got, c.want)
		}
	}
	for lang, want := range map[string]string{"en": "Board, 7×7: 1 attacker, 1 defender and the king;",
		"de": "Brett, 7×7: 1 Angreifer, 1 Verteidiger und der König;"} {
		got := tr(lang, "game.alt", 7, 7, counted(lang, "attackers", 1), counted(lang, "defenders", 1), tr(lang, "game.king"), "x")
		if !strings.HasPrefix(got, want) {
			t.Errorf("%s board words: %q, want %q…", lang, got, want)
		}
	}
	if got := counted("en", "attackers", 2); got != "2 attackers" {
		t.Errorf("2 attackers: %q", got)
	}
}
