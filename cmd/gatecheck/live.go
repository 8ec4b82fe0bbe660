package main

// The live check: real ab sessions, A/A and with a planted slowdown,
// interleaved, under each condition in turn (its noise processes running),
// each read back from its --export-json file.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
)

// run makes every trial of every condition, interleaving the kinds within
// a condition, and writes the report.
func run(c *config) error {
	tmp, err := os.MkdirTemp("", "gatecheck-")
	if err != nil {
		return fmt.Errorf("temporary directory: %w", err)
	}
	defer os.RemoveAll(tmp)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	tool, _ := harness.ToolOf(c.rootbench, nil)
	rep := &Report{
		Command:   strings.Join(c.args, " "),
		Rootbench: tool,
		Machine:   harness.CollectMachine(),
		Cells:     c.cells,
		Slow:      c.slow,
		ABFlags:   c.abFlags,
		StartedAt: time.Now().UTC(),
	}
	ks := c.kinds()
	for _, cond := range c.conditions {
		if err = c.checkCondition(ctx, tmp, cond, ks, rep); err != nil {
			break
		}
	}
	if err != nil && ctx.Err() == nil {
		return err
	}
	// Done, or interrupted: the trials made so far are reported.
	rep.Interrupted = err != nil
	rep.FinishedAt = time.Now().UTC()
	rep.tally(c.conditions, ks)
	if werr := rep.write(c.out, c.replayReport); werr != nil {
		return errors.Join(err, werr)
	}
	fmt.Fprintf(os.Stderr, "gatecheck: wrote %s.json and %s.md\n", c.out, c.out)
	return err
}

// checkCondition runs one condition's trials with its noise running, and
// stops the noise on every way out.
func (c *config) checkCondition(ctx context.Context, tmp string, cond condition, ks []kind, rep *Report) error {
	nz, err := startNoise(cond.noise)
	if err != nil {
		return err
	}
	defer nz.stop()
	most, total, done := 0, 0, 0
	for _, k := range ks {
		most = max(most, k.n)
		total += k.n
	}
	for i := range most {
		for _, k := range ks {
			if i >= k.n {
				continue
			}
			if ctx.Err() != nil {
				return fmt.Errorf("interrupted: the trials made so far are reported")
			}
			done++
			tr, err := c.trial(ctx, tmp, cond, k, i)
			if err != nil {
				return err
			}
			fmt.Fprintf(os.Stderr, "gatecheck: %s: trial %d/%d (%s): %s in %s\n", cond.name(), done, total, k.name, tr.Outcome,
				harness.FormatDuration(time.Duration(tr.DurationNs)))
			rep.Trials = append(rep.Trials, tr)
		}
	}
	return nil
}

// trial runs one ab session and reads its gate.
func (c *config) trial(ctx context.Context, tmp string, cond condition, k kind, i int) (Trial, error) {
	name := fmt.Sprintf("%s-trial-%d-%s.json", cond.name(), i, strings.NewReplacer("/", "", " ", "-", "%", "").Replace(k.name))
	out := filepath.Join(tmp, name)
	args := []string{"ab", "--base", c.rootbench, "--head", c.rootbench, "--cell", c.cells, "--export-json", out, "--style", "none"}
	if k.pct != "" {
		args = append(args, "--head-env", "ROOTBENCH_SLOW="+c.slow+"="+k.slowValue())
	}
	args = append(args, c.abFlags...)
	cmd := exec.CommandContext(ctx, c.rootbench, args...)
	// On a signal, ab is asked to stop as a terminal asks it, and writes
	// what it measured.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = time.Minute
	cmd.Env = withoutSlow(os.Environ())
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return Trial{}, fmt.Errorf("interrupted during %s trial %d of %s: the trials before it are reported", k.name, i+1, cond.name())
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		return Trial{}, fmt.Errorf("%s trial %d: %w", k.name, i+1, err)
	}
	if !verdictExit(code) {
		return Trial{}, fmt.Errorf("%s trial %d: rootbench %s exited %d: %s", k.name, i+1, strings.Join(args, " "), code, strings.TrimSpace(stderr.String()))
	}
	f, err := harness.LoadAB(out)
	if err != nil {
		return Trial{}, fmt.Errorf("%s trial %d: %w", k.name, i+1, err)
	}
	if f.Gate == nil {
		return Trial{}, fmt.Errorf("%s trial %d: %s records no gate decision (exit %d): %s", k.name, i+1, out, code, strings.TrimSpace(stderr.String()))
	}
	tr := Trial{Condition: cond.name(), Kind: k.name, Planted: k.slowValue(), Metric: k.metric, ExitCode: code, Outcome: f.Gate.Outcome,
		Stopped: f.Stopped, DurationNs: time.Since(start).Nanoseconds()}
	if k.pct == "" {
		tr.Planted = ""
	}
	if len(f.Looks) > 0 {
		tr.Runs = f.Looks[len(f.Looks)-1].Runs
	}
	if lo, hi, ok := f.LoadRange(); ok {
		tr.Load = []float64{lo, hi}
	}
	for _, r := range f.Gate.Rows {
		label, m := rowMetric(r)
		tr.Rows = append(tr.Rows, TrialRow{Label: label, Cell: strings.Fields(label)[0], Metric: m, Outcome: r.Outcome})
	}
	if k.pct != "" {
		tr.FlaggedNs = flaggedAt(f, c.slow)
	}
	return tr, nil
}

