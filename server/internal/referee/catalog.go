package referee

import (
	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/server/internal/catalog"
)

// The referee's names for the texts of internal/catalog. They are
// forwarders, kept so that the several hundred calls across the package's
// files read as they did when the catalogues lived here; the catalogue's
// own words (variant summaries, the diagram legend, illegal-move reasons,
// scores) are called as catalog.X where they are used.

// Reply languages: English by default, German for a player who writes
// German commands or sets "language de" (docs/commands.md).
const (
	// English is the default reply language, "en" (catalog.English).
	English = catalog.English
	// German is the reply language "de" (catalog.German).
	German = catalog.German
)

// Tr forwards to catalog.Text: the text key in lang, formatted with args.
func Tr(lang, key string, args ...any) string { return catalog.Text(lang, key, args...) }

// Trn forwards to catalog.TextN: the text key, or its singular form for
// n == 1, in lang, formatted with args.
func Trn(lang, key string, n int, args ...any) string {
	return catalog.TextN(lang, key, n, args...)
}

// Counted forwards to catalog.Counted: n things in lang with the counted
// noun "count."+noun ("1 game", "2 games").
func Counted(lang, noun string, n int) string { return catalog.Counted(lang, noun, n) }

// SideName forwards to catalog.Side: a side in lang, "attackers" / "Angreifer".
func SideName(lang, side string) string { return catalog.Side(lang, side) }

// VariantTitle forwards to catalog.VariantTitle: a variant's title in lang.
func VariantTitle(lang string, v *engine.Variant) string { return catalog.VariantTitle(lang, v) }
