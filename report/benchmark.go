package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/harness/stats"
)

// Warning thresholds.
const (
	// maxFailureDetails caps how many failed runs have their reason and
	// stderr printed; maxStderrLines caps each stderr tail.
	maxFailureDetails = 3
	maxStderrLines    = 10
)

// Benchmark prints one benchmark's block as hyperfine does, idx being the
// 1-based number shown in its title:
//
//	Benchmark 1: boxroot
//	  Time (mean ± σ):      1.686 s ±  0.013 s    [User: 3.102 s, System: 0.101 s]
//	  Range (min … max):    1.670 s …  1.710 s    10 runs
//	  Per cell:            16.46 ns/cell    60.75 M cells/s
//	  CPU per cell:        31.02 ns/cell    of the measured passes, every thread
//
// (the CPU line when o.CPU asks for it and the runs measured it), followed
// by its failures: the failed runs' reasons and stderr tails (the
// statistical warnings are gathered under the summary: gatheredWarnings). A
// single successful run prints hyperfine's "Time (abs ≡)" line instead of
// mean ± σ and range. Times are in o.Unit, or in the unit suiting the mean
// when it is Auto. f supplies the unit of work (cell or call) and may be
// nil.
func Benchmark(w io.Writer, f *harness.File, idx int, r *harness.Result, o Options) {
	p := painter(o.Style.Color())
	unit := analysis.Unit(f)
	ok := Successful(r)
	fmt.Fprintf(w, "%s: %s\n", p.paint(fmt.Sprintf("Benchmark %d", idx), ansiBold), r.Label)

	if ok == 0 {
		fmt.Fprintf(w, "  %s\n", p.paint(fmt.Sprintf("All %d runs failed: no statistics.", len(r.Runs)), ansiBold))
	} else {
		u := o.Unit.Resolve(r.Mean)
		cpu := p.paint("[User: ", ansiDim) + p.paint(u.Format(r.UserMean), ansiBlue) +
			p.paint(", System: ", ansiDim) + p.paint(u.Format(r.SysMean), ansiBlue) + p.paint("]", ansiDim)
		if ok == 1 {
			fmt.Fprintf(w, "  Time (%s ≡):        %s  %8s     %s\n",
				p.paint("abs", ansiGreen, ansiBold), p.paint(pad8(u.Format(r.Mean)), ansiGreen, ansiBold), "", cpu)
		} else {
			fmt.Fprintf(w, "  Time (%s ± %s):     %s %s %s    %s\n",
				p.paint("mean", ansiGreen, ansiBold), p.paint("σ", ansiGreen),
				p.paint(pad8(u.Format(r.Mean)), ansiGreen, ansiBold), p.paint("±", ansiGreen),
				p.paint(pad8(u.Format(r.Stddev)), ansiGreen), cpu)
			fmt.Fprintf(w, "  Range (%s … %s):   %s … %s    %s\n",
				p.paint("min", ansiCyan), p.paint("max", ansiMagenta),
				p.paint(pad8(u.Format(r.Min)), ansiCyan), p.paint(pad8(u.Format(r.Max)), ansiMagenta),
				p.paint(fmt.Sprintf("%d runs", ok), ansiDim))
		}
		if r.NsPerCell > 0 {
			perSec := r.CellsPerSec
			if !(perSec > 0) {
				perSec = 1e9 / r.NsPerCell
			}
			fmt.Fprintf(w, "  %-21s%s/%s    %s\n", "Per "+unit+":",
				pad8(fmt.Sprintf("%.2f ns", r.NsPerCell)), unit, p.paint(rate(perSec, unit), ansiDim))
		}
		if cpuPer, has := analysis.CPUPerUnit(r); o.CPU && has {
			fmt.Fprintf(w, "  %-21s%s/%s    %s\n", "CPU per "+unit+":",
				pad8(fmt.Sprintf("%.2f ns", cpuPer)), unit, p.paint("of the measured passes, every thread", ansiDim))
		}
	}

	ws := failureWarnings(r, ok)
	if len(ws) == 0 {
		return
	}
	fmt.Fprintln(w)
	for _, x := range ws {
		fmt.Fprintf(w, "  %s: %s\n", p.paint("Warning", ansiYellow), x.text)
		for _, d := range x.details {
			if d == "" {
				fmt.Fprintln(w)
			} else {
				fmt.Fprintf(w, "  %s\n", d)
			}
		}
	}
}

