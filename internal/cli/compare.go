package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/exitstatus"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/parse"
	"github.com/rootbench/rootbench/report/compare"
)

func newCompareCmd() *cobra.Command {
	var format, cells, threshold, method, alpha, metric, unit, ignore string
	var layouts bool
	cmd := &cobra.Command{
		Use:   "compare BASE NEW | compare --cells A,B FILE.json | compare --layouts AB.json AB.json...",
		Short: "Compare two results files, two go test -bench outputs, or two cells of one file, with a three-way regression gate",
		Long: `Compare every benchmark present on both sides: one row per benchmark with both
medians, the change (delta) with its confidence interval, the p-value and a
verdict (faster, slower, or ~ for no significant difference), closed by a
geomean row. When the two sides do different work per run, the row compares
time per unit of work and says so.

BASE and NEW are rootbench results files (JSON) or the text go test -bench
prints (the files benchstat reads), told apart by their first character.

Results files are judged on wall time and on CPU time (--metric): one row per
benchmark and metric, every row under one correction and one gate, which fails
when either metric regresses. CPU time is the workers' over their measured
passes; files from workers that predate it are judged on the whole process's
CPU time (start-up and warm-up included), and say so. On a busy machine wall
time sees the load and often stays undecided where CPU time decides; CPU time
misses time spent blocked and counts spinning.

Go benchmark text is judged on every unit it carries, one row per benchmark
and unit (sec/op, B/op, allocs/op, B/s, custom units; --unit chooses), as
benchstat does: 'Unit NAME assume=exact' lines and higher-is-better units (B/s)
are honoured, and a benchmark is compared only with one of the same
configuration (the 'key: value' lines), unless --ignore KEY says otherwise.

--method hl (the default): the Hodges-Lehmann shift of log times with the
Mann-Whitney (Moses) interval; a row is significant exactly when its interval
excludes 0, and Holm's correction keeps the chance of any false alarm across
the table at --alpha. --method benchstat reproduces benchstat exactly (no
correction across rows).

--fail-on-regression T makes this a CI gate with three outcomes per row (T is
a percentage with its '%': 5%, 0.5%; a bare number is refused, since 5 could
mean 5% or the fraction 5):
pass when the interval lies wholly below +T; regression when the change is
significant and its estimate is beyond +T; otherwise inconclusive, with about
how many more runs per side would decide it. No row passes merely because its
data are too noisy.

--layouts combines A/B sessions of one change in several function layouts,
the files ab --export-json writes (ab --layouts writes NAME.layout-N.json):
each file is one layout, and each row's per-layout estimates are combined as
ab --layouts combines them (Student's t across the layouts, Holm across rows).
It recombines sessions run apart, on other runners or after an interrupted
ab --layouts.

` + fmt.Sprintf(`Exit status: %d pass (or no gate), %d regression, %d inconclusive, %d bad input
(flags, files, or samples that are not positive finite numbers).`, exitstatus.Success, exitstatus.Failed, exitstatus.Inconclusive, exitstatus.Usage),
		Example: `  rootbench compare base.json new.json
  go test -bench . -count 10 > new.txt; rootbench compare --fail-on-regression 5% old.txt new.txt
  rootbench compare --format markdown --fail-on-regression 5% base.json new.json
  rootbench compare --cells ocaml,boxroot --fail-on-regression 5% results/msgpass.json
  rootbench compare --method benchstat base.json new.json
  rootbench compare --metric cpu --fail-on-regression 5% base.json new.json
  rootbench compare --unit sec/op,allocs/op --ignore note old.txt new.txt
  rootbench compare --layouts --fail-on-regression 5% ab.layout-*.json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("compare needs results files\nUsage: %s", cmd.UseLine())
			}
			o := analysis.Options{}
			var err error
			if o.Method, err = analysis.ParseMethod(method); err != nil {
				return usageErrorf("--method: %v", err)
			}
			if o.Alpha, err = analysis.ParseAlpha(alpha); err != nil {
				return usageErrorf("--%v", err)
			}
			if threshold != "" {
				t, err := analysis.ParseThreshold(threshold)
				if err != nil {
					return usageErrorf("--fail-on-regression: %v", err)
				}
				o.Threshold = t
			}
			if o.Metrics, err = analysis.ParseMetrics(metric); err != nil {
				return usageErrorf("--metric: %v", err)
			}
			if cmd.Flags().Changed("unit") {
				if o.Units, err = analysis.ParseUnits(unit); err != nil {
					return usageErrorf("--unit: %v", err)
				}
			}
			if cmd.Flags().Changed("ignore") {
				if o.Ignore, err = parse.List(ignore); err != nil {
					return usageErrorf("--ignore: %v", err)
				}
			}
			if (layouts || cells != "") && (o.Units != nil || o.Ignore != nil) {
				return usageErrorf("--unit and --ignore: apply to two files of go test -bench text, not to --layouts or --cells")
			}
			render, ok := map[string]func(io.Writer, *analysis.Comparison) error{
				"text": func(w io.Writer, c *analysis.Comparison) error {
					f, _ := w.(*os.File)
					return compare.TextWidth(w, c, terminalColumns(f))
				},
				"markdown": compare.Markdown,
				"json":     compare.JSON,
			}[format]
			if !ok {
				return usageErrorf("--format %q: accepted: text, markdown, json", format)
			}
			var c *analysis.Comparison
			switch {
			case layouts:
				if cells != "" || o.Method != analysis.MethodHL {
					return usageErrorf("--layouts: combines A/B sessions by its own method; it takes no --cells or --method")
				}
				if c, err = compareLayoutFiles(args, o); err != nil {
					return usageError(err)
				}
			case cells != "":
				if len(args) != 1 {
					return usageErrorf("--cells A,B takes exactly one results file, got %d", len(args))
				}
				names, err := parse.List(cells)
				if err != nil || len(names) != 2 {
					return usageErrorf("--cells %q: expected two labels, A,B (A is the base)", cells)
				}
				f, err := harness.Load(args[0])
				if err != nil {
					return usageError(err)
				}
				if c, err = analysis.CompareCells(f, names[0], names[1], o); err != nil {
					return usageError(err)
				}
			default:
				if len(args) != 2 {
					return usageErrorf("compare takes two results files or go test -bench outputs, BASE NEW (or --cells A,B FILE.json); got %d argument(s)", len(args))
				}
				o.BaseName, o.HeadName = args[0], args[1]
				if c, err = analysis.ComparePaths(args[0], args[1], o); err != nil {
					return usageError(err)
				}
			}
			if c.Workload == harness.GoBenchWorkload && cmd.Flags().Changed("metric") {
				return usageErrorf("--metric: go test -bench text is judged on its units, not on wall and CPU time: choose them with --unit")
			}
			if err = render(cmd.OutOrStdout(), c); err != nil {
				return err
			}
			return gateError(c, "")
		},
	}
	f := cmd.Flags()
	f.StringVar(&format, "format", "text", "output format: text, markdown (a PR comment) or json (schema "+compare.JSONSchema+")")
	f.StringVar(&cells, "cells", "", "compare two cells (labels) within one file: BASE,NEW")
	f.StringVar(&threshold, "fail-on-regression", "", "gate: exit 1 on a significant slowdown beyond this percentage (with its %, e.g. 5%), 3 when undecided, 0 when every row passes")
	f.StringVar(&method, "method", "hl", "statistics: hl (Hodges-Lehmann + Holm, the default) or benchstat (exactly benchstat's)")
	f.StringVar(&alpha, "alpha", "", fmt.Sprintf("error rate: across the table for hl, per row for benchstat (default %v)", analysis.DefaultAlpha))
	f.StringVar(&metric, "metric", analysis.DefaultMetrics, "results files: the metrics judged, a row each: wall (workload wall time), cpu (CPU time of the measured passes), or both")
	f.StringVar(&unit, "unit", "", "go test -bench text: the units judged, a row each, e.g. sec/op,B/op,allocs/op (default: every unit the text carries)")
	f.StringVar(&ignore, "ignore", "", "go test -bench text: configuration keys whose values may differ between the benchmarks compared, as benchstat's -ignore (e.g. note)")
	f.BoolVar(&layouts, "layouts", false, "the files are ab --export-json sessions of one change in several function layouts (two or more): combine them")
	return cmd
}

// gateError turns a comparison's gate outcome into the exit status: nil
// for pass (or no gate), exit 1 for a regression, exit 3 when inconclusive.
// against names the baseline in the message ("" for compare).
func gateError(c *analysis.Comparison, against string) error {
	suffix := ""
	if against != "" {
		suffix = " against " + against
	}
	switch c.Outcome() {
	case analysis.Regression:
		return &exitError{code: analysis.Regression.ExitCode(), err: fmt.Errorf("%d benchmark(s) regressed beyond %.4g%%%s",
			benchmarks(c.Regressions()), 100*c.Threshold, suffix)}
	case analysis.Inconclusive:
		more := "more runs would decide (the summary line says about how many)"
		if c.Mode == analysis.ModeLayouts {
			more = "more layouts would decide"
		}
		return &exitError{code: analysis.Inconclusive.ExitCode(), err: fmt.Errorf("inconclusive%s: %d benchmark(s) undecided at the %.4g%% gate; %s",
			suffix, benchmarks(c.Undecided()), 100*c.Threshold, more)}
	}
	return nil
}

// benchmarks counts the benchmarks of rows (a benchmark has a row per
// metric).
func benchmarks(rows []analysis.Row) int {
	seen := map[string]bool{}
	for _, r := range rows {
		seen[r.Label] = true
	}
	return len(seen)
}

// compareLayoutFiles loads A/B session files, one per function layout, and
// combines them (analysis.CompareLayouts). A layout is named by the layout
// its file records (ab --layouts), else by the file's name ("standard input"
// for -).
func compareLayoutFiles(paths []string, o analysis.Options) (*analysis.Comparison, error) {
	if len(paths) < 2 {
		return nil, fmt.Errorf("--layouts needs two or more A/B session files (ab --export-json), one per layout; got %d", len(paths))
	}
	var sessions []analysis.LayoutSession
	seen := map[string]string{}
	for _, p := range paths {
		f, err := harness.LoadAB(p)
		if err != nil {
			return nil, err
		}
		name := f.Layout
		if name == "" && p == "-" {
			name = "standard input"
		} else if name == "" {
			name = filepath.Base(p)
		}
		if other, ok := seen[name]; ok {
			return nil, fmt.Errorf("%s and %s are both layout %s: each layout is one session", other, p, name)
		}
		seen[name] = p
		sessions = append(sessions, analysis.LayoutSession{Layout: name, Base: f.Base, Head: f.Head})
	}
	return analysis.CompareLayouts(sessions, o)
}
