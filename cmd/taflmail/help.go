package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// newHelpCommand returns `taflmail help [COMMAND...]`, which replaces
// cobra's: an unknown topic is a usage error (exit status 2) that lists
// the topics, where cobra's would print the root's help, since the root
// command takes arguments.
func newHelpCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "help [COMMAND [SUBCOMMAND]]",
		Short: "Help about any command",
		Long: `help prints the help of a command, e.g. 'taflmail help diagram' or
'taflmail help config check'; without a command, taflmail's own.`,
		Args:         cobra.ArbitraryArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			target := cmd.Root()
			for _, word := range args {
				next := subcommand(target, word)
				if next == nil {
					return unknownTopic(cmd, target, args, word)
				}
				target = next
			}
			// The --help flag a command gets when it runs itself: without
			// it the usage lines differ from 'COMMAND --help' (no
			// "[flags]" on a command that has no other flag).
			target.InitDefaultHelpFlag()
			return target.Help()
		},
	}
}

// subcommand returns the subcommand of cmd named (or aliased) word, or
// nil; hidden and deprecated commands have no help topic.
func subcommand(cmd *cobra.Command, word string) *cobra.Command {
	for _, c := range cmd.Commands() {
		if !c.Hidden && c.Deprecated == "" && (c.Name() == word || c.HasAlias(word)) {
			return c
		}
	}
	return nil
}

// unknownTopic is the usage error for help on args, whose word names no
// subcommand of parent: it lists parent's subcommands, with cobra's
// spelling suggestions.
func unknownTopic(help, parent *cobra.Command, args []string, word string) error {
	var topics []string
	for _, c := range parent.Commands() {
		if c.IsAvailableCommand() {
			topics = append(topics, c.Name())
		}
	}
	msg := fmt.Sprintf("unknown help topic %q", strings.Join(args, " "))
	if s := parent.SuggestionsFor(word); len(s) > 0 {
		msg += " (did you mean " + strings.Join(s, " or ") + "?)"
	}
	where := "the topics are"
	if parent != parent.Root() {
		where = "the topics of " + parent.CommandPath() + " are"
	}
	if len(topics) == 0 {
		msg += "; " + parent.CommandPath() + " has no subcommands"
	} else {
		msg += "; " + where + ": " + strings.Join(topics, ", ")
	}
	return &usageError{path: help.CommandPath(), err: fmt.Errorf("%s", msg)}
}
