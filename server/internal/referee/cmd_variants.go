package referee

import (
	"fmt"
	"strings"

	"github.com/taflmail/taflmail/engine"
	"github.com/taflmail/taflmail/grammar"
	"github.com/taflmail/taflmail/mailer"
	"github.com/taflmail/taflmail/server/internal/catalog"
)

func init() {
	Handle("variants", (*Session).variants)
	HelpLine(90, "help.variants")
}

// variants lists the built-in rule sets (docs/variants.md): name, board
// size, the rules in brief, wrapped inside their column (as the help
// overview's descriptions) and marked mailer.Preformatted.
func (ss *Session) variants(*grammar.VariantsCommand) error {
	var b strings.Builder
	pad := strings.Repeat(" ", 22) // "  %-13s %2d×%-2d "
	for _, v := range engine.Variants() {
		summary := mailer.Wrap(catalog.VariantSummary(ss.Lang, v), mailer.WrapWidth-len(pad))
		fmt.Fprintf(&b, "  %-13s %2d×%-2d %s\n", v.Name, v.Size, v.Size, strings.Join(summary, "\n"+pad))
	}
	ss.Say(nil, Tr(ss.Lang, "variants.header")+"\n"+mailer.Preformatted(b.String()))
	return nil
}
