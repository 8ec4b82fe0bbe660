package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/history"
	"github.com/rootbench/rootbench/report"
	"github.com/rootbench/rootbench/report/compare"
	"github.com/rootbench/rootbench/report/export"
)

// session is what the shared flags resolve to.
type session struct {
	opts         harness.Options
	out          io.Writer // human-readable output
	ropts        report.Options
	style        report.Style
	exports      []exportTarget
	gcTable      bool
	baseline     *harness.File
	baselinePath string
	threshold    float64
	history      historyOption // --history: where the results are added
}

// execute runs the benchmarks, prints as hyperfine does, writes the exports
// (atomically, after every round) and decides the exit status.
func (s *session) execute(ctx context.Context) error {
	if err := s.history.check(ctx); err != nil {
		return err
	}
	ctx, stop, caught := signalContext(ctx)
	defer stop()

	o := &s.opts
	writeExports := func(f *harness.File, final bool) error {
		var errs []string
		for _, e := range s.exports {
			if e.path == "-" && !final {
				continue // stdout gets the file once, at the end
			}
			if err := export.WriteFile(e.path, f, e.fn); err != nil {
				errs = append(errs, err.Error())
			}
		}
		if len(errs) > 0 {
			return fmt.Errorf("export: %s", strings.Join(errs, "; "))
		}
		return nil
	}
	var exportErr error
	o.OnRound = func(f *harness.File) {
		if exportErr != nil {
			return // reported once; the final write tries again
		}
		if err := writeExports(f, false); err != nil {
			exportErr = err
			fmt.Fprintf(os.Stderr, "rootbench: %v (no more snapshots during the run; the final write tries again)\n", err)
		}
	}
	n := 0
	o.OnResult = func(f *harness.File, r *harness.Result) {
		n++
		report.Benchmark(s.out, f, n, r, s.ropts)
		if s.gcTable {
			report.GCTable(s.out, r, s.ropts)
		}
		fmt.Fprintln(s.out)
	}
	if ws := harness.MachineWarnings(harness.CollectMachine()); len(ws) > 0 && s.style != report.None {
		report.Warnings(os.Stderr, ws, s.ropts)
	}

	f, runErr := harness.Execute(ctx, *o)
	if f == nil {
		if runErr == nil {
			runErr = fmt.Errorf("the harness returned no results")
		}
		return runErr
	}
	if len(f.Results) > 1 {
		report.Summary(s.out, f, s.ropts)
	}
	if err := writeExports(f, true); err != nil {
		return &exitError{code: exitFailed, err: err}
	}
	if harnessRunCount(f) > 0 {
		src, err := history.FromFile(f.Workload+" results", f)
		if err := s.history.add(ctx, os.Stderr, src, err); err != nil {
			return err
		}
	}
	if sig := caught(); sig != nil {
		return interruptedError(sig, ": the exports hold what was measured so far (marked partial)")
	}
	if runErr != nil {
		return &exitError{code: exitFailed, err: runErr}
	}
	if s.baseline != nil {
		c, err := analysis.CompareFiles(s.baseline, f, analysis.Options{Threshold: s.threshold, BaseName: s.baselinePath, HeadName: "this run"})
		if err != nil {
			return &exitError{code: exitFailed, err: fmt.Errorf("compare with baseline: %w", err)}
		}
		fmt.Fprintln(s.out)
		if err := compare.TextWidth(s.out, c, s.ropts.Width); err != nil {
			return err
		}
		if err := gateError(c, s.baselinePath); err != nil {
			return err
		}
	}
	if failed := f.FailedRuns(); failed > 0 && !o.IgnoreFailure {
		return &exitError{code: exitFailed, err: fmt.Errorf("%d run(s) failed (see the reasons above; --ignore-failure keeps going and exits 0)", failed)}
	}
	return nil
}

// harnessRunCount is the number of runs f holds, failed ones included.
func harnessRunCount(f *harness.File) int {
	n := 0
	for _, r := range f.Results {
		n += len(r.Runs)
	}
	return n
}
