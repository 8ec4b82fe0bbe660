package main

// The real-history section, rendered from the history of this repository's
// own backfill: `rootbench history show --format json` of the store that
// `make history-backfill` measures (the series and change points are
// analysis's, as history show found them; this file only checks them
// against the two steps the drop-in API is known to have taken, and lists
// the domain API's change points with the command that would confirm each).

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/rootbench/rootbench/internal/gitrev"
	"github.com/rootbench/rootbench/report"
	"github.com/rootbench/rootbench/report/historyreport"
)

// The real history's known steps and cells.
const (
	// dropIn is the drop-in API's cell, and domain the domain API's.
	dropIn = "boxroot-handle"
	domain = "boxroot"
	// stepUp is the commit that made the drop-in API slower (its handles
	// moved onto per-P slot caches), stepDown the one that made it faster
	// again (a cache per M).
	stepUp   = "3e8f312"
	stepDown = "db6e7d7"
	// confirmLayouts are the function layouts a change point of the domain
	// API is to be judged in.
	confirmLayouts = "0,5,9,13"
)

// holder says whether commit lies in the range lastGood..firstBad: it is
// firstBad or one of its ancestors, and not lastGood or one of its.
type holder func(commit, lastGood, firstBad string) (bool, error)

// gitHolder answers holder from the git repository of the current
// directory.
func gitHolder(ctx context.Context) (holder, error) {
	repo, err := gitrev.Open(".")
	if err != nil {
		return nil, err
	}
	return func(commit, lastGood, firstBad string) (bool, error) {
		c, err := repo.Resolve(ctx, commit)
		if err != nil {
			return false, err
		}
		bad, err := repo.IsAncestor(ctx, c, gitrev.Commit{Hash: firstBad})
		if err != nil || !bad {
			return false, err
		}
		good, err := repo.IsAncestor(ctx, c, gitrev.Commit{Hash: lastGood})
		return !good, err
	}, nil
}

// realSection is the real-history section from the backfill's history
// document: what was measured, the checks, then each series of the two
// cells with its change points and commits.
func realSection(doc historyreport.Document, holds holder) (string, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "## Real history\n\n")
	fmt.Fprintf(&b, "This repository's own history, measured by `make history-backfill` (`rootbench history backfill "+
		"--since 51c97ff --every 8 --cell %s,%s` with the Makefile's workload flags: 51c97ff, every 8th commit after it, "+
		"every merge and HEAD; each series below names its parameters), and read by `rootbench history show --format json` "+
		"along HEAD's first-parent line; `make history-real` puts it here. ", dropIn, domain)
	fmt.Fprintf(&b, "Change points: %s.\n\n", report.MdEscape(doc.Method))
	var drop, dom []historyreport.Series
	for _, s := range doc.Series {
		switch s.Benchmark {
		case dropIn:
			drop = append(drop, s)
		case domain:
			dom = append(dom, s)
		}
	}
	if len(drop) == 0 || len(dom) == 0 {
		fmt.Fprintf(&b, "**The history holds no series of %s or of %s**: nothing to check.\n", dropIn, domain)
	}
	fmt.Fprintf(&b, "### The drop-in API (%s)\n\n", dropIn)
	for _, s := range drop {
		up, err := rangeHolding(s, stepUp, true, holds)
		if err != nil {
			return "", err
		}
		down, err := rangeHolding(s, stepDown, false, holds)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "- %s: %s; %s.\n", report.MdEscape(seriesName(s)), up, down)
	}
	fmt.Fprintf(&b, "\n### The domain API (%s)\n\n", domain)
	fmt.Fprintf(&b, "Each change point of the domain API is a claim that `ab` across function layouts must confirm (a build's layout alone moves a series by a few percent); the command judges its range:\n\n")
	for _, s := range dom {
		if len(s.ChangePoints) == 0 {
			fmt.Fprintf(&b, "- %s: no change point in %d commits.\n", report.MdEscape(seriesName(s)), len(s.Points))
			continue
		}
		for _, c := range s.ChangePoints {
			fmt.Fprintf(&b, "- %s, change %s %s..%s, %s, p %s: `%s`\n", report.MdEscape(seriesName(s)), historyreport.Mark(c),
				c.LastGood.Short, c.FirstBad.Short, historyreport.Magnitude(c), historyreport.PValue(c.P), confirmCommand(s, c))
		}
	}
	fmt.Fprintf(&b, "\n### The series\n\n")
	for _, s := range append(drop, dom...) {
		if err := historyreport.SeriesMarkdown(&b, s, "####", ""); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// seriesName is "boxroot-handle on wall (series 12)".
func seriesName(s historyreport.Series) string {
	return fmt.Sprintf("%s on %s (series %d)", s.Benchmark, s.Metric, s.ID)
}

// rangeHolding says whether the series has a change point in the given
// direction whose range holds commit, and which.
func rangeHolding(s historyreport.Series, commit string, up bool, holds holder) (string, error) {
	dir := "a fall"
	if up {
		dir = "a rise"
	}
	for _, c := range s.ChangePoints {
		if c.Up() != up {
			continue
		}
		ok, err := holds(commit, c.LastGood.Hash, c.FirstBad.Hash)
		if err != nil {
			return "", fmt.Errorf("%s..%s: %w", c.LastGood.Short, c.FirstBad.Short, err)
		}
		if ok {
			return fmt.Sprintf("**%s in a range that holds %s: yes**, change %s %s..%s, %s, p %s", dir, commit, historyreport.Mark(c),
				c.LastGood.Short, c.FirstBad.Short, historyreport.Magnitude(c), historyreport.PValue(c.P)), nil
		}
	}
	return fmt.Sprintf("**%s in a range that holds %s: no**", dir, commit), nil
}

// confirmCommand is the ab command that judges a change point's range
// across function layouts, at the series' parameters (those with a flag:
// warmup-passes has none, and ab matches it between the two builds).
func confirmCommand(s historyreport.Series, c historyreport.ChangePoint) string {
	args := []string{"rootbench", "ab", "--base-rev", c.LastGood.Short, "--head-rev", c.FirstBad.Short, "--layouts", confirmLayouts,
		"--cell", s.Benchmark}
	for _, k := range report.SortedKeys(s.Params) {
		if !slices.Contains(unflagged, k) {
			args = append(args, "--"+k, s.Params[k])
		}
	}
	return strings.Join(args, " ")
}

// unflagged are the parameters ab has no flag for.
var unflagged = []string{"warmup-passes"}