// rowMetric is the benchmark label and the metric of one of ab's gate
// rows: the row's own metric, wall time where it names none.
func rowMetric(r harness.ABGateRow) (label, metric string) {
	if r.Metric == "" {
		return r.Label, analysis.Wall.Name
	}
	return r.Label, r.Metric
}

// gateMetrics are the metrics a session's gate judged, as ab's --metric
// names them: those of its rows, wall time where a row names none.
func gateMetrics(g *harness.ABGate) ([]analysis.Metric, error) {
	var names []string
	for _, r := range g.Rows {
		if _, m := rowMetric(r); !slices.Contains(names, m) {
			names = append(names, m)
		}
	}
	if len(names) == 0 {
		return []analysis.Metric{analysis.Wall}, nil
	}
	return analysis.ParseMetrics(strings.Join(names, ","))
}

// flaggedAt is the time into a session at which ab first judged the slowed
// cell a regression: each look of the session judged again by ab's rule
// on the runs it had (the pairs each benchmark had made after the look's
// rounds), the first whose comparison has a regression row on the cell;
// 0 when none has.
func flaggedAt(f *harness.ABFile, slow string) int64 {
	t, err := newTemplate("", f, []metric{wallMetric})
	if err != nil || f.Gate == nil {
		return 0
	}
	metrics, err := gateMetrics(f.Gate)
	if err != nil {
		return 0
	}
	rule := &analysis.Sequential{Alpha: f.Gate.Alpha, Threshold: f.Gate.Threshold, AutoLooks: analysis.DefaultAutoLooks, Metrics: metrics}
	for _, l := range f.Looks {
		base, head := upTo(f.Base, t, l.Runs), upTo(f.Head, t, l.Runs)
		c, err := rule.Judge(base, head, l.Of)
		if err != nil {
			continue
		}
		for _, row := range c.Rows {
			if row.Cell == slow && row.Gate == analysis.Regression {
				return l.ElapsedNs
			}
		}
	}
	return 0
}

// upTo is a side's file with each benchmark's runs of the pairs it had
// made after rounds rounds (t gives its pairs per round).
func upTo(f *harness.File, t *template, rounds int) *harness.File {
	g := *f
	g.Partial = true
	g.Results = make([]harness.Result, len(f.Results))
	for i, r := range f.Results {
		g.Results[i] = r
		g.Results[i].Runs = nil
		n := t.benches[i].pairsAt(rounds)
		for _, run := range r.Runs {
			if run.Pair > 0 && run.Pair <= n {
				g.Results[i].Runs = append(g.Results[i].Runs, run)
			}
		}
	}
	harness.Summarize(&g)
	return &g
}

// withoutSlow drops ROOTBENCH_SLOW from an environment: only the head
// workers get it, through --head-env.
func withoutSlow(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "ROOTBENCH_SLOW=") {
			out = append(out, kv)
		}
	}
	return out
}
