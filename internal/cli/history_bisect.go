package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/history"
	"github.com/rootbench/rootbench/history/series"
	"github.com/rootbench/rootbench/internal/bisect"
	"github.com/rootbench/rootbench/report"
	"github.com/rootbench/rootbench/report/bisectreport"
	"github.com/rootbench/rootbench/report/historyreport"
)

func newHistoryBisectCmd() *cobra.Command {
	var af abFlags
	var seriesID, change int
	cmd := &cobra.Command{
		Use:   "bisect (--series ID | --cell CELL [--metric wall|cpu]) [--change N] [bisect flags]",
		Short: "Bisect a change point of a series and record its culprit in the history",
		Long: `Run 'rootbench bisect' over a change point's range: good is the change point's
last good commit, bad its first bad commit (see 'rootbench history show'). The
series is --series ID, or the one series of --cell on --metric (wall by
default); the change point is --change N (as history show numbers them), else
the series' latest. The bisection runs the series' benchmark with its
parameters (they become the workload flags, which are not to be given) and
judges its metric; every other flag is bisect's (see 'rootbench bisect
--help'): --max-time, --layouts, --fail-on-regression, ...

How it ended is recorded in the store with the series and the range: the
culprit when bisect named one, else "no single culprit" and why; history show
names the culprit beside the change point.

A change point where the level fell is not bisected: bisect looks for the
commit that made a benchmark slower.

Exit status: bisect's (0 a culprit was named, 3 no single culprit, 1 a step
could not be run, 130 interrupted: nothing recorded); 2 with one line for a
series or change point that does not exist, a fall, or bad flags.`,
		Example: `  rootbench history bisect --cell boxroot-handle --change 1
  rootbench history bisect --series 12 --layouts 0,5,9,13 --max-time 1m`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			path, err := historyPath(cmd)
			if err != nil {
				return err
			}
			hb, err := resolveHistoryBisect(cmd, &af, path, seriesID, change)
			if err != nil {
				return usageError(err)
			}
			bp, err := resolveBisect(cmd, &af, hb.good, hb.bad)
			if err != nil {
				return usageError(err)
			}
			bp.onResult = hb.record
			hb.out = bp.out
			fmt.Fprintln(bp.out, hb.header())
			for _, n := range hb.notes {
				fmt.Fprintf(bp.out, "history bisect: %s\n", n)
			}
			return bp.execute(cmd.Context(), cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.Var(newIntValue(&seriesID, 0, 1, 1<<62), "series", "the series, by the number history show gives it")
	f.Var(newIntValue(&change, 0, 1, 1<<30), "change", "the change point, by its number in the series (default: the latest)")
	af.registerSession(f, "bisection")
	return cmd
}

// historyBisect is the change point a history bisect bisects.
type historyBisect struct {
	path   string
	series historyreport.Series
	change historyreport.ChangePoint
	// good and bad are the range's full hashes.
	good, bad string
	notes     []string
	out       io.Writer // where the record is said
}

// resolveHistoryBisect finds the series and its change point, and sets the
// bisection's flags from the series: its benchmark, metric, workload and
// parameters. Nothing is written.
func resolveHistoryBisect(cmd *cobra.Command, af *abFlags, path string, seriesID, change int) (*historyBisect, error) {
	ctx := cmd.Context()
	flags := cmd.Flags()
	s, err := history.Open(ctx, path, history.Options{MustExist: true})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	x, err := chooseSeries(ctx, s, af, flags.Changed("series"), int64(seriesID), flags.Changed("metric"))
	if err != nil {
		return nil, err
	}
	if x.Metric != analysis.Wall.Name && x.Metric != analysis.CPU.Name {
		return nil, fmt.Errorf("series %d is on %s: bisect judges wall or cpu time", x.ID, x.Metric)
	}
	q := historyQuery{cells: x.Benchmark, metrics: x.Metric, repo: af.repo}
	v, err := q.resolve(ctx, s)
	if err != nil {
		return nil, err
	}
	v.filter.Workload, v.filter.Machine = x.Workload, x.Machine
	doc, err := v.document(ctx, s)
	if err != nil {
		return nil, err
	}
	hb := &historyBisect{path: path}
	i := slices.IndexFunc(doc.Series, func(d historyreport.Series) bool { return d.ID == x.ID })
	if i < 0 || len(doc.Series[i].ChangePoints) == 0 {
		return nil, fmt.Errorf("series %d (%s %s) has no change point: nothing to bisect ('rootbench history show' shows it)", x.ID, x.Benchmark, x.Metric)
	}
	hb.series = doc.Series[i]
	cps := hb.series.ChangePoints
	switch {
	case change == 0:
		hb.change = cps[len(cps)-1]
	case change > len(cps):
		return nil, fmt.Errorf("--change %d: series %d has %d change point(s)", change, x.ID, len(cps))
	default:
		hb.change = cps[change-1]
	}
	c := hb.change
	if !c.Up() {
		return nil, fmt.Errorf("change %d of series %d is a fall (%s): bisect looks for the commit that made a benchmark slower", c.Number, x.ID, historyreport.Magnitude(c))
	}
	hb.good, hb.bad = c.LastGood.Hash, c.FirstBad.Hash
	if hb.notes, err = setSeriesFlags(cmd, x); err != nil {
		return nil, err
	}
	if fp := history.KindOf(harness.CollectMachine()).Fingerprint(); fp != x.Machine {
		hb.notes = append(hb.notes, fmt.Sprintf("the series was measured on another kind of machine (%s: %s); this bisection measures this one", x.Machine, x.MachineKind))
	}
	return hb, nil
}

// chooseSeries is --series ID, or the one series of --cell on --metric
// (wall when not given).
func chooseSeries(ctx context.Context, s *history.Store, af *abFlags, byID bool, id int64, metricGiven bool) (series.Series, error) {
	cell := strings.TrimSpace(af.workload.rf.cells)
	if byID && cell != "" {
		return series.Series{}, fmt.Errorf("--series and --cell: give one (--series names the series, its benchmark included)")
	}
	if byID {
		all, err := s.Series(ctx, history.Filter{})
		if err != nil {
			return series.Series{}, err
		}
		for _, x := range all {
			if x.ID == id {
				return x, nil
			}
		}
		return series.Series{}, fmt.Errorf("--series %d: no such series in %s ('rootbench history show' lists them)", id, s.Path())
	}
	if cell == "" || strings.Contains(cell, ",") {
		return series.Series{}, fmt.Errorf("--series ID or --cell CELL (one cell) is required: the series whose change point to bisect")
	}
	metric := analysis.Wall.Name
	if metricGiven {
		metric = strings.TrimSpace(af.metric)
	}
	all, err := s.Series(ctx, history.Filter{Benchmarks: []string{cell}, Metrics: []string{metric}})
	if err != nil {
		return series.Series{}, err
	}
	switch len(all) {
	case 0:
		return series.Series{}, fmt.Errorf("--cell %s: no series of %s on %s in %s ('rootbench history show' lists them)", cell, cell, metric, s.Path())
	case 1:
		return all[0], nil
	}
	var ids []string
	for _, x := range all {
		ids = append(ids, fmt.Sprintf("%d (%s, machine %s)", x.ID, x.ParamsText(), x.Machine))
	}
	return series.Series{}, fmt.Errorf("--cell %s: %d series of %s on %s (other parameters or machines): choose one with --series: %s",
		cell, len(all), cell, metric, strings.Join(ids, "; "))
}

// setSeriesFlags gives the bisection the series' benchmark, metric,
// workload and parameters through its own flags, so that it measures what
// the series measured. A workload flag given by hand is refused; a
// parameter without a flag is a note (the sessions match each pair of
// builds as ab does).
func setSeriesFlags(cmd *cobra.Command, x series.Series) (notes []string, err error) {
	flags := cmd.Flags()
	set := map[string]string{"workload": x.Workload, "metric": x.Metric}
	if x.Workload == "msgpass" {
		set["cell"] = x.Benchmark
	}
	var unflagged []string
	for k, v := range x.Params {
		if flags.Lookup(k) == nil {
			unflagged = append(unflagged, k+"="+v)
			continue
		}
		if flags.Changed(k) {
			return nil, fmt.Errorf("--%s: the series' parameters decide it (%s=%s); give the other flags only", k, k, v)
		}
		set[k] = v
	}
	for _, k := range report.SortedKeys(set) {
		if err := flags.Set(k, set[k]); err != nil {
			return nil, fmt.Errorf("the series' %s=%s: %w", k, set[k], err)
		}
	}
	if len(unflagged) > 0 {
		slices.Sort(unflagged)
		notes = append(notes, fmt.Sprintf("the series' %s have no flag: each step's builds run what both can express, as ab matches them", strings.Join(unflagged, " ")))
	}
	return notes, nil
}

// header says what is bisected: the series and the change point.
func (hb *historyBisect) header() string {
	c, s := hb.change, hb.series
	return fmt.Sprintf("history bisect: series %d (%s, %s, %s), change %d: %s..%s %s, p %s",
		s.ID, s.Benchmark, s.Metric, s.Unit, c.Number, c.LastGood.Short, c.FirstBad.Short, historyreport.Magnitude(c), historyreport.PValue(c.P))
}

// record stores how the bisection ended with the series and the range.
func (hb *historyBisect) record(res bisect.Result) error {
	b := series.Bisection{SeriesID: hb.series.ID, Good: hb.good, Bad: hb.bad, Outcome: res.Status.String(),
		Detail: oneLine(bisectreport.ResultLine(res)), At: time.Now()}
	if res.Status == bisect.Found && res.Culprit != nil {
		b.Culprit = res.Culprit.Hash
	}
	ctx := context.Background()
	s, err := history.Open(ctx, hb.path, history.Options{MustExist: true})
	if err != nil {
		return usageError(err)
	}
	defer s.Close()
	if err := s.AddBisection(ctx, b); err != nil {
		return usageError(err)
	}
	what := "no single culprit (" + b.Outcome + ")"
	if b.Culprit != "" {
		what = "culprit " + res.Culprit.Short
	}
	fmt.Fprintf(hb.out, "history bisect: recorded in %s: change %d of series %d: %s\n", hb.path, hb.change.Number, hb.series.ID, what)
	return nil
}
