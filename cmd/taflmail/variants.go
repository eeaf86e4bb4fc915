package main

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/taflmail/taflmail/engine"
)

// variantJSON is one line of `taflmail variants --json`.
type variantJSON struct {
	Name    string `json:"name"`
	Title   string `json:"title"`
	Tier    int    `json:"tier"`
	Size    int    `json:"size"`
	Summary string `json:"summary"`
}

// newVariantsCommand returns `taflmail variants`: the built-in rule sets,
// tier 1 first, one line each.
func newVariantsCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "variants",
		Short: "List the built-in Tafl variants",
		Long: `List the built-in Tafl variants, tier 1 (exact tournament rules) first, one
line each: the name to use with --variant and in mail, the board size and
what sets the rules apart (see ../shared/RULES.md §2).

With --json, one JSON object per line:
  {"name":"copenhagen","title":"…","tier":1,"size":11,"summary":"…"}`,
		Args:         noArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			vs := engine.Variants()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetEscapeHTML(false)
				for _, v := range vs {
					if err := enc.Encode(variantJSON{v.Name, v.Title, v.Tier, v.Size, v.Summary}); err != nil {
						return err
					}
				}
				return nil
			}
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			for _, v := range vs {
				fmt.Fprintf(tw, "%s\t%d×%d\t%s\n", v.Name, v.Size, v.Size, v.Summary)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per variant and line")
	return cmd
}
