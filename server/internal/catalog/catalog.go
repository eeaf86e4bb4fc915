// Package catalog holds every text a player can receive from the referee,
// one catalogue per language, and the lookups that write them: a text is
// asked for by its key ("move.played", "err.join.full") in a language and
// written with fmt from its arguments.
//
// Two languages exist, English (English, "en") and German (German, "de").
// Both catalogues have the same keys, and the two texts of a key the same
// fmt verbs in the same order (TestCatalogs), so a translation may reword
// a sentence but not reorder its arguments: a caller passes its arguments
// once, whatever the language. A text about a number of things may have a
// singular form under key + ".one", and a form for none under key +
// ".zero" that says it without the number (KeyForCount, TextN).
//
// The catalogues are data in Go files, one per language and room:
// en.go and de.go (the core and the commands), consent_en.go and
// consent_de.go (consent, block and unblock), tournament_en.go and
// tournament_de.go (tournaments and ratings). Beside the lookups
// (catalog.go) are the words the referee says in every room: sides,
// variants, the board diagram's legend and illegal moves (words.go), and
// instants, days and durations (time.go). The package is pure: it
// holds no state beyond the catalogues, which never change after init,
// and knows no session, mail or archive; the referee decides which key to
// ask for (docs/architecture.md, "Rooms of their own").
package catalog

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// The reply languages: English by default, German for a player who writes
// German commands or sets "language de" (docs/commands.md).
const (
	English = "en"
	German  = "de"
)

// catalogs holds the catalogues by language: key → fmt format.
var catalogs = map[string]map[string]string{
	English: catalogEN,
	German:  catalogDE,
}

// Text returns the text key in language lang, formatted with args by
// fmt.Sprintf; without args the text is returned as it stands, so a "%"
// in it needs no doubling. A key missing in lang falls back to English,
// as does every key in a language other than English and German, and a
// key missing there too is returned itself; TestCatalogs and the
// referee's TestCatalogKeysUsed keep both from happening.
func Text(lang, key string, args ...any) string {
	s, ok := catalogs[lang][key]
	if !ok {
		if s, ok = catalogEN[key]; !ok {
			return key
		}
	}
	if len(args) == 0 {
		return s
	}
	return fmt.Sprintf(s, args...)
}

// KeyForCount returns the key of the text about n things: key + ".one"
// when n is 1 and the English catalogue (and so, by TestCatalogs, the
// German one) has that singular form, key + ".zero" when n is 0 and it
// has that form, else key ("1 spectator was removed", "2 spectators were
// removed"; trial 2 report §12; "no leave counts", not "up to 0 days",
// outside trial §15).
func KeyForCount(key string, n int) string {
	if _, ok := catalogEN[key+".one"]; ok && n == 1 {
		return key + ".one"
	}
	if _, ok := catalogEN[key+".zero"]; ok && n == 0 {
		return key + ".zero"
	}
	return key
}

// TextN is Text for a text about n things: the text of KeyForCount(key,
// n) in lang, formatted with args (n itself is not among them unless the
// caller passes it). A ".zero" form is a text without fmt verbs and gets
// no args. Missing keys fall back as in Text.
func TextN(lang, key string, n int, args ...any) string {
	k := KeyForCount(key, n)
	if strings.HasSuffix(k, ".zero") {
		return Text(lang, k)
	}
	return Text(lang, k, args...)
}

// Counted writes n things in lang with the counted noun "count."+noun of
// the catalogue: Counted(English, "games", 1) is "1 game", for 2 "2
// games". A text with two counts (issue 22 §4: "3 players, 1 game") takes
// each as a %s written so, as TextN can pick a form for one count only.
// An unknown noun gives the key "count."+noun, as Text does.
func Counted(lang, noun string, n int) string {
	return TextN(lang, "count."+noun, n, n)
}

// Lookup returns the fmt format of key in the catalogue of lang as it
// stands, unformatted, and whether that catalogue has it; unlike Text it
// falls back to nothing, so it tells whether a language has an optional
// text (a command's ".what" line, a variant's title).
func Lookup(lang, key string) (format string, ok bool) {
	format, ok = catalogs[lang][key]
	return format, ok
}

// Keys returns every key of the catalogue of lang, sorted; nil for a
// language other than English and German. The two catalogues give the
// same keys (TestCatalogs).
func Keys(lang string) []string {
	c, ok := catalogs[lang]
	if !ok {
		return nil
	}
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// SplitFormat is the one reading of a catalogue text's fmt verbs: it
// returns the fixed text of format around its verbs (fixed[0] before the
// first, fixed[len(verbs)] after the last, each as fmt prints it: "%%"
// is "%") and the verbs' letters in order. A verb is read as fmt reads
// it: "%", then flags, width, precision and argument indexes ("+-# 0",
// digits, ".", "*", "[n]"), then its letter; "%" as the letter is a
// percent sign, not a verb. "Leave taken: %s. You have %-3d%%." is
// "Leave taken: ", ". You have ", "%." and 's', 'd'. TestCatalogs
// compares the verbs of a key's two texts with it, and the server reads
// its own lines in a mail by the fixed text.
func SplitFormat(format string) (fixed []string, verbs []rune) {
	var cur strings.Builder
	for i := 0; i < len(format); {
		c := format[i]
		if c != '%' {
			cur.WriteByte(c)
			i++
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("+-# 0123456789.*[]", format[j]) >= 0 {
			j++
		}
		if j == len(format) { // no letter: fmt's %!(NOVERB), kept as it stands
			cur.WriteString(format[i:])
			break
		}
		verb, size := utf8.DecodeRuneInString(format[j:])
		if verb == '%' {
			cur.WriteByte('%')
		} else {
			fixed = append(fixed, cur.String())
			cur.Reset()
			verbs = append(verbs, verb)
		}
		i = j + size
	}
	return append(fixed, cur.String()), verbs
}
