package cli

import (
	"fmt"
	"io"
	"math"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/report"
	"github.com/rootbench/rootbench/report/export"
)

// benchFlags are the run-control, output and export flags shared by
// `rootbench run` and `rootbench callback`. Their short forms and meanings
// follow hyperfine's where the concept exists.
type benchFlags struct {
	flags *pflag.FlagSet // set by register: resolve asks it which flags were given

	runs, warmup, minRuns, maxRuns int
	minTime, timeout               time.Duration
	order, reference               string
	sort, timeUnit, style          string
	ignoreFailure, gcTable, cpu    bool
	showOutput                     bool
	paramLists                     []string
	paramScan                      string
	paramStep                      int
	commandNames                   []string
	pin                            string
	exportJSON, exportCSV          string
	exportMarkdown, exportGoBench  string
	baseline, failOnRegression     string
	load                           loadFlags
	history                        historyOption
}

// maxRunCount bounds the run-count flags: the largest int32, so every
// platform's int holds it.
const maxRunCount = math.MaxInt32

// minRunsTimeFactor sets what the default --min-runs may cost one
// benchmark: this many times its --min-time. A benchmark whose runs take
// longer gets fewer, down to harness.FewestRuns (see
// harness.Options.MinRunsTime); --min-runs given keeps its count whatever it
// costs.
const minRunsTimeFactor = 3

// minTimeout is the shortest --timeout accepted: a worker process needs
// about this long to start, run the smallest workload and report, on a
// loaded machine. Shorter limits would fail every run.
const minTimeout = 100 * time.Millisecond

func (b *benchFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	b.flags = f
	f.VarP(newIntValue(&b.warmup, 0, 0, maxRunCount), "warmup", "w", "unmeasured warm-up runs per benchmark")
	f.VarP(newIntValue(&b.runs, 0, 1, maxRunCount), "runs", "r", "exact number of measured runs per benchmark (overrides --min-time; must lie within --min-runs and --max-runs when those are given)")
	f.VarP(newIntValue(&b.minRuns, harness.DefaultMinRuns, 1, maxRunCount), "min-runs", "m", fmt.Sprintf("at least this many runs per benchmark (by default fewer, down to %d, for a benchmark whose %d runs would take more than %d times --min-time)", harness.FewestRuns, harness.DefaultMinRuns, minRunsTimeFactor))
	f.VarP(newIntValue(&b.maxRuns, 0, 1, maxRunCount), "max-runs", "M", "at most this many runs per benchmark (default: no limit)")
	f.Var(newDurationValue(&b.minTime, harness.DefaultMinTime), "min-time", "time budget per benchmark; the run count is re-estimated as samples arrive (0: just --min-runs runs)")
	f.StringVar(&b.order, "order", "interleaved", "run order: interleaved (round-robin across benchmarks, so drift spreads evenly) or grouped")
	f.Var(newDurationValue(&b.timeout, 0), "timeout", fmt.Sprintf("kill a run after this long and record it as failed (at least %v; default: no limit)", minTimeout))
	f.BoolVarP(&b.ignoreFailure, "ignore-failure", "i", false, "keep going after failed runs and exit 0; failed runs are left out of the statistics")
	f.BoolVar(&b.showOutput, "show-output", false, "pass every worker's output (stdout and stderr) through to stderr")
	f.StringVar(&b.reference, "reference", "", "benchmark the relative figures are computed against (default: the fastest)")
	f.StringVar(&b.sort, "sort", "auto", "summary order: auto, cell (as given) or mean (fastest first)")
	f.StringVarP(&b.timeUnit, "time-unit", "u", "auto", "time unit: auto, s, ms, us or ns (or second, millisecond, ...)")
	f.StringVarP(&b.style, "style", "s", "auto", "output style: auto, full, basic, nocolor, color or none (no report, notes or progress; a failed run is still reported on stderr). NO_COLOR is honoured")
	f.StringArrayVarP(&b.paramLists, "parameter-list", "L", nil, "scan a parameter: NAME VALUES or NAME=VALUES, VALUES comma-separated (repeatable; the cartesian product is run)")
	f.StringVarP(&b.paramScan, "parameter-scan", "P", "", "scan a parameter over a range: NAME MIN MAX (or NAME=MIN:MAX), stepping by --parameter-step-size")
	f.VarP(newIntValue(&b.paramStep, 1, 1, math.MaxInt64), "parameter-step-size", "D", "step of --parameter-scan")
	f.StringArrayVarP(&b.commandNames, "command-name", "n", nil, "name the benchmarks in the output: once per benchmark in order, or once as a template with {cell} and {PARAMETER} (e.g. {batch-size})")
	f.StringVar(&b.pin, "pin", "", "pin each worker to these CPUs (sched_setaffinity), e.g. 0 or 0-1; each must be one this process may run on")
	f.BoolVar(&b.gcTable, "gc-table", false, "print the GC table (minimum, median, maximum, stdev) for each benchmark")
	f.BoolVar(&b.cpu, "cpu", false, "show the CPU time of the measured passes per cell (per call), every thread's, beside the wall time: cpu-ns/cell in the summary and each benchmark's block")
	f.StringVar(&b.exportJSON, "export-json", "", "write every sample and statistic as JSON (schema "+harness.Schema+"); - is stdout")
	f.StringVar(&b.exportCSV, "export-csv", "", "write the summary as CSV; - is stdout")
	f.StringVar(&b.exportMarkdown, "export-markdown", "", "write the summary as a Markdown table; - is stdout")
	f.StringVar(&b.exportGoBench, "export-gobench", "", "write every run in the Go benchmark format (for benchstat); - is stdout")
	f.StringVar(&b.baseline, "baseline", "", "compare against this results file as the run finishes")
	f.StringVar(&b.failOnRegression, "fail-on-regression", "", "with --baseline: exit 1 on a significant slowdown beyond this percentage (with its %, e.g. 5%), 3 when undecided")
	b.load.register(f)
	b.history.register(f, addsUsage("the results (as the JSON export holds them)"))
}

