package harness

import (
	"fmt"
	"time"

	"github.com/rootbench/rootbench/harness/stats"
)

// Summarize (re)computes every Result's descriptive statistics, outlier
// flags and warnings from its runs, so that a loaded file can be trusted
// whatever wrote it. Only successful runs enter the statistics.
//
// Summarize decides nothing across results: the reference, the relative
// figures, the CPU time per unit of work and every comparison belong to the
// analysis package, which fills Result.Relative and its companions, and
// Result.CPUNsPerCell, before export (analysis.Annotate). Summarize clears
// them, so a stale copy never survives a change of runs.
//
// Summarize is idempotent: it replaces each Result's warnings.
func Summarize(f *File) {
	for i := range f.Results {
		r := &f.Results[i]
		summarizeResult(r, f.Warmup)
		r.Relative, r.RelativeStddev, r.RelativeBasis, r.RelativeTo = 0, 0, "", ""
		r.CPUNsPerCell = 0
	}
}

// summarizeResult computes one result's statistics and warnings. warmup is
// the file's warm-up count (for the slow-first-run hint).
func summarizeResult(r *Result, warmup int) {
	var wall, user, sys []float64
	var cells, wallNs float64
	r.Failed = 0
	for i := range r.Runs {
		run := &r.Runs[i]
		run.Outlier = false
		if run.Failed {
			r.Failed++
			continue
		}
		wall = append(wall, float64(run.WallNs)/1e9)
		user = append(user, float64(run.UserNs)/1e9)
		sys = append(sys, float64(run.SysNs)/1e9)
		cells += float64(run.Cells)
		wallNs += float64(run.WallNs)
	}
	s := stats.Describe(wall)
	r.Mean, r.Stddev, r.Median, r.Min, r.Max, r.CV = s.Mean, s.Stddev, s.Median, s.Min, s.Max, s.CV
	r.UserMean = stats.Describe(user).Mean
	r.SysMean = stats.Describe(sys).Mean
	r.NsPerCell, r.CellsPerSec = 0, 0
	if cells > 0 && wallNs > 0 {
		r.NsPerCell = wallNs / cells
		r.CellsPerSec = cells / (wallNs / 1e9)
	}
	flags, n := stats.Outliers(wall)
	r.Outliers = n
	j := 0
	for i := range r.Runs {
		if !r.Runs[i].Failed {
			r.Runs[i].Outlier = flags[j]
			j++
		}
	}

	r.Warnings = resultWarnings(r.Runs, warmup)
}

// resultWarnings is what Summarize warns about a result whose runs are
// runs, warmup being the file's warm-up count: failed runs, no successful
// run, hyperfine's slow first run or outliers, a coefficient of variation
// above stats.CVWarnThreshold (the one place that decides a result is
// noisy), too few runs for an interval on the median. It reads the runs
// alone, so that Decode recomputes a loaded file's warnings (and their
// kinds) exactly as Summarize wrote them.
func resultWarnings(runs []Run, warmup int) []Warning {
	var ws []Warning
	add := func(k WarningKind, text string) { ws = append(ws, Warning{Kind: k, Text: text}) }
	var wall []float64
	failed, firstErr := 0, ""
	for i := range runs {
		if runs[i].Failed {
			failed++
			if firstErr == "" {
				firstErr = runs[i].Error
			}
			continue
		}
		wall = append(wall, float64(runs[i].WallNs)/1e9)
	}
	if failed > 0 {
		add(WarningFailure, fmt.Sprintf("%d of %d runs failed and are left out of the statistics (first failure: %s).",
			failed, len(runs), firstErr))
	}
	if len(wall) == 0 {
		if len(runs) > 0 {
			add(WarningFailure, "No successful runs: there are no statistics for this benchmark.")
		}
		return ws
	}
	// hyperfine's two outlier warnings, the first taking precedence.
	if _, n := stats.Outliers(wall); stats.SlowFirstRun(wall) {
		add(WarningOther, slowFirstRunWarning(wall[0], warmup))
	} else if n > 0 {
		w := "Statistical outliers were detected. Consider re-running this benchmark on a quiet system without any interferences from other programs."
		if warmup == 0 {
			w += " It might help to use the '--warmup' option."
		}
		add(WarningOther, w)
	}
	if s := stats.Describe(wall); s.N > 1 && s.CV > stats.CVWarnThreshold {
		add(WarningVariation, fmt.Sprintf(
			"The coefficient of variation is %.1f%% (above %.0f%%): the runs vary a lot. Consider a quieter system, --pin, or more runs.",
			100*s.CV, 100*stats.CVWarnThreshold))
	}
	for _, w := range stats.MedianCIWarnings(wall, stats.MedianConfidence) {
		add(WarningOther, fmt.Sprintf(
			"Too few runs for a %.0f%% confidence interval on the median (%d successful): %s; use --runs or --min-runs.",
			100*stats.MedianConfidence, len(wall), w))
	}
	return ws
}

// slowFirstRunWarning is hyperfine's SlowInitialRun warning, adapted: rootbench
// has --warmup but no --prepare, and a fresh process per run.
func slowFirstRunWarning(first float64, warmup int) string {
	w := fmt.Sprintf("The first benchmarking run for this benchmark was significantly slower than the rest (%v). "+
		"This could be caused by (filesystem) caches that were not filled until after the first run. ",
		time.Duration(first*1e9).Round(time.Microsecond))
	if warmup > 0 {
		return w + "You are already using the '--warmup' option which helps to fill these caches before the actual benchmark. " +
			"You can either try to increase the warmup count further or re-run this benchmark on a quiet system in case it was a random outlier."
	}
	return w + "You should consider using the '--warmup' option to fill those caches before the actual benchmark."
}

// FailedRuns counts the failed runs in the file (warm-up failures included).
func (f *File) FailedRuns() int {
	n := 0
	for i := range f.Results {
		for _, run := range f.Results[i].Runs {
			if run.Failed {
				n++
			}
		}
	}
	return n
}

// RecomputeWarnings replaces every result's warnings with the ones
// Summarize would write from its runs, leaving its statistics as they are:
// a results file stores each warning's text alone, and its kind comes back
// this way (Decode calls it).
func RecomputeWarnings(f *File) {
	for i := range f.Results {
		f.Results[i].Warnings = resultWarnings(f.Results[i].Runs, f.Warmup)
	}
}
