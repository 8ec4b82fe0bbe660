package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/internal/parse"
	"github.com/rootbench/rootbench/report"
	"github.com/rootbench/rootbench/report/compare"
	"github.com/rootbench/rootbench/report/export"
)

// benchFlags are the run-control, output and export flags shared by
// `rootbench run` and `rootbench callback`.
type benchFlags struct {
	runs, warmup, minRuns, maxRuns string
	minTime, timeout               string
	order, reference               string
	sort, timeUnit, style          string
	ignoreFailure, gcTable         bool
	paramLists                     []string
	pin                            string
	exportJSON, exportCSV          string
	exportMarkdown, exportGoBench  string
	baseline, failOnRegression     string
}

func (b *benchFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&b.warmup, "warmup", "0", "unmeasured warm-up runs per benchmark")
	f.StringVar(&b.runs, "runs", "", "exact number of measured runs per benchmark (overrides --min-runs, --max-runs, --min-time)")
	f.StringVar(&b.minRuns, "min-runs", "10", "at least this many runs per benchmark")
	f.StringVar(&b.maxRuns, "max-runs", "", "at most this many runs per benchmark (default: no limit)")
	f.StringVar(&b.minTime, "min-time", "3s", "time budget per benchmark; the run count is re-estimated as samples arrive")
	f.StringVar(&b.order, "order", "interleaved", "run order: interleaved (round-robin across benchmarks, so drift spreads evenly) or grouped")
	f.StringVar(&b.timeout, "timeout", "", "kill a run after this long and record it as failed (e.g. 30s)")
	f.BoolVar(&b.ignoreFailure, "ignore-failure", false, "keep going after failed runs and exit 0; failed runs are left out of the statistics")
	f.StringVar(&b.reference, "reference", "", "benchmark the relative figures are computed against (default: the fastest)")
	f.StringVar(&b.sort, "sort", "auto", "summary order: auto, cell (as given) or mean (fastest first)")
	f.StringVar(&b.timeUnit, "time-unit", "auto", "time unit: auto, s, ms, us or ns")
	f.StringVar(&b.style, "style", "auto", "output style: auto, full, basic, nocolor, color or none (NO_COLOR is honoured)")
	f.StringArrayVar(&b.paramLists, "parameter-list", nil, "scan a parameter: NAME=v1,v2,... (repeatable; the cartesian product is run)")
	f.StringVar(&b.pin, "pin", "", "pin each worker to these CPUs (sched_setaffinity), e.g. 0 or 0-1")
	f.BoolVar(&b.gcTable, "gc-table", false, "print the GC table (minimum, median, maximum, stdev) for each benchmark")
	f.StringVar(&b.exportJSON, "export-json", "", "write every sample and statistic as JSON (schema "+harness.Schema+"); - is stdout")
	f.StringVar(&b.exportCSV, "export-csv", "", "write the summary as CSV; - is stdout")
	f.StringVar(&b.exportMarkdown, "export-markdown", "", "write the summary as a Markdown table; - is stdout")
	f.StringVar(&b.exportGoBench, "export-gobench", "", "write every run in the Go benchmark format (for benchstat); - is stdout")
	f.StringVar(&b.baseline, "baseline", "", "compare against this results file as the run finishes")
	f.StringVar(&b.failOnRegression, "fail-on-regression", "", "with --baseline: exit 1 when a benchmark is significantly slower by more than this (e.g. 5%)")
}

// export is one requested export file.
type exportTarget struct {
	path string
	fn   export.Exporter
}

func (b *benchFlags) exports() []exportTarget {
	var out []exportTarget
	add := func(path string, fn export.Exporter) {
		if path != "" {
			out = append(out, exportTarget{path, fn})
		}
	}
	add(b.exportJSON, export.JSON)
	add(b.exportCSV, export.CSV)
	add(b.exportMarkdown, export.Markdown)
	add(b.exportGoBench, export.GoBench)
	return out
}

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
}

