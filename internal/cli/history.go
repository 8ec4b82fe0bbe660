package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rootbench/rootbench/history"
	"github.com/rootbench/rootbench/internal/gitrev"
)

// historyFlag is the flag that chooses the history store, on the history
// command and every subcommand.
const historyFlag = "history"

func newHistoryCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "history",
		Short: "Keep a history of measured commits: one store of every results file added",
		Long: `A history keeps every results file added to it, placed by the commit of the
binary that measured it, and reads them as series: one metric of one benchmark
with one set of parameters on one kind of machine, one point per commit in
commit order. Runs of different machines or parameters are never mixed.

The store is one SQLite file: --history PATH, else $` + history.Env + `, else
` + history.FileName + ` in rootbench's cache directory ($` + gitrev.CacheEnv + `, else rootbench
in the user cache directory, where ab caches its builds). Each add is one
transaction: a killed rootbench leaves the store as it was before the add or
after it. A second rootbench writing to the same store waits for the first up
to ` + history.DefaultLockWait.String() + `, then gives up (exit 2).

show prints each series with its change points (commits where its level
shifts, found by analysis); backfill builds and measures past revisions into
the store; bisect runs bisect over a change point's range and records the
culprit. run, callback and ab add what they measure with --history.`,
		Example: `  rootbench history add run.json
  rootbench history --history ci.db add --branch main ab.json
  rootbench history show --cell boxroot-handle --since v1.0
  rootbench history backfill --since 51c97ff --every 8 --cell boxroot-handle,boxroot
  rootbench history bisect --cell boxroot-handle --change 1`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return nil
			}
			var names []string
			for _, sub := range c.Commands() {
				if sub.IsAvailableCommand() {
					names = append(names, sub.Name())
				}
			}
			return usageErrorf("unknown command %q for %q: accepted: %s (see '%s --help')",
				args[0], c.CommandPath(), strings.Join(names, ", "), c.CommandPath())
		},
		RunE: func(c *cobra.Command, _ []string) error { return c.Help() },
	}
	cmd.PersistentFlags().String(historyFlag, "", "the history store's file (default: $"+history.Env+", else "+history.FileName+" in rootbench's cache directory)")
	cmd.AddCommand(withUsageOnMissingArgs(newHistoryAddCmd()), newHistoryShowCmd(), newHistoryBisectCmd(), newHistoryBackfillCmd())
	return cmd
}

// historyPath resolves the store a history command names (--history,
// else $ROOTBENCH_HISTORY, else the default) and checks that its
// directory can hold it, before anything is read or measured; a failure
// is a one-line usage error (exit 2).
func historyPath(cmd *cobra.Command) (string, error) {
	flag, err := cmd.Flags().GetString(historyFlag)
	if err != nil {
		return "", fmt.Errorf("--%s: %w", historyFlag, err)
	}
	path, err := history.Path(flag)
	if err != nil {
		return "", usageError(err)
	}
	if err := history.Prepare(path); err != nil {
		return "", usageError(err)
	}
	return path, nil
}