// exportTarget is one requested export file.
type exportTarget struct {
	flag string // the flag that asked for it, for messages
	path string
	fn   export.Exporter
}

// exports returns the export flags given, in a fixed order.
func (b *benchFlags) exports() []exportTarget {
	var out []exportTarget
	add := func(flag, path string, fn export.Exporter) {
		if b.flags.Changed(flag) {
			out = append(out, exportTarget{flag, path, fn})
		}
	}
	add("export-json", b.exportJSON, export.JSON)
	add("export-csv", b.exportCSV, export.CSV)
	add("export-markdown", b.exportMarkdown, export.Markdown)
	add("export-gobench", b.exportGoBench, export.GoBench)
	return out
}

// resolve checks the shared flags together and turns them into a session.
// Everything that can be checked before the first run is checked here.
func (b *benchFlags) resolve() (*session, error) {
	s := &session{}
	o := &s.opts
	if err := b.checkRunCounts(); err != nil {
		return nil, err
	}
	o.Warmup, o.MinRuns, o.MaxRuns, o.MinTime = b.warmup, b.minRuns, b.maxRuns, b.minTime
	if o.MinTime == 0 {
		o.MinTime = -1 // --min-time 0: no time budget, --min-runs runs (harness: negative disables)
	}
	if b.flags.Changed("runs") {
		o.Runs = b.runs
	}
	if o.MaxRuns > 0 && o.MaxRuns < o.MinRuns {
		o.MinRuns = o.MaxRuns // only --max-runs was given: it lowers the default minimum
	}
	if !b.flags.Changed("min-runs") && o.MinTime > 0 {
		// The default floor of runs is capped for slow benchmarks: ten runs of
		// cgo-handle would cost more than the rest of a default run together.
		o.MinRunsTime = minRunsTimeFactor * o.MinTime
	}
	if b.flags.Changed("timeout") {
		if b.timeout < minTimeout {
			return nil, fmt.Errorf("--timeout %v is below the minimum %v: a worker needs about that long to start and report (accepted: %v or more)", b.timeout, minTimeout, minTimeout)
		}
		o.Timeout = b.timeout
	}
	var err error
	if o.Order, err = harness.ParseOrder(b.order); err != nil {
		return nil, fmt.Errorf("--order: %w", err)
	}
	o.IgnoreFailure = b.ignoreFailure
	o.Reference = b.reference
	if o.WaitForLoad, err = b.load.resolve(); err != nil {
		return nil, err
	}
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
	if b.flags.Changed("pin") {
		if err := checkPin(b.pin); err != nil {
			return nil, fmt.Errorf("--pin %s: %w", b.pin, err)
		}
	}
	if b.flags.Changed("parameter-step-size") && !b.flags.Changed("parameter-scan") {
		return nil, fmt.Errorf("--parameter-step-size needs --parameter-scan NAME MIN MAX")
	}
	s.exports = b.exports()
	if err := checkExports(s.exports); err != nil {
		return nil, err
	}
	if err := b.history.resolve(); err != nil {
		return nil, err
	}
	s.history = b.history
	if b.showOutput {
		o.ShowOutput = os.Stderr
	}
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
	s.ropts.Width = terminalColumns(outFile)
	s.ropts.CPU = b.cpu
	if s.style == report.None {
		s.out = io.Discard
	}
	o.Progress = progressOut(s.style)
	// One line per failed run, as it happens, in every style: a failure is
	// an error, not output (hyperfine's --style none keeps its errors too),
	// and the closing "run(s) failed" points to these lines.
	o.Notices = os.Stderr
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
		if s.threshold, err = analysis.ParseThreshold(b.failOnRegression); err != nil {
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

// checkRunCounts refuses run-count flags that contradict each other, as
// hyperfine does. Only flags the user gave are compared: the default
// --min-runs gives way to a smaller --max-runs or --runs.
func (b *benchFlags) checkRunCounts() error {
	given := b.flags.Changed
	if given("runs") {
		if given("max-runs") && b.runs > b.maxRuns {
			return fmt.Errorf("--runs %d is above --max-runs %d: give one of them, or --runs at most %d", b.runs, b.maxRuns, b.maxRuns)
		}
		if given("min-runs") && b.runs < b.minRuns {
			return fmt.Errorf("--runs %d is below --min-runs %d: give one of them, or --runs at least %d", b.runs, b.minRuns, b.minRuns)
		}
	}
	if given("min-runs") && given("max-runs") && b.maxRuns < b.minRuns {
		return fmt.Errorf("--max-runs %d is below --min-runs %d: accepted: --min-runs <= --max-runs", b.maxRuns, b.minRuns)
	}
	return nil
}

// workerArgs are the worker flags every benchmark shares: the CPU time of
// the measured passes (the workers are this binary's, which measure it),
// and --pin.
func (b *benchFlags) workerArgs() []string {
	args := []string{"--" + harness.FlagCPUTime}
	if b.pin != "" {
		args = append(args, "--pin", b.pin)
	}
	return args
}
