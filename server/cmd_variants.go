package server

import (
	"fmt"
	"strings"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
)

func init() {
	handle("variants", (*session).variants)
	helpLine(90, "help.variants")
}

// variants lists the built-in rule sets (docs/variants.md): name, board
// size, the rules in brief.
func (ss *session) variants(*grammar.VariantsCommand) error {
	var b strings.Builder
	b.WriteString(tr(ss.lang, "variants.header") + "\n")
	for _, v := range engine.Variants() {
		fmt.Fprintf(&b, "  %-13s %2d×%-2d %s\n", v.Name, v.Size, v.Size, variantSummary(ss.lang, v))
	}
	ss.say(nil, b.String())
	return nil
}
