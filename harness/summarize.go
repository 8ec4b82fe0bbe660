package harness

import (
	"fmt"
	"strings"
	"time"

	"github.com/rootbench/rootbench/harness/stats"
)

// Summarize (re)computes every Result's descriptive statistics, outlier
// flags and warnings from its runs, so that a loaded file can be trusted
// whatever wrote it. Only successful runs enter the statistics.
//
// Summarize decides nothing across results: the reference, the relative
// figures and every comparison belong to the analysis package, which fills
// Result.Relative and its companions before export (analysis.Annotate).
// Summarize clears them, so a stale copy never survives a change of runs.
//
// Summarize is idempotent: it replaces each Result's warnings.
func Summarize(f *File) {
	for i := range f.Results {
		r := &f.Results[i]
		summarizeResult(r, f.Warmup)
		r.Relative, r.RelativeStddev, r.RelativeBasis, r.RelativeTo = 0, 0, "", ""
	}
}

// summarizeResult computes one result's statistics and warnings. warmup is
// the file's warm-up count (for the slow-first-run hint).
func summarizeResult(r *Result, warmup int) {
	var wall, user, sys []float64
	var cells, wallNs float64
	var firstErr string
	r.Failed = 0
	for i := range r.Runs {
		run := &r.Runs[i]
		run.Outlier = false
		if run.Failed {
			r.Failed++
			if firstErr == "" {
				firstErr = run.Error
			}
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

	r.Warnings = nil
	if r.Failed > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf(
			"%d of %d"+failedRunsText+" (first failure: %s).",
			r.Failed, len(r.Runs), firstErr))
	}
	if len(wall) == 0 {
		if len(r.Runs) > 0 {
			r.Warnings = append(r.Warnings, noRunsWarning)
		}
		return
	}
	// hyperfine's two outlier warnings, the first taking precedence.
	if stats.SlowFirstRun(wall) {
		r.Warnings = append(r.Warnings, slowFirstRunWarning(wall[0], warmup))
	} else if n > 0 {
		w := "Statistical outliers were detected. Consider re-running this benchmark on a quiet system without any interferences from other programs."
		if warmup == 0 {
			w += " It might help to use the '--warmup' option."
		}
		r.Warnings = append(r.Warnings, w)
	}
	if s.N > 1 && s.CV > stats.CVWarnThreshold {
		r.Warnings = append(r.Warnings, fmt.Sprintf(
			cvWarningPrefix+"%.1f%% (above %.0f%%): the runs vary a lot. Consider a quieter system, --pin, or more runs.",
			100*s.CV, 100*stats.CVWarnThreshold))
	}
	for _, w := range stats.MedianCIWarnings(wall, stats.MedianConfidence) {
		r.Warnings = append(r.Warnings, fmt.Sprintf(
			"Too few runs for a %.0f%% confidence interval on the median (%d successful): %s; use --runs or --min-runs.",
			100*stats.MedianConfidence, len(wall), w))
	}
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

// The texts by which WarningKind tells a Result warning's kind; Summarize
// writes its warnings with them.
const (
	failedRunsText  = " runs failed and are left out of the statistics"
	noRunsWarning   = "No successful runs: there are no statistics for this benchmark."
	cvWarningPrefix = "The coefficient of variation is "
)

// The kinds of a Result warning (WarningKind).
const (
	WarningFailure   = "failure"   // failed runs, or no successful run
	WarningVariation = "variation" // the coefficient of variation is above stats.CVWarnThreshold
	WarningOther     = "other"     // slow first run, outliers, too few runs for an interval
)

// WarningKind tells what a warning Summarize wrote into Result.Warnings is
// about, so that a report can place it (failures under their benchmark,
// the rest gathered under the summary).
func WarningKind(w string) string {
	switch {
	case strings.Contains(w, failedRunsText) || w == noRunsWarning:
		return WarningFailure
	case strings.HasPrefix(w, cvWarningPrefix):
		return WarningVariation
	}
	return WarningOther
}
