package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/report/historyreport"
)

func newHistoryShowCmd() *cobra.Command {
	var q historyQuery
	var format string
	cmd := &cobra.Command{
		Use:   "show [--cell ...] [--metric ...] [--since REV] [--format text|markdown|json]",
		Short: "Print each series of the history with its change points",
		Long: `Print each series of the history store (one metric of one benchmark with one
set of parameters on one kind of machine): a row per commit, in commit order,
with its date and subject (when git knows the commit), the median of its runs
with that median's 95% interval (benchmath's, as compare shows each side) and
its runs; then its change points.

A change point is a commit where the series' level shifts: analysis finds them
by E-divisive means with a t-test (as Apache Otava does) on each commit's
median log value. Each one gives the range last good..first bad that holds the
step (with probability ` + fmt.Sprint(analysis.ChangePointLocationConfidence) + `: the range a bisection searches), the change
as a percentage with its interval, and its p-value (every change is at level
` + fmt.Sprint(analysis.DefaultChangePointStrictLevel) + `); its mark (↑ a rise, ↓ a fall, numbered) is on the first bad
commit's row. The culprit that 'rootbench history bisect' named is shown
beside it, else the command that would bisect it. The error rates of the
method are measured in results/history.md (make history-check).

In a git repository (--repo), each series runs along HEAD's first-parent line:
the commits HEAD's branch has pointed at, oldest first, each merge standing
for the branch it brought in, so that a step made on a side branch shows at
its merge and last good..first bad is a git range that holds it; stored
commits off that line are left out (a series with no commit on it, measured in
another repository, is read in commit-time order). --all-commits reads every
stored commit instead, in commit-time order (side branches interleaved).
--since REV starts every series at REV's commit time, and change points are
sought from there on. --format markdown suits a CI job summary or an issue;
--format json (schema ` + historyreport.Schema + `) carries everything.

Exit status: 0; 2 with one line and nothing written for a store that does not
exist or is not a store, a --since revision that does not exist, an unknown
metric.`,
		Example: `  rootbench history show
  rootbench history show --cell boxroot-handle,boxroot --metric wall --since 51c97ff
  rootbench history show --format markdown >> "$GITHUB_STEP_SUMMARY"
  rootbench history show --format json > history.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch format {
			case "text", "markdown", "json":
			default:
				return usageErrorf("--format %q: accepted: text, markdown, json", format)
			}
			path, err := historyPath(cmd)
			if err != nil {
				return err
			}
			doc, err := readHistory(cmd.Context(), path, q)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			switch format {
			case "markdown":
				return historyreport.Markdown(out, doc, 3)
			case "json":
				return historyreport.WriteJSON(out, doc)
			}
			return historyreport.Text(out, doc)
		},
	}
	q.register(cmd.Flags())
	cmd.Flags().StringVar(&format, "format", "text", "output: text (80 columns), markdown, or json (schema "+historyreport.Schema+")")
	return cmd
}
