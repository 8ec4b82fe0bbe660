package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/history"
	"github.com/rootbench/rootbench/internal/absession"
	"github.com/rootbench/rootbench/report"
)

// prepare readies every revision before anything is measured: skips the
// ones an earlier backfill skipped (unless --retry-failed), builds the
// others (or takes them from the cache) and asks each worker what it
// accepts; a revision that does not build, or cannot run a benchmark as
// asked, is skipped with a note and recorded. Then it finds the
// parameters every revision left can express, per benchmark, and marks
// the revisions the store holds already under them. It returns those
// parameters.
func (b *backfill) prepare(ctx context.Context, s *history.Store) ([]map[string]string, error) {
	asked := b.plan(func(i int) map[string]string { return b.asked[i].Params })
	skipped, err := s.Skipped(ctx, asked)
	if err != nil {
		return nil, usageError(err)
	}
	skip := func(r *backfillRev, why string) error {
		r.skip = why
		fmt.Fprintf(b.out, "backfill: skipping %s: %s\n", r.commit.Short, why)
		return usageError(s.RecordSkip(ctx, r.commit.Hash, asked, why))
	}
	var infos []*harness.WorkerInfo
	for _, r := range b.revs {
		if why, ok := skipped[r.commit.Hash]; ok && !b.retryFailed {
			r.skip = "skipped before: " + why
			fmt.Fprintf(b.out, "backfill: skipping %s, as before (%s); --retry-failed retries it\n", r.commit.Short, why)
			continue
		}
		bin, err := b.builder.Build(ctx, r.commit)
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case err != nil:
			if err := skip(r, "does not build: "+oneLine(err.Error())); err != nil {
				return nil, err
			}
			continue
		}
		r.bin = bin.Path
		r.info, err = harness.DescribeWorker(ctx, r.bin, nil)
		if err == nil {
			r.info.Name = "revision " + r.commit.Short
			err = b.canRun(r.info)
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			if err := skip(r, "its worker cannot be driven: "+oneLine(err.Error())); err != nil {
				return nil, err
			}
			continue
		}
		infos = append(infos, r.info)
	}
	common := make([]map[string]string, len(b.asked))
	var notes []string
	for i, bench := range b.asked {
		if len(infos) == 0 {
			common[i] = bench.Params
			continue
		}
		var ns []string
		if common[i], ns, err = harness.MatchSides(b.workload, bench.Params, infos...); err != nil {
			return nil, fmt.Errorf("%s: the revisions have no parameters in common: %w", bench.Label, err)
		}
		for _, n := range ns {
			if !contains(notes, n) {
				notes = append(notes, n)
			}
		}
	}
	for _, n := range notes {
		fmt.Fprintf(b.out, "backfill: %s\n", n)
	}
	visits, err := s.MeasuredVisits(ctx, b.plan(func(i int) map[string]string { return common[i] }))
	if err != nil {
		return nil, usageError(err)
	}
	for _, r := range b.revs {
		if r.skip == "" {
			r.visits = visits[r.commit.Hash]
		}
	}
	return common, nil
}

// canRun checks that a revision's worker runs every benchmark as asked
// (the workload, the cell, parameters it can express).
func (b *backfill) canRun(info *harness.WorkerInfo) error {
	for _, bench := range b.asked {
		if err := info.CheckCell(b.workload, bench.Cell); err != nil {
			return err
		}
		if _, _, err := harness.MatchSides(b.workload, bench.Params, info); err != nil {
			return fmt.Errorf("%s: %w", bench.Label, err)
		}
	}
	return nil
}

// contains reports whether ss holds s.
func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// measure makes every visit left: round v visits, in b.measuringOrder,
// every revision the store holds fewer than v+1 whole visits of, so that
// a revision's runs are spread over the backfill's time. Each visit is
// stored in one transaction as soon as it is made (also when
// interrupted: its runs so far, marked partial), with a progress bar on a
// terminal and a line per visit on stdout. It returns how many visits it
// stored whole.
func (b *backfill) measure(ctx context.Context, s *history.Store, common []map[string]string, stdout io.Writer) (int, error) {
	order := b.measuringOrder()
	skipped, done, left, todo := 0, 0, 0, 0
	for _, r := range order {
		switch {
		case r.skip != "":
			skipped++
		case r.visits >= b.visits:
			done++
		default:
			left++
			todo += b.visits - r.visits
		}
	}
	fmt.Fprintf(b.out, "backfill: %d revision(s): %d to measure, %d measured already, %d skipped; each %d run(s) of %s, interleaved, in %d visit(s); in %s order\n",
		len(b.revs), left, done, skipped, b.runs, benchmarkList(b.asked), b.visits, b.order)
	bar := b.progress(todo)
	defer bar.finish()
	lookup := history.GitCommits(b.repo)
	plan := b.plan(func(i int) map[string]string { return b.asked[i].Params })
	stored := 0
	for v := range b.visits {
		for _, r := range order {
			if r.skip != "" || r.visits > v {
				continue
			}
			bar.at(stored, r)
			f, err := b.measureOne(ctx, r, common, bar)
			if ctx.Err() != nil && (f == nil || harnessRunCount(f) == 0) {
				return stored, nil // interrupted before a run of it ended
			}
			if err != nil {
				// A revision that fails after whole visits were stored
				// keeps them: the skip says so, and stops its later visits.
				r.skip = err.Error()
				if r.visits > 0 {
					r.skip = fmt.Sprintf("visit %d: %v (its %d earlier whole visit(s) stay stored)", v+1, err, r.visits)
				}
				bar.say(fmt.Sprintf("backfill: skipping %s: %s", r.commit.Short, r.skip))
				if err := s.RecordSkip(ctx, r.commit.Hash, plan, r.skip); err != nil {
					return stored, usageError(err)
				}
				continue
			}
			src, err := history.FromFile(fmt.Sprintf("backfill of %s, visit %d", r.commit.Short, v+1), f)
			if err != nil {
				bar.say(fmt.Sprintf("backfill: not stored: %v", err))
				continue
			}
			// Stored whatever ctx says: what was measured is never lost.
			added, err := s.Add(context.WithoutCancel(ctx), src, history.AddOptions{Commits: lookup})
			if err != nil {
				return stored, usageError(err)
			}
			if f.Partial {
				bar.say(fmt.Sprintf("backfill: %s interrupted: %s stored (partial)", r.commit.Short, countRuns(added.Runs())))
				return stored, nil
			}
			stored++
			r.visits++
			if b.retryFailed {
				if err := s.ForgetSkip(ctx, r.commit.Hash, plan); err != nil {
					return stored, usageError(err)
				}
			}
			bar.print(stdout, fmt.Sprintf("%d/%d  visit %d/%d  %s  %s: %s, %d series", stored, todo, v+1, b.visits,
				r.commit.Short, r.commit.SubjectUpTo(28), countRuns(added.Runs()), added.Series))
			if ctx.Err() != nil {
				return stored, nil
			}
		}
	}
	return stored, nil
}

