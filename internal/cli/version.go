package cli

import (
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/workload/callback"
)

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, VCS revision, Go version and build features (also --version, -V)",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			fmt.Fprint(cmd.OutOrStdout(), versionText())
		},
	}
}

// versionText is what `rootbench version` and `rootbench --version` print.
func versionText() string {
	t := harness.CollectTool(nil)
	rev := t.Revision
	if rev == "" {
		rev = "unknown"
	}
	if t.Modified {
		rev += " (modified)"
	}
	return fmt.Sprintf("rootbench %s\nrevision  %s\ngo        %s %s/%s\ncgo       %v\n",
		t.Version, rev, t.GoVersion, runtime.GOOS, runtime.GOARCH, callback.Available)
}
