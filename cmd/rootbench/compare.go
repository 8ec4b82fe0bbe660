package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/internal/parse"
	"github.com/rootbench/rootbench/report/compare"
)

func newCompareCmd() *cobra.Command {
	var format, cells, threshold string
	cmd := &cobra.Command{
		Use:   "compare BASE.json NEW.json | compare --cells A,B FILE.json",
		Short: "Compare two results files (or two cells of one file) with benchstat-grade verdicts",
		Long: `Compare medians with their 95% confidence intervals and a Mann-Whitney U test
(golang.org/x/perf/benchmath, as benchstat does): one row per benchmark with the
delta, its interval, the p-value and a verdict (faster, slower, or ~ for no
significant difference), closed by a geomean row.

--fail-on-regression THRESHOLD makes this a CI gate: exit 1 only when a
benchmark is significantly slower AND its whole confidence interval lies beyond
the threshold, so noise alone never fails a build.`,
		Example: `  rootbench compare base.json new.json
  rootbench compare --format markdown --fail-on-regression 5% base.json new.json
  rootbench compare --cells ref,boxroot results.json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o := compare.Options{}
			if threshold != "" {
				t, err := compare.ParseThreshold(threshold)
				if err != nil {
					return usageErrorf("--fail-on-regression: %v", err)
				}
				o.Threshold = t
			}
			render, ok := map[string]func(io.Writer, *compare.Comparison) error{
				"text":     compare.Text,
				"markdown": compare.Markdown,
				"json":     compare.JSON,
			}[format]
			if !ok {
				return usageErrorf("--format %q: accepted: text, markdown, json", format)
			}
			var c *compare.Comparison
			var err error
			switch {
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
				if c, err = compare.Cells(f, names[0], names[1], o); err != nil {
					return usageError(err)
				}
			default:
				if len(args) != 2 {
					return usageErrorf("compare takes two results files, BASE.json NEW.json (or --cells A,B FILE.json); got %d argument(s)", len(args))
				}
				base, err := harness.Load(args[0])
				if err != nil {
					return usageError(err)
				}
				head, err := harness.Load(args[1])
				if err != nil {
					return usageError(err)
				}
				o.BaseName, o.HeadName = args[0], args[1]
				if c, err = compare.Files(base, head, o); err != nil {
					return usageError(err)
				}
			}
			if err = render(cmd.OutOrStdout(), c); err != nil {
				return err
			}
			if regs := c.Regressions(); o.Threshold > 0 && len(regs) > 0 {
				return &exitError{code: exitFailed, err: fmt.Errorf("%d benchmark(s) regressed beyond %.1f%%", len(regs), 100*o.Threshold)}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&format, "format", "text", "output format: text, markdown (a PR comment) or json")
	f.StringVar(&cells, "cells", "", "compare two cells (labels) within one file: BASE,NEW")
	f.StringVar(&threshold, "fail-on-regression", "", "exit 1 when a benchmark is significantly slower by more than this (e.g. 5%)")
	return cmd
}