// measureOne runs every benchmark of one revision with its own worker:
// the parameters common to every revision, runs interleaved. Its file is
// the revision's: its tool is the revision's build. An error says why the
// revision could not be measured (every run failed, or the worker did not
// start).
func (b *backfill) measureOne(ctx context.Context, r *backfillRev, common []map[string]string, bar *backfillBar) (*harness.File, error) {
	bs := make([]harness.Benchmark, len(b.asked))
	for i, a := range b.asked {
		args, err := r.info.Args(harness.WorkerRequest{Workload: b.workload, Cell: a.Cell, Params: common[i], CPUTime: true})
		if err != nil {
			return nil, fmt.Errorf("its worker cannot be driven: %w", err)
		}
		bs[i] = harness.Benchmark{Cell: a.Cell, Label: a.Label, Params: common[i], Args: args}
	}
	rounds, runs := 0, b.runs/b.visits
	f, err := harness.Execute(ctx, harness.Options{
		Benchmarks: bs, Executable: r.bin, Runs: runs, Order: harness.Interleaved, Timeout: b.timeout,
		WaitForLoad: b.wait, Workload: b.workload, Unit: b.unit, Params: absession.CommonParams(bs), CommandLine: os.Args,
		Notices: bar.writer(), IgnoreFailure: true,
		OnRound: func(*harness.File) {
			rounds = min(rounds+1, runs)
			bar.rounds(rounds)
		},
	})
	if f == nil {
		if err == nil {
			err = errors.New("the harness returned no results")
		}
		return nil, err
	}
	if f.FailedRuns() == harnessRunCount(f) && !f.Partial {
		return nil, fmt.Errorf("every run failed (%s)", firstRunError(f))
	}
	f.Tool, _ = harness.ToolOf(r.bin, os.Args)
	return f, nil
}

// firstRunError is the error of f's first failed run.
func firstRunError(f *harness.File) string {
	for _, res := range f.Results {
		for _, run := range res.Runs {
			if run.Failed {
				return oneLine(run.Error)
			}
		}
	}
	return "no run"
}

// benchmarkList is "boxroot-handle, boxroot".
func benchmarkList(bs []harness.Benchmark) string {
	labels := make([]string, len(bs))
	for i, b := range bs {
		labels[i] = b.Label
	}
	return strings.Join(labels, ", ")
}

// backfillBar shows a backfill's progress on a terminal: visits made of
// those to make, the current revision, and the time left (from the runs
// made so far); elsewhere it shows nothing, and lines are printed as they
// come.
type backfillBar struct {
	bar         *progressbar.ProgressBar // nil off a terminal
	runs, total int
	done        int // rounds finished in visits before the current one
}

func (b *backfill) progress(visits int) *backfillBar {
	p := &backfillBar{runs: b.runs / b.visits, total: visits}
	if progressOut(report.Full) == nil || visits == 0 {
		return p
	}
	p.bar = progressbar.NewOptions(visits*p.runs,
		progressbar.OptionSetWriter(os.Stderr),
		progressbar.OptionSetWidth(20),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionShowElapsedTimeOnFinish(),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
	return p
}

// at starts visit i of the bar, to revision r.
func (p *backfillBar) at(i int, r *backfillRev) {
	p.done = i * p.runs
	if p.bar != nil {
		p.bar.Describe(fmt.Sprintf("visit %d/%d %s", i+1, p.total, r.commit.Short))
		_ = p.bar.Set(p.done)
	}
}

// rounds moves the bar to n rounds into the current revision.
func (p *backfillBar) rounds(n int) {
	if p.bar != nil {
		_ = p.bar.Set(p.done + n)
	}
}

// say prints a note on stderr, above the bar.
func (p *backfillBar) say(line string) { p.print(os.Stderr, line) }

// print prints a line on w, above the bar.
func (p *backfillBar) print(w io.Writer, line string) {
	if p.bar != nil {
		_ = p.bar.Clear()
	}
	fmt.Fprintln(w, line)
	if p.bar != nil {
		_ = p.bar.RenderBlank()
	}
}

// writer is where the harness's notices go: stderr, above the bar.
func (p *backfillBar) writer() io.Writer { return barWriter{p} }

type barWriter struct{ p *backfillBar }

func (w barWriter) Write(b []byte) (int, error) {
	w.p.print(os.Stderr, strings.TrimRight(string(b), "\n"))
	return len(b), nil
}

// finish erases the bar.
func (p *backfillBar) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}
