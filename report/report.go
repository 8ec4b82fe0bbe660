// Package report prints what people read in the terminal, in hyperfine's
// shape: one block per benchmark as its runs finish (Benchmark), a summary
// table with hyperfine's "ran N times faster than" sentences (Summary), the
// GC table (GCTable) and machine warnings (Warnings).
//
// Every function takes a *harness.File whose statistics the harness has
// already computed; the groups of equal work, references and relative
// figures come from package analysis (analysis.Relate, and for the summary
// analysis.Summarize, which also decides its headline, the factors against
// the incumbent and the warnings gathered under it), so the terminal,
// Markdown, CSV and REPORT.md outputs agree on every figure: report only
// formats them. The text helpers every formatter shares (MdEscape,
// MarkdownTable, Plural, SortedKeys, Fixed, ...) live in text.go.
package report

import (
	"fmt"
	"strings"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
)

// Options controls the terminal output.
type Options struct {
	// Style decides colour (Style.Color); resolve AutoStyle with ResolveStyle
	// first, an unresolved AutoStyle prints without colour.
	Style Style
	// Unit is the time unit; Auto picks one per figure (Benchmark) or once
	// per table from the slowest mean (Summary, see TableUnit).
	Unit TimeUnit
	// Sort orders the summary: SortAuto (""), SortCell or SortMean; see
	// ParseSort.
	Sort string
	// Width is the terminal's width in columns, 0 when unknown or not a
	// terminal: a summary table wider than it is narrowed (see Summary).
	Width int
	// CPU adds the CPU time per unit of work to the summary table
	// (cpu-ns/cell beside ns/cell; run --cpu).
	CPU bool
}

// The --sort values.
const (
	// SortAuto orders by mean (fastest first) when every result has the
	// same parameters (a comparison of cells), and keeps the input order
	// when parameters vary (a parameter scan, which reads best as a series).
	SortAuto = "auto"
	// SortCell keeps the input order (the order cells were given in).
	SortCell = "cell"
	// SortMean orders by mean time, fastest first; results without a
	// successful run go last.
	SortMean = "mean"
)

// ParseSort parses a --sort value: auto (or empty), cell or mean,
// case-insensitively; hyperfine's names "command" and "mean-time" are
// accepted for cell and mean. It returns the canonical name.
func ParseSort(s string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return SortAuto, nil
	case "cell", "command", "input":
		return SortCell, nil
	case "mean", "mean-time", "time":
		return SortMean, nil
	}
	return "", fmt.Errorf("unknown sort order %q: accepted values are auto, cell (input order) and mean (fastest first)", s)
}

// Successful returns how many of r's runs succeeded: the runs the
// statistics are computed over.
func Successful(r *harness.Result) int {
	n := 0
	for i := range r.Runs {
		if !r.Runs[i].Failed {
			n++
		}
	}
	return n
}

// measured reports whether r has statistics to show.
func measured(r *harness.Result) bool { return Successful(r) > 0 }

// TableUnit returns the unit for a table of f's results: u itself, or when
// u is Auto the unit that suits the slowest mean, so that no mean in the
// table needs more than three digits before the point (the seed's table
// reads 0.776 … 10.731 s).
func TableUnit(f *harness.File, u TimeUnit) TimeUnit {
	if u != Auto {
		return u
	}
	slowest := 0.0
	for i := range f.Results {
		if r := &f.Results[i]; measured(r) && r.Mean > slowest {
			slowest = r.Mean
		}
	}
	return UnitFor(slowest)
}

// Order returns the indices of f.Results in the order by (SortAuto,
// SortCell or SortMean; anything else is taken as SortAuto), group by group
// as rel groups them: SortMean puts each group's fastest first (on rel's
// basis), SortCell keeps the input order, and SortAuto sorts a comparison
// of cells doing equal work and keeps a parameter scan in input order,
// which reads best as a series.
func Order(f *harness.File, rel *analysis.Relatives, by string) []int {
	fastestFirst := by == SortMean || (by != SortCell && rel.Basis == analysis.BasisTime)
	return rel.Order(f, fastestFirst)
}
