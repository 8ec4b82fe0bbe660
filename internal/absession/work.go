package absession

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/parse"
)

// Work gives a session's benchmarks their own amount of work, the same on
// both sides of every pair: sized so that every benchmark's runs take about
// as long as the median benchmark's (EqualTime, harness.EqualTimeWork from
// one timing run of each on head), or given by hand (Given). A row is per
// unit of work, so it means what it meant; what changes is how many pairs
// a slow benchmark gets from the budget.
type Work struct {
	// Param is the workload parameter that sets a run's work: niters
	// (msgpass) or calls (callback).
	Param string
	// EqualTime sizes the benchmarks not in Given.
	EqualTime bool
	// Given are the benchmarks (by label) whose Param was set by hand,
	// each with the work that was asked before (recorded as Asked).
	Given map[string]int64
	// Decided, when not nil, are the sizes an earlier session decided
	// (Session.Sizes): applied as they are to the benchmarks they name,
	// with no timing run, so that every session of one command (each
	// layout, each bisection step) runs the same work.
	Decided []harness.ABSize
}

// size gives the benchmarks their work (see Work), re-renders both sides'
// arguments for it and records it in s.Sizes. The timing runs, one per
// benchmark sized, are made on head before the session (its budget is the
// session's own, as the builds are not in it), with a line on progress.
func (s *Session) size(ctx context.Context, progress io.Writer, w *Work, infos [2]*harness.WorkerInfo, pin string) error {
	o := &s.Options
	sizes, err := w.decide(ctx, progress, o)
	if err != nil {
		return err
	}
	s.Sizes = nil
	for _, sz := range sizes {
		for i := range o.Benchmarks {
			if b := &o.Benchmarks[i]; b.Label == sz.Label {
				b.Params = maps.Clone(b.Params)
				b.Params[w.Param] = strconv.FormatInt(sz.Work, 10)
				s.Sizes = append(s.Sizes, sz)
			}
		}
	}
	_, err = render(o, infos, pin)
	return err
}

// decide is the work of every benchmark not run as asked: Decided as it
// is, or the Given ones and, with EqualTime, the others sized from their
// timing runs.
func (w *Work) decide(ctx context.Context, progress io.Writer, o *harness.ABOptions) ([]harness.ABSize, error) {
	if w.Decided != nil {
		return w.Decided, nil
	}
	var sizes []harness.ABSize
	var sized []harness.Benchmark
	var asked []int64
	for _, b := range o.Benchmarks {
		n, err := parse.Int(b.Params[w.Param])
		if err != nil {
			return nil, fmt.Errorf("%s: %s %q: %w", b.Label, w.Param, b.Params[w.Param], err)
		}
		if before, ok := w.Given[b.Label]; ok {
			sizes = append(sizes, harness.ABSize{Label: b.Label, Param: w.Param, Asked: before, Work: n, Given: true})
			continue
		}
		if w.EqualTime {
			sized = append(sized, b)
			asked = append(asked, n)
		}
	}
	if len(sized) < 2 {
		return sizes, nil // one benchmark is its own median
	}
	if progress != nil {
		fmt.Fprintf(progress, "ab: equal time: timing one unmeasured run of each of %d benchmarks on %s\n", len(sized), o.Head.Name)
	}
	runs, err := harness.TimeEach(ctx, o.Head, sized, o.Timeout, o.LogDir)
	if err != nil {
		return nil, err
	}
	took := make([]time.Duration, len(runs))
	for i, run := range runs {
		if run.Failed {
			if progress != nil {
				fmt.Fprintf(progress, "ab: equal time: %s's timing run failed (%s): it keeps %s %d\n", sized[i].Label, run.Error, w.Param, asked[i])
			}
			continue
		}
		took[i] = time.Duration(run.WallNs)
	}
	for i, work := range harness.EqualTimeWork(asked, took) {
		sizes = append(sizes, harness.ABSize{Label: sized[i].Label, Param: w.Param, Asked: asked[i], Work: work, PilotNs: took[i].Nanoseconds()})
	}
	return sizes, nil
}

// SizesText says what work the benchmarks were given, in one line: "equal
// time: cgo-handle at niters 80 (others 2000)", "cgo-handle at niters 500
// (given by hand; others 2000)"; "" when every benchmark runs the work
// asked and none was sized.
func SizesText(sizes []harness.ABSize) string {
	var changed, given []string
	var asked []int64
	equal := false
	param := ""
	for _, sz := range sizes {
		param = sz.Param
		if !slices.Contains(asked, sz.Asked) {
			asked = append(asked, sz.Asked)
		}
		switch {
		case sz.Given:
			given = append(given, fmt.Sprintf("%s at %s %d", sz.Label, sz.Param, sz.Work))
		case sz.Work != sz.Asked:
			equal = true
			changed = append(changed, fmt.Sprintf("%s at %s %d", sz.Label, sz.Param, sz.Work))
		default:
			equal = true
		}
	}
	var parts []string
	if equal {
		what := "equal time: " + strings.Join(changed, ", ")
		if len(changed) == 0 {
			what = "equal time: no benchmark is slower than the median: every one keeps its " + param
		}
		parts = append(parts, what)
	}
	if len(given) > 0 {
		parts = append(parts, "given by hand: "+strings.Join(given, ", "))
	}
	if len(parts) == 0 {
		return ""
	}
	text := strings.Join(parts, "; ")
	if len(asked) == 1 && len(changed)+len(given) > 0 {
		// One amount of work was asked: the benchmarks not named run it.
		text += fmt.Sprintf(" (others %d)", asked[0])
	}
	return text
}
