package harness

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Benchmark is one configuration to measure: a cell (or callback variant)
// with one set of workload parameters, and the worker command line that
// measures it once.
type Benchmark struct {
	Cell   string            // cell or callback-variant name
	Label  string            // unique label, e.g. "boxroot" or "boxroot batch-size=16"
	Params map[string]string // every workload parameter of this configuration
	// Args are the worker's arguments after the executable, e.g.
	// {"worker", "--cell", "boxroot", "--niters", "2000"}.
	Args []string
}

// Order is the order in which runs of different benchmarks are made.
type Order int

const (
	// Interleaved runs the benchmarks round-robin, one run of each per
	// round, so that drift of the machine (heat, frequency, background load)
	// spreads evenly over them. The default.
	Interleaved Order = iota
	// Grouped makes all runs of a benchmark before the next one starts, as
	// hyperfine does.
	Grouped
)

// String returns "interleaved" or "grouped".
func (o Order) String() string {
	switch o {
	case Interleaved:
		return "interleaved"
	case Grouped:
		return "grouped"
	}
	return fmt.Sprintf("Order(%d)", int(o))
}

// ParseOrder parses "interleaved" or "grouped" (case-insensitive).
func ParseOrder(s string) (Order, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "interleaved", "":
		return Interleaved, nil
	case "grouped":
		return Grouped, nil
	}
	return 0, fmt.Errorf("unknown order %q (accepted: interleaved, grouped)", s)
}

// Default run control.
const (
	DefaultMinRuns = 10
	DefaultMinTime = 3 * time.Second
)

// FewestRuns is the fewest runs Options.MinRunsTime leaves a slow
// benchmark: six, the fewest for which a 95% confidence interval on the
// median exists (see Result's warnings).
const FewestRuns = 6

// Options configure Execute.
type Options struct {
	Benchmarks []Benchmark
	Executable string   // worker binary (the CLI passes os.Executable())
	Env        []string // extra environment for workers, "NAME=value"

	// Warmup is the number of unmeasured runs per benchmark made first. They
	// are not recorded, but a failing warm-up is recorded as a failed run.
	Warmup int
	// Runs is the exact number of measured runs per benchmark; 0 chooses it
	// from MinRuns, MaxRuns and MinTime.
	Runs int
	// MinRuns is the least number of runs per benchmark (0 means
	// DefaultMinRuns); MaxRuns the most (0 means no limit).
	MinRuns, MaxRuns int
	// MinTime is the time budget per benchmark: the planned number of runs
	// is clamp(ceil(MinTime / mean process wall time so far), MinRuns,
	// MaxRuns), re-estimated after every round. 0 means DefaultMinTime; a
	// negative value disables the budget (MinRuns runs).
	MinTime time.Duration
	// MinRunsTime, when positive, caps what the MinRuns floor may cost a
	// slow benchmark: when MinRuns runs would take longer than MinRunsTime
	// at the mean process wall time so far, the floor becomes
	// ceil(MinRunsTime / mean), but never below FewestRuns (nor MinRuns,
	// when that is lower). Re-estimated with the rest; 0 leaves MinRuns
	// whole.
	MinRunsTime time.Duration
	Order       Order
	// Timeout bounds one run; 0 means no limit. A worker that exceeds it is
	// killed with its process group and the run recorded as failed.
	Timeout time.Duration
	// WaitForLoad, when not nil, makes every measured round (in grouped
	// order, every measured run) wait for the load first (LoadWait).
	WaitForLoad *LoadWait
	// IgnoreFailure keeps a benchmark running after a failed run. Without
	// it, a benchmark is not scheduled again after its first failure; the
	// other benchmarks go on either way. Failed runs never enter the
	// statistics, but they count towards the number of runs made.
	IgnoreFailure bool
	// Reference is the label (or cell name, when only one benchmark has that
	// cell) the relative figures are computed against; "" means the fastest.
	Reference string

	Workload, Unit string            // copied into the File
	Params         map[string]string // parameters common to all benchmarks, copied into the File
	CommandLine    []string          // recorded in File.Tool

	// ShowOutput, when not nil, also receives every worker's stdout and
	// stderr as they are written (rootbench run --show-output).
	ShowOutput io.Writer

	// Progress, when not nil, receives a progress bar with ETA and the
	// current estimate of the running benchmark, fitted to the terminal's
	// width and erased when Execute returns. Pass a terminal only.
	Progress io.Writer
	// Notices, when not nil, receives one line per failed run as it
	// happens, naming the run, the cause and the log file.
	Notices io.Writer
	// LogDir is where a failed run's full worker output is saved, one file
	// per run named after its label and run number ("" means
	// rootbench-<pid> in the system's temporary directory). The run's Error
	// names the file.
	LogDir string
	// OnRound, when not nil, is called after every round (in grouped
	// order, after every run) and once more at the end, with a snapshot of
	// the results so far: statistics computed, Partial true until the end.
	// The snapshot is not touched by Execute afterwards.
	OnRound func(*File)
	// OnResult, when not nil, is called once per benchmark when it has all
	// its runs: in grouped order as soon as it finishes, in interleaved order
	// at the end (also after an interruption, for every benchmark with runs;
	// the file is then Partial). The Result lives in the given File.
	OnResult func(*File, *Result)
}