// pad8 right-aligns s in hyperfine's eight-character value field.
func pad8(s string) string { return fmt.Sprintf("%8s", s) }

// rate formats a throughput with an SI prefix: "60.75 M cells/s".
func rate(perSec float64, unit string) string {
	prefix := ""
	switch {
	case perSec >= 1e9:
		perSec, prefix = perSec/1e9, "G "
	case perSec >= 1e6:
		perSec, prefix = perSec/1e6, "M "
	case perSec >= 1e3:
		perSec, prefix = perSec/1e3, "k "
	}
	return fmt.Sprintf("%.2f %s%ss/s", perSec, prefix, unit)
}

// warning is one warning line with optional indented detail lines.
type warning struct {
	text    string
	details []string
}

// failureWarnings lists what Benchmark warns about under r's block, r
// having ok successful runs: its failures, with their details. The
// statistical warnings are gathered once under the summary instead (see
// gatheredWarnings).
func failureWarnings(r *harness.Result, ok int) []warning {
	var ws []warning
	for _, x := range r.Warnings {
		if x.Kind == harness.WarningFailure {
			ws = append(ws, warning{text: x.Text})
		}
	}
	if failed := len(r.Runs) - ok; failed > 0 {
		ws = append(ws, warning{text: "Failed runs:", details: failureDetails(r)})
	}
	return ws
}

// gatheredWarnings states the statistical warnings of f's results, as s
// gathers them, once for under the summary: one line for every noisy
// benchmark (its runs vary by more than stats.CVWarnThreshold), "3
// benchmarks vary by more than 5%: ocaml (12.9%), ...", then one line per
// other distinct warning naming the benchmarks it concerns.
func gatheredWarnings(f *harness.File, s *analysis.RunSummary) []string {
	var out []string
	if n := len(s.Noisy); n > 0 {
		varying := make([]string, n)
		for k, i := range s.Noisy {
			varying[k] = fmt.Sprintf("%s (%.1f%%)", f.Results[i].Label, 100*f.Results[i].CV)
		}
		out = append(out, fmt.Sprintf("%d benchmark%s var%s by more than %.0f%% (coefficient of variation): %s. "+
			"Consider a quieter system, --pin, or more runs.",
			n, Plural(n), map[bool]string{true: "y", false: "ies"}[n > 1], 100*stats.CVWarnThreshold, strings.Join(varying, ", ")))
	}
	for _, g := range s.Gathered {
		who := make([]string, len(g.Results))
		for k, i := range g.Results {
			who[k] = f.Results[i].Label
		}
		out = append(out, strings.Join(who, ", ")+": "+g.Text)
	}
	return out
}

// failureDetails describes the first maxFailureDetails failed runs: the
// reason, then the tail of stderr indented below it.
func failureDetails(r *harness.Result) []string {
	var out []string
	shown, failed := 0, 0
	for i := range r.Runs {
		run := &r.Runs[i]
		if !run.Failed {
			continue
		}
		failed++
		if shown == maxFailureDetails {
			continue
		}
		shown++
		reason := strings.TrimSpace(run.Error)
		if reason == "" {
			reason = "no reason recorded"
		}
		out = append(out, fmt.Sprintf("  run %d of %d: %s", i+1, len(r.Runs), reason))
		tail := strings.Split(strings.TrimRight(run.StderrTail, " \t\r\n"), "\n")
		if len(tail) > maxStderrLines {
			tail = tail[len(tail)-maxStderrLines:]
		}
		if len(tail) == 1 && strings.TrimSpace(tail[0]) == "" {
			continue // no stderr recorded
		}
		for _, l := range tail {
			if l = strings.TrimRight(l, " \t\r"); l == "" {
				out = append(out, "")
			} else {
				out = append(out, "      "+l)
			}
		}
	}
	if failed > shown {
		out = append(out, fmt.Sprintf("  … and %d more failed run%s", failed-shown, Plural(failed-shown)))
	}
	return out
}

// Warnings prints machine- or file-level warnings, one per line, each
// prefixed by "Warning:" (yellow when the style has colour).
func Warnings(w io.Writer, warnings []string, o Options) {
	p := painter(o.Style.Color())
	for _, x := range warnings {
		fmt.Fprintf(w, "%s: %s\n", p.paint("Warning", ansiYellow), x)
	}
}