// count parses an optional count flag ("" keeps def).
func count(name, s string, def int, min int) (int, error) {
	if strings.TrimSpace(s) == "" {
		return def, nil
	}
	v, err := parse.Int(s)
	if err != nil {
		return 0, fmt.Errorf("--%s: %w", name, err)
	}
	if v < int64(min) || v > 1<<31 {
		return 0, fmt.Errorf("--%s %s: must be a whole number from %d to %d", name, s, min, 1<<31)
	}
	return int(v), nil
}

func (b *benchFlags) resolve() (*session, error) {
	s := &session{}
	o := &s.opts
	var err error
	if o.Warmup, err = count("warmup", b.warmup, 0, 0); err != nil {
		return nil, err
	}
	if o.Runs, err = count("runs", b.runs, 0, 1); err != nil {
		return nil, err
	}
	if o.MinRuns, err = count("min-runs", b.minRuns, 10, 1); err != nil {
		return nil, err
	}
	if o.MaxRuns, err = count("max-runs", b.maxRuns, 0, 1); err != nil {
		return nil, err
	}
	if o.MaxRuns > 0 && o.MaxRuns < o.MinRuns {
		if b.minRuns != "10" {
			return nil, fmt.Errorf("--max-runs %d is below --min-runs %d", o.MaxRuns, o.MinRuns)
		}
		o.MinRuns = o.MaxRuns
	}
	if o.MinTime, err = parse.Duration(b.minTime); err != nil {
		return nil, fmt.Errorf("--min-time: %w", err)
	}
	if b.timeout != "" {
		if o.Timeout, err = parse.Duration(b.timeout); err != nil {
			return nil, fmt.Errorf("--timeout: %w", err)
		}
		if o.Timeout <= 0 {
			return nil, fmt.Errorf("--timeout %s: must be positive", b.timeout)
		}
	}
	if o.Order, err = harness.ParseOrder(b.order); err != nil {
		return nil, fmt.Errorf("--order: %w", err)
	}
	o.IgnoreFailure = b.ignoreFailure
	o.Reference = b.reference
	if s.ropts.Sort, err = report.ParseSort(b.sort); err != nil {
		return nil, fmt.Errorf("--sort: %w", err)
	}
	if s.ropts.Unit, err = report.ParseTimeUnit(b.timeUnit); err != nil {
		return nil, fmt.Errorf("--time-unit: %w", err)
	}
	style, err := report.ParseStyle(b.style)
	if err != nil {
		return nil, fmt.Errorf("--style: %w", err)
	}
	if b.pin != "" {
		if _, err := harness.ParseCPUList(b.pin); err != nil {
			return nil, fmt.Errorf("--pin: %w", err)
		}
	}
	s.exports = b.exports()
	// Human output goes to stdout unless an export does.
	s.out = os.Stdout
	for _, e := range s.exports {
		if e.path == "-" {
			s.out = os.Stderr
		}
	}
	outFile, _ := s.out.(*os.File)
	s.style = report.ResolveStyle(style, outFile)
	s.ropts.Style = s.style
	if s.style == report.None {
		s.out = io.Discard
	}
	// The progress bar goes to stderr, on a terminal only: never in CI logs or pipes.
	if s.style.Progress() && term.IsTerminal(int(os.Stderr.Fd())) && os.Getenv("CI") == "" {
		o.Progress = os.Stderr
	}
	if s.style != report.None {
		o.Notices = os.Stderr // one line per failed run, as it happens
	}
	s.gcTable = b.gcTable
	if b.failOnRegression != "" && b.baseline == "" {
		return nil, fmt.Errorf("--fail-on-regression needs --baseline FILE (or use 'rootbench compare')")
	}
	if b.baseline != "" {
		s.baselinePath = b.baseline
		if s.baseline, err = harness.Load(b.baseline); err != nil {
			return nil, fmt.Errorf("--baseline: %w", err)
		}
	}
	if b.failOnRegression != "" {
		if s.threshold, err = compare.ParseThreshold(b.failOnRegression); err != nil {
			return nil, fmt.Errorf("--fail-on-regression: %w", err)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find the rootbench binary to start workers: %w", err)
	}
	o.Executable = exe
	o.CommandLine = os.Args
	return s, nil
}

// workerArgs are the worker flags every benchmark shares.
func (b *benchFlags) workerArgs() []string {
	if b.pin != "" {
		return []string{"--pin", b.pin}
	}
	return nil
}

// scan expands --parameter-list flags into configurations: each is a list of
// (name, value) settings, the cartesian product in flag order.
func scan(lists []string, canon func(string) (string, error)) ([][][2]string, []string, error) {
	configs := [][][2]string{nil}
	var varied []string
	seen := map[string]bool{}
	for _, l := range lists {
		name, values, err := parse.ParameterList(l)
		if err != nil {
			return nil, nil, fmt.Errorf("--parameter-list: %w", err)
		}
		if name, err = canon(name); err != nil {
			return nil, nil, fmt.Errorf("--parameter-list %s: %w", l, err)
		}
		if seen[name] {
			return nil, nil, fmt.Errorf("--parameter-list: %s is scanned twice", name)
		}
		seen[name] = true
		varied = append(varied, name)
		var next [][][2]string
		for _, c := range configs {
			for _, v := range values {
				nc := append(append([][2]string(nil), c...), [2]string{name, v})
				next = append(next, nc)
			}
		}
		configs = next
	}
	return configs, varied, nil
}

// label names a configuration: the cell, plus the scanned parameters.
func label(cell string, params map[string]string, varied []string) string {
	parts := []string{cell}
	for _, n := range varied {
		parts = append(parts, n+"="+params[n])
	}
	return strings.Join(parts, " ")
}

// commonParams returns the parameters every benchmark shares.
func commonParams(bs []harness.Benchmark) map[string]string {
	if len(bs) == 0 {
		return nil
	}
	common := map[string]string{}
	for k, v := range bs[0].Params {
		common[k] = v
	}
	for _, b := range bs[1:] {
		for k, v := range common {
			if b.Params[k] != v {
				delete(common, k)
			}
		}
	}
	return common
}

// setArgs renders parameters as worker --set flags, in a stable order.
func setArgs(params map[string]string) []string {
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var args []string
	for _, k := range keys {
		args = append(args, "--set", k+"="+params[k])
	}
	return args
}

// execute runs the benchmarks, prints as hyperfine does, writes the exports
// (atomically, after every round) and decides the exit status.
func (s *session) execute(ctx context.Context) error {
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
	if sig := caught(); sig != nil {
		code := exitInterrupted
		if sig == syscall.SIGTERM {
			code = 143
		}
		return &exitError{code: code, err: fmt.Errorf("interrupted (%s): the exports hold what was measured so far (marked partial)", signalLabel(sig))}
	}
	if runErr != nil {
		return &exitError{code: exitFailed, err: runErr}
	}
	if s.baseline != nil {
		c, err := compare.Files(s.baseline, f, compare.Options{Threshold: s.threshold, BaseName: s.baselinePath, HeadName: "this run"})
		if err != nil {
			return &exitError{code: exitFailed, err: fmt.Errorf("compare with baseline: %w", err)}
		}
		fmt.Fprintln(s.out)
		if err := compare.Text(s.out, c); err != nil {
			return err
		}
		if regs := c.Regressions(); s.threshold > 0 && len(regs) > 0 {
			return &exitError{code: exitFailed, err: fmt.Errorf("%d benchmark(s) regressed beyond %.1f%% against %s", len(regs), 100*s.threshold, s.baselinePath)}
		}
	}
	if failed := f.FailedRuns(); failed > 0 && !o.IgnoreFailure {
		return &exitError{code: exitFailed, err: fmt.Errorf("%d run(s) failed (see the reasons above; --ignore-failure keeps going and exits 0)", failed)}
	}
	return nil
}

// signalContext cancels ctx on SIGINT or SIGTERM and remembers which came.
func signalContext(parent context.Context) (context.Context, func(), func() os.Signal) {
	ctx, cancel := context.WithCancel(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	var got os.Signal
	done := make(chan struct{})
	go func() {
		defer close(done)
		select {
		case got = <-ch:
			cancel()
		case <-ctx.Done():
		}
	}()
	stop := func() {
		signal.Stop(ch)
		cancel()
		<-done
	}
	caught := func() os.Signal {
		if ctx.Err() == nil {
			return nil
		}
		<-done // the goroutine has returned: got is settled
		return got
	}
	return ctx, stop, caught
}
