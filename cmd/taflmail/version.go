package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is the release version, set at link time with
// -ldflags "-X main.version=v0.1.0" (docs/install.md stamps it with
// git describe); when empty, buildVersion asks the build information.
var version = ""

// buildVersion returns the version to print: the -X main.version value,
// else the module version (set by go install …@vX.Y.Z, "(devel)" for a
// build from a work tree), followed by the VCS revision when the build
// recorded one.
func buildVersion() string {
	v := version
	info, ok := debug.ReadBuildInfo()
	if v == "" {
		v = "(devel)"
		if ok && info.Main.Version != "" {
			v = info.Main.Version
		}
	}
	if !ok {
		return v
	}
	var rev, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" {
		v += " " + rev + dirty
	}
	return v
}

// newVersionCommand returns `taflmail version`: the taflmail version, the
// Go version it was built with and the platform.
func newVersionCommand() *cobra.Command {
	return &cobra.Command{
		Use:          "version",
		Short:        "Print the taflmail version",
		Args:         noArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintf(cmd.OutOrStdout(), "taflmail %s (%s %s/%s)\n",
				buildVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return err
		},
	}
}
