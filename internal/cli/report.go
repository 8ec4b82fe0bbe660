package cli

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/parse"
	"github.com/rootbench/rootbench/report/document"
)

func newReportCmd() *cobra.Command {
	var dir, readme, readmeFiles string
	var hist historyOption
	cmd := &cobra.Command{
		Use:   "report [RESULT.json...] [--history[=PATH]] -o DIR",
		Short: "Write DIR/REPORT.md with charts (SVG and PNG) from one or more results files",
		Long: `Write DIR/REPORT.md and the charts it shows (SVG and PNG). REPORT.md holds one
table of the files (workload, configurations, runs, rootbench revision, when
measured) and the machine they ran on, then per file a summary, one GC table,
the implementations' counters and charts in ns/cell or ns/call (callback
files): mean per configuration with ±1σ error bars, box plots of every run, run
progression to spot drift, and one line chart per scanned parameter.
Configurations that several files share (two machines, a short and a long run)
are first compared in one bar chart per workload. A file that holds no results
is refused (exit 2).

--history (the default store) or --history=PATH writes DIR/HISTORY.md instead
of, or besides, REPORT.md: every series of the history store on wall and CPU
time, each with a chart of its medians (with their intervals) by commit, its
change points as shaded ranges (last good..first bad) with the level of each
segment, the change points' table and its commits, as 'rootbench history show'
finds them.`,
		Example: `  rootbench report results/msgpass.json -o results
  rootbench report laptop.json server.json -o /tmp/report
  rootbench report --history=ci-history.db -o /tmp/history`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 && !hist.given() {
				return usageErrorf("report needs results files, or --history: usage: %s", cmd.UseLine())
			}
			if dir == "" {
				return usageErrorf("-o DIR is required: the folder to write REPORT.md and the charts to")
			}
			if err := hist.resolve(); err != nil {
				return usageError(err)
			}
			if hist.given() {
				if err := writeHistoryReport(cmd, hist.path, dir); err != nil {
					return err
				}
				if len(args) == 0 {
					return nil
				}
			}
			var files []*harness.File
			var names []string
			for _, a := range args {
				f, err := harness.Load(a)
				if err != nil {
					return usageError(err)
				}
				if len(f.Results) == 0 {
					return usageErrorf("%s holds no results: nothing to report (accepted: a results file with at least one result, as rootbench run and callback write)", a)
				}
				analysis.Annotate(f) // the relative figures REPORT.md shows
				files = append(files, f)
				names = append(names, filepath.Base(a))
			}
			if readmeFiles != "" && readme == "" {
				return usageErrorf("--readme-files goes with --readme FILE")
			}
			hfiles, hnames, err := readmeTables(files, args, readmeFiles)
			if err != nil {
				return err
			}
			if err := document.Write(dir, files, names); err != nil {
				return fmt.Errorf("write the report: %w", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s\n", filepath.Join(dir, "REPORT.md"))
			if readme == "" {
				return nil
			}
			block, err := document.Headline(hfiles, hnames)
			if err != nil {
				return fmt.Errorf("the README's results block: %w", err)
			}
			if err := document.UpdateHeadline(readme, block); err != nil {
				return usageError(err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "updated the results block of %s\n", readme)
			return nil
		},
	}
	cmd.Flags().StringVarP(&dir, "output", "o", "", "folder for REPORT.md and the charts (created if needed)")
	hist.register(cmd.Flags(), "write DIR/"+document.HistoryName+" from the history store at PATH: its series with their change points and a chart each")
	cmd.Flags().StringVar(&readme, "readme", "", "also rewrite the results block of this Markdown file (between the markers "+
		"'<!-- results:begin' and '<!-- results:end -->') with a table per message-passing file of equal work that holds cgo-handle: mean ns per cell, CV, relative, and × faster than cgo-handle")
	cmd.Flags().StringVar(&readmeFiles, "readme-files", "", "with --readme: the results files (as given) whose tables the block shows, comma-separated (default: every one that qualifies)")
	return cmd
}

// readmeTables picks the files whose table the README's results block
// shows: a message-passing file of equal work that holds cgo-handle; only
// those named in list (comma-separated, as given on the command line) when
// list is not empty, each of which must qualify.
func readmeTables(files []*harness.File, args []string, list string) ([]*harness.File, []string, error) {
	qualifies := func(f *harness.File) bool {
		rel := analysis.Relate(f)
		return f.Workload == "msgpass" && rel.Basis == analysis.BasisTime && rel.Incumbent != ""
	}
	var chosen []string
	if list != "" {
		var err error
		if chosen, err = parse.List(list); err != nil {
			return nil, nil, usageErrorf("--readme-files: %v", err)
		}
	}
	var hfiles []*harness.File
	var hnames []string
	for _, name := range chosen {
		i := slices.Index(args, name)
		switch {
		case i < 0:
			return nil, nil, usageErrorf("--readme-files: %s is not among the results files given (%s)", name, strings.Join(args, ", "))
		case !qualifies(files[i]):
			return nil, nil, usageErrorf("--readme-files: %s has no table for the block: accepted: a message-passing file of equal work that holds cgo-handle", name)
		}
		hfiles, hnames = append(hfiles, files[i]), append(hnames, name)
	}
	if list != "" {
		return hfiles, hnames, nil
	}
	for i, f := range files {
		if qualifies(f) {
			hfiles, hnames = append(hfiles, f), append(hnames, args[i])
		}
	}
	return hfiles, hnames, nil
}

// writeHistoryReport writes dir/HISTORY.md from the store at path: every
// series on the default metrics, as history show reads them.
func writeHistoryReport(cmd *cobra.Command, path, dir string) error {
	doc, err := readHistory(cmd.Context(), path, historyQuery{metrics: defaultHistoryMetrics, repo: "."})
	if err != nil {
		return err
	}
	if err := document.WriteHistory(dir, doc); err != nil {
		return fmt.Errorf("write the history report: %w", err)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "wrote %s\n", filepath.Join(dir, document.HistoryName))
	return nil
}
