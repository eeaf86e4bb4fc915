package web

import (
	"regexp"
	"slices"
	"strings"
)

// TextKeys, HasText and Verbs let the tests compare the languages.
func TextKeys(lang string) []string {
	var ks []string
	for k := range texts[lang] {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func HasText(lang, key string) bool { _, ok := texts[lang][key]; return ok }

var verb = regexp.MustCompile(`%[0-9.]*[a-zA-Z]`)

func Verbs(lang, key string) string {
	return strings.Join(verb.FindAllString(texts[lang][key], -1), " ")
}
