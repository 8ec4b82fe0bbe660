package export

import (
	"errors"
	"fmt"
	"io"

	"github.com/olekukonko/tablewriter/tw"

	"github.com/rootbench/rootbench/analysis"
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
// is decided by analysis.Relate: against each group's reference, which
// shows "1.00", and per unit of work when the results do different work
// (the header then reads "Relative per cell"). A single run's σ reads "—".
// Labels are code spans with '|' escaped; a result without a successful run
// shows "failed". When some result has the CPU time of its measured passes
// (analysis.HasCPU), a "CPU ns/cell" column (per call for callback) stands
// before Relative. A partial file (written before its run finished) is
// preceded by a line saying so.
func Markdown(w io.Writer, f *harness.File) error {
	if f == nil {
		return errors.New("markdown export: no results file")
	}
	if f.Partial {
		if _, err := fmt.Fprintf(w, "> **Partial results**: written before the run finished.\n\n"); err != nil {
			return fmt.Errorf("markdown export: %w", err)
		}
	}
	u := report.TableUnit(f, report.Auto)
	rel := analysis.Relate(f)
	us := "[" + u.String() + "]"
	first := "Cell"
	if f.Workload == "callback" {
		first = "Variant"
	}
	relHeader := "Relative"
	if b := rel.BasisLabel(); b != "" {
		relHeader += " " + b
	}
	header := []string{first, "Mean " + us, "Min " + us, "Max " + us}
	align := []tw.Align{tw.AlignLeft, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight}
	cpu := analysis.HasCPU(f)
	if cpu {
		header = append(header, "CPU ns/"+analysis.Unit(f))
		align = append(align, tw.AlignRight)
	}
	header = append(header, relHeader)
	var rows [][]string
	for i := range f.Results {
		r := &f.Results[i]
		name := report.MdCode(r.Label)
		n := report.Successful(r)
		if n == 0 {
			row := []string{name, "failed", report.Missing, report.Missing, report.Missing}
			if cpu {
				row = append(row, report.Missing)
			}
			rows = append(rows, row)
			continue
		}
		mean := u.Value(r.Mean)
		if n > 1 {
			mean += " ± " + u.Value(r.Stddev)
		} else {
			mean += " ± " + report.Missing
		}
		row := []string{name, mean, u.Value(r.Min), u.Value(r.Max)}
		if cpu {
			perUnit := report.Missing
			if ns, has := analysis.CPUPerUnit(r); has {
				perUnit = fmt.Sprintf("%.2f", ns)
			}
			row = append(row, perUnit)
		}
		rows = append(rows, append(row, report.RelativeText(rel.Rows[i])))
	}
	if err := report.MarkdownTable(w, header, rows, align); err != nil {
		return fmt.Errorf("markdown export: %w", err)
	}
	return nil
}
