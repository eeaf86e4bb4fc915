package main

import (
	"github.com/spf13/cobra"
)

// NewRootCommand returns the taflmail command with every subcommand added.
// It holds no global state: each call builds a fresh tree, so tests run
// commands side by side with SetArgs, SetOut and SetErr.
//
// Errors are not printed by cobra (SilenceErrors): Execute returns them and
// main reports them, a *usageError with exit status 2, anything else with
// status 1.
func NewRootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "taflmail",
		Short: "Play Tafl board games by email",
		Long: `taflmail plays Tafl board games (Copenhagen Hnefatafl, Fetlar, Tablut,
Brandubh, …) by email.

'taflmail serve' is the mail referee; 'taflmail demo' plays a whole game by
mail on a built-in mail server; validate, diagram and convert work on game
records (native, OpenTafl .otg, CSV); standings and ratings compute
tournament crosstables and Glicko-2 ratings from records; 'taflmail
tournament' runs correspondence tournaments through the referee; analyse
asks the engine opponent for the best line of a position, and 'engine
--otep' lets OpenTafl play it.`,
		SilenceErrors: true,
		SilenceUsage:  true,
		// Taking any arguments keeps cobra from rejecting an unknown
		// subcommand with a plain error; RunE rejects it as a usage error.
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return unknownCommand(cmd, args[0])
			}
			return cmd.Help()
		},
	}
	root.SuggestionsMinimumDistance = 2
	root.SetFlagErrorFunc(flagError)
	root.CompletionOptions.HiddenDefaultCmd = true
	root.SetHelpCommand(newHelpCommand())
	root.AddCommand(
		newVariantsCommand(),
		newPerftCommand(),
		newVersionCommand(),
		newValidateCommand(),
		newDiagramCommand(),
		newConvertCommand(),
		newServeCommand(),
		newDemoCommand(),
		newInspectCommand(),
		newGamesCommand(),
		newShowCommand(),
		newExportCommand(),
		newOutboxCommand(),
		newBackupCommand(),
		newMailsCommand(),
		newConfigCommand(),
		newStandingsCommand(),
		newRatingsCommand(),
		newAnalyseCommand(),
		newEngineCommand(),
		newTournamentCommand(),
		newSiteCommand(),
	)
	return root
}
