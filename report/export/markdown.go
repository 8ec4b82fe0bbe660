package export

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/report"
)

// Markdown writes hyperfine's Markdown table, one row per result in input
// order:
//
//	| Cell      | Mean [s]      | Min [s] | Max [s] | Relative    |
//	|:----------|--------------:|--------:|--------:|------------:|
//	| `ocaml`   | 0.776 ± 0.012 |   0.760 |   0.790 |        1.00 |
//	| `boxroot` | 1.686 ± 0.013 |   1.670 |   1.710 | 2.17 ± 0.04 |
//
// The unit is chosen once for the table (report.TableUnit: the one that
// suits the slowest mean) and numbers carry hyperfine's decimals. Relative
// is against harness.File.ReferenceResult, which shows "1.00". Labels are code spans
// with '|' escaped; a result without a successful run shows "failed".
func Markdown(w io.Writer, f *harness.File) error {
	if f == nil {
		return errors.New("markdown export: no results file")
	}
	u := report.TableUnit(f, report.Auto)
	ref := f.ReferenceResult()
	align := []tw.Align{tw.AlignLeft, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight}
	t := tablewriter.NewTable(w,
		tablewriter.WithRenderer(renderer.NewMarkdown()),
		tablewriter.WithConfig(tablewriter.Config{
			Header: tw.CellConfig{Formatting: tw.CellFormatting{AutoFormat: tw.Off}, Alignment: tw.CellAlignment{PerColumn: align}},
			Row:    tw.CellConfig{Formatting: tw.CellFormatting{AutoFormat: tw.Off}, Alignment: tw.CellAlignment{PerColumn: align}},
		}),
	)
	us := "[" + u.String() + "]"
	first := "Cell"
	if f.Workload == "callback" {
		first = "Variant"
	}
	t.Header(first, "Mean "+us, "Min "+us, "Max "+us, "Relative")
	for i := range f.Results {
		r := &f.Results[i]
		name := "`" + strings.ReplaceAll(r.Label, "|", `\|`) + "`"
		var err error
		if report.Successful(r) == 0 {
			err = t.Append(name, "failed", "-", "-", "-")
		} else {
			rel := "-"
			if x, sd, ok := report.Relative(r, ref); ok {
				rel = fmt.Sprintf("%.2f ± %.2f", x, sd)
				if r == ref {
					rel = "1.00"
				}
			}
			err = t.Append(name, u.Value(r.Mean)+" ± "+u.Value(r.Stddev), u.Value(r.Min), u.Value(r.Max), rel)
		}
		if err != nil {
			return fmt.Errorf("markdown row for %q: %w", r.Label, err)
		}
	}
	if err := t.Render(); err != nil {
		return fmt.Errorf("render markdown table: %w", err)
	}
	return nil
}