// check validates the options, fills defaults in a copy, and resolves the
// reference to a label.
func (o Options) check() (Options, string, error) {
	if len(o.Benchmarks) == 0 {
		return o, "", fmt.Errorf("no benchmarks to run")
	}
	if o.Executable == "" {
		return o, "", fmt.Errorf("no worker executable given")
	}
	seen := map[string]bool{}
	results := make([]Result, len(o.Benchmarks))
	for i, b := range o.Benchmarks {
		if b.Label == "" {
			return o, "", fmt.Errorf("benchmark %d (cell %q) has no label", i+1, b.Cell)
		}
		if seen[b.Label] {
			return o, "", fmt.Errorf("two benchmarks have the label %q: labels must be unique", b.Label)
		}
		seen[b.Label] = true
		results[i] = Result{Cell: b.Cell, Label: b.Label}
	}
	for _, kv := range o.Env {
		if !strings.Contains(kv, "=") {
			return o, "", fmt.Errorf("worker environment entry %q: expected NAME=value", kv)
		}
	}
	switch {
	case o.Warmup < 0:
		return o, "", fmt.Errorf("warm-up runs %d: must be 0 or more", o.Warmup)
	case o.Runs < 0:
		return o, "", fmt.Errorf("runs %d: must be 0 (automatic) or more", o.Runs)
	case o.MinRuns < 0:
		return o, "", fmt.Errorf("minimum runs %d: must be 0 (default %d) or more", o.MinRuns, DefaultMinRuns)
	case o.MaxRuns < 0:
		return o, "", fmt.Errorf("maximum runs %d: must be 0 (no limit) or more", o.MaxRuns)
	case o.MinRunsTime < 0:
		return o, "", fmt.Errorf("minimum runs' time %v: must be 0 (no cap) or positive", o.MinRunsTime)
	case o.Timeout < 0:
		return o, "", fmt.Errorf("timeout %v: must be 0 (none) or positive", o.Timeout)
	case o.Order != Interleaved && o.Order != Grouped:
		return o, "", fmt.Errorf("unknown order %v (accepted: interleaved, grouped)", o.Order)
	}
	if err := o.WaitForLoad.check(); err != nil {
		return o, "", err
	}
	if o.MinRuns == 0 {
		o.MinRuns = DefaultMinRuns
	}
	if o.MaxRuns > 0 && o.MaxRuns < o.MinRuns {
		return o, "", fmt.Errorf("maximum runs %d is below the minimum runs %d", o.MaxRuns, o.MinRuns)
	}
	if o.MinTime == 0 {
		o.MinTime = DefaultMinTime
	}
	ref := ""
	if o.Reference != "" {
		i, err := findReference(results, o.Reference)
		if err != nil {
			return o, "", err
		}
		ref = results[i].Label
	}
	return o, ref, nil
}

// findReference resolves ref as a label, or as a cell name that one or
// more results have (a scan crossing cells with parameters has one result
// of that cell per group of equal work); it returns the first match.
func findReference(results []Result, ref string) (int, error) {
	labels := make([]string, len(results))
	for i, r := range results {
		if r.Label == ref {
			return i, nil
		}
		labels[i] = r.Label
	}
	for i, r := range results {
		if r.Cell == ref {
			return i, nil
		}
	}
	return -1, fmt.Errorf("reference %q names no benchmark (accepted: a label or a cell name: %s)", ref, strings.Join(labels, ", "))
}
