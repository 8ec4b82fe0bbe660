package harness

import "time"

// Schema is the version tag of the results file format this build writes.
// rootbench/v2 adds to rootbench/v1 the CPU time of each run's measured
// passes (Run.CPUUserNs, Run.CPUSysNs), the load around each run (Run.Env),
// each result's CPU time per unit of work (Result.CPUNsPerCell) and the
// waits for the load before a round (File.LoadWaits); a file of v1 is one
// of v2 without them (docs/DESIGN.md, "Results files").
const Schema = "rootbench/v2"

// Schemas are the results file schemas this build reads, oldest first.
var Schemas = []string{"rootbench/v1", Schema}

// File is a results file: everything one `rootbench run` or `rootbench
// callback` measured, every sample kept, so that compare and report can
// recompute everything offline.
type File struct {
	Schema   string            `json:"schema"`
	Tool     Tool              `json:"tool"`
	Machine  Machine           `json:"machine"`
	Workload string            `json:"workload"` // "msgpass" or "callback"
	Unit     string            `json:"unit"`     // what Run.Cells counts: "cell" or "call"
	Params   map[string]string `json:"params"`   // parameters common to every result
	// Reference is the requested reference of the relative figures: a
	// label, or a cell name (the reference of each group of equal work is
	// then that cell's result); "" means the fastest of each group.
	Reference  string    `json:"reference,omitempty"`
	StartedAt  time.Time `json:"started_at"`
	FinishedAt time.Time `json:"finished_at,omitempty"`
	// Partial marks a file written before the run finished (after an
	// interruption, or while samples are still arriving).
	Partial bool `json:"partial,omitempty"`
	// Warmup is the number of unmeasured warm-up runs each benchmark had, and
	// Order the run order ("interleaved" or "grouped"); both are run
	// control recorded as metadata (the slow-first-run warning depends on
	// Warmup).
	Warmup   int      `json:"warmup,omitempty"`
	Order    string   `json:"order,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
	Results  []Result `json:"results"`
	// WaitForLoad is the load average every round waited to fall below
	// (Options.WaitForLoad; 0: none), and LoadWaits the waits it took.
	// Empty in a side of an A/B session: its file holds them.
	WaitForLoad float64       `json:"wait_for_load,omitempty"`
	LoadWaits   []LoadWaitLog `json:"load_waits,omitempty"`

	// GoBench is what a File read from Go benchmark text holds beyond its
	// runs (DecodeGoBench): its units; nil for a results file.
	GoBench *GoBenchText `json:"-"`
}

// Tool describes the binary that produced a file.
type Tool struct {
	Name        string   `json:"name"`
	Version     string   `json:"version"`
	Revision    string   `json:"revision,omitempty"`
	Modified    bool     `json:"modified,omitempty"`
	GoVersion   string   `json:"go_version"`
	CommandLine []string `json:"command_line"`
}

// Machine describes where a file was measured.
type Machine struct {
	Hostname    string    `json:"hostname,omitempty"`
	CPUModel    string    `json:"cpu_model,omitempty"`
	LogicalCPUs int       `json:"logical_cpus"`
	GOMAXPROCS  int       `json:"gomaxprocs"`
	OS          string    `json:"os"`
	Arch        string    `json:"arch"`
	Kernel      string    `json:"kernel,omitempty"`
	Governor    string    `json:"governor,omitempty"`
	LoadAvg     []float64 `json:"load_avg,omitempty"`
	MemoryBytes int64     `json:"memory_bytes,omitempty"`
}

// Result is every run of one configuration: one cell (or callback variant)
// with one set of parameters, and the statistics computed from its runs.
type Result struct {
	// Cell is the implementation (or callback variant) name.
	Cell string `json:"cell"`
	// Label names the configuration uniquely within the file: the cell, plus
	// the parameters that vary across the file ("boxroot batch-size=16").
	Label string `json:"label"`
	// Params holds every workload parameter of this configuration.
	Params map[string]string `json:"params"`
	Runs   []Run             `json:"runs"`

	// Statistics over the successful runs' workload wall time, in seconds.
	Mean   float64 `json:"mean"`
	Stddev float64 `json:"stddev"`
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	CV     float64 `json:"cv"` // coefficient of variation, stddev/mean
	// UserMean and SysMean are the mean whole-process CPU times, in seconds.
	UserMean float64 `json:"user_mean"`
	SysMean  float64 `json:"sys_mean"`
	// NsPerCell is the mean time per unit of work (cell or call), and
	// CellsPerSec its throughput.
	NsPerCell   float64 `json:"ns_per_cell"`
	CellsPerSec float64 `json:"cells_per_sec"`
	// CPUNsPerCell is the mean CPU time of the measured passes per unit of
	// work (0 when no run measured it). Like Relative, it is the analysis
	// package's figure (analysis.CPUPerUnit), filled before a file is
	// exported (analysis.Annotate) and cleared by Summarize.
	CPUNsPerCell float64 `json:"cpu_ns_per_cell,omitempty"`
	// Relative compares this result with RelativeTo, the reference of its
	// group of equal work, on RelativeBasis: "time" (mean wall time, when
	// every result of the file does the same work) or "per cell" / "per call"
	// (mean time per unit of work, when the file's results do different
	// amounts of work). RelativeStddev is its standard deviation by
	// first-order error propagation, as hyperfine computes it (0 when either
	// side has a single run). The harness leaves these empty; the analysis
	// package fills them before a file is exported (analysis.Annotate), so
	// they are a copy of what the reports show, recomputed on load.
	Relative       float64 `json:"relative"`
	RelativeStddev float64 `json:"relative_stddev"`
	RelativeBasis  string  `json:"relative_basis,omitempty"`
	RelativeTo     string  `json:"relative_to,omitempty"`
	// Outliers counts runs whose modified z-score exceeds the threshold.
	Outliers int `json:"outliers"`
	Failed   int `json:"failed"` // failed runs
	// Warnings are what Summarize warns about the runs, each with its kind.
	Warnings []Warning `json:"warnings,omitempty"`
}

// Warning is one warning about a result's runs: its kind, by which reports
// place and gather it, and its text for people. A results file stores its
// text alone, a JSON string (rootbench/v1's "warnings": ["..."]); Decode
// gives a loaded file's warnings their kinds back by recomputing them from
// the runs (RecomputeWarnings), as Summarize wrote them.
type Warning struct {
	Kind WarningKind
	Text string
}

// WarningKind is what a Result warning is about.
type WarningKind string

// The kinds of a Result warning.
const (
	// WarningFailure: failed runs, or no successful run.
	WarningFailure WarningKind = "failure"
	// WarningVariation: the runs' coefficient of variation is above
	// stats.CVWarnThreshold; the result is noisy.
	WarningVariation WarningKind = "variation"
	// WarningOther: a slow first run, outliers, too few runs for an
	// interval on the median.
	WarningOther WarningKind = "other"
)

// String is the warning's text.
func (w Warning) String() string { return w.Text }

// MarshalText writes the warning as its text, so that JSON stores it as
// the string rootbench/v1 has always stored.
func (w Warning) MarshalText() ([]byte, error) { return []byte(w.Text), nil }

// UnmarshalText reads a stored warning: its text, of no kind until
// RecomputeWarnings gives it one.
func (w *Warning) UnmarshalText(text []byte) error {
	*w = Warning{Text: string(text)}
	return nil
}

// HasWarning reports whether r has a warning of kind k: WarningVariation
// says r is noisy, as Summarize decided it.
func (r *Result) HasWarning(k WarningKind) bool {
	for _, w := range r.Warnings {
		if w.Kind == k {
			return true
		}
	}
	return false
}

// Run is one measured run: one worker process. The worker fills the workload
// fields and prints them as one JSON line; the parent adds the process
// figures from wait4's rusage.
type Run struct {
	// Index is the run's position in the whole session (across cells), for
	// drift charts.
	Index     int       `json:"index"`
	StartedAt time.Time `json:"started_at"`

	// Filled by the worker.
	WallNs int64            `json:"wall_ns"`           // workload wall time, timed inside the worker (the sum over PassNs)
	Cells  int64            `json:"cells"`             // units of work done (cells or calls), over every measured pass
	PassNs []int64          `json:"pass_ns,omitempty"` // each measured pass's wall time (see MeasurePasses)
	GC     GC               `json:"gc"`
	Stats  map[string]int64 `json:"stats,omitempty"`

	// CPUUserNs and CPUSysNs are the worker process's CPU time (every
	// thread's, getrusage RUSAGE_SELF) over exactly its measured passes,
	// taken by the worker; start-up and warm-up are excluded. 0 from a
	// worker that does not measure it (results files of schema v1).
	CPUUserNs int64 `json:"cpu_user_ns,omitempty"`
	CPUSysNs  int64 `json:"cpu_sys_ns,omitempty"`

	// Filled by the parent.
	ProcessWallNs int64 `json:"process_wall_ns"`
	UserNs        int64 `json:"user_ns"`
	SysNs         int64 `json:"sys_ns"`
	PeakRSSBytes  int64 `json:"peak_rss_bytes"`

	// Env is what else the machine did while the run ran, read by the
	// parent from /proc (nil where it cannot be read, and in files of schema
	// v1).
	Env *RunEnv `json:"env,omitempty"`

	// Values are a run read from Go benchmark text's every value, by unit
	// as benchfmt tidies it (sec/op, B/op, allocs/op, B/s, custom units;
	// DecodeGoBench); nil in a results file.
	Values map[string]float64 `json:"-"`

	// Pair numbers the measured runs of an A/B session (ExecuteAB), from 1
	// for each benchmark: the base and head runs with the same Pair were
	// made back to back. 0 outside A/B sessions and for warm-ups.
	Pair int `json:"pair,omitempty"`

	// Outlier marks a successful run whose workload wall time has a modified
	// z-score above the outlier threshold (set by Summarize).
	Outlier bool `json:"outlier,omitempty"`

	// Failed runs keep the reason and the tail of the worker's stderr.
	Failed     bool   `json:"failed,omitempty"`
	Error      string `json:"error,omitempty"`
	StderrTail string `json:"stderr_tail,omitempty"`
}

// GC holds the garbage collector's work during one run, as differences of
// runtime/metrics and runtime.MemStats taken around the workload.
type GC struct {
	Cycles         int64   `json:"cycles"`
	CPUTotalNs     int64   `json:"cpu_total_ns"`     // /cpu/classes/gc/total:cpu-seconds
	CPUAssistNs    int64   `json:"cpu_assist_ns"`    // /cpu/classes/gc/mark/assist
	CPUDedicatedNs int64   `json:"cpu_dedicated_ns"` // /cpu/classes/gc/mark/dedicated
	CPUIdleNs      int64   `json:"cpu_idle_ns"`      // /cpu/classes/gc/mark/idle
	CPUPauseNs     int64   `json:"cpu_pause_ns"`     // /cpu/classes/gc/pause
	CPUPercent     float64 `json:"cpu_percent"`      // GC CPU as a percent of GOMAXPROCS × wall time (see Measure)
	MaxPauseNs     int64   `json:"max_pause_ns"`     // exact, from MemStats.PauseNs
	TotalPauseNs   int64   `json:"total_pause_ns"`   // total stop-the-world time
	StoppingNs     int64   `json:"stopping_ns"`      // total time to stop the world (time to safepoint)
	MaxStoppingNs  int64   `json:"max_stopping_ns"`  // upper bound from the histogram
	HeapAllocBytes int64   `json:"heap_alloc_bytes"` // bytes allocated during the run
	HeapAllocObjs  int64   `json:"heap_alloc_objects"`
	PeakHeapBytes  int64   `json:"peak_heap_bytes"` // highest heap in use seen
}

// WallSeconds returns the workload wall time of every successful run, in
// seconds, in run order: the sample that statistics, comparisons and charts
// are computed from.
func (r *Result) WallSeconds() []float64 {
	out := make([]float64, 0, len(r.Runs))
	for _, run := range r.Runs {
		if !run.Failed {
			out = append(out, float64(run.WallNs)/1e9)
		}
	}
	return out
}

// CPUNs is the run's CPU time over its measured passes (CPUUserNs +
// CPUSysNs); 0 when the worker did not measure it.
func (r Run) CPUNs() int64 { return r.CPUUserNs + r.CPUSysNs }

// RunEnv is the machine's load around one run.
type RunEnv struct {
	// Load1 is the one-minute load average when the run started.
	Load1 float64 `json:"load1"`
	// Steal is the fraction of the machine's CPU time the hypervisor gave
	// to others during the run (/proc/stat's steal over all its time).
	Steal float64 `json:"steal"`
	// RunQueue is /proc/stat's procs_running, the mean of its readings at
	// the run's start and end (the parent's own reading counts itself).
	RunQueue float64 `json:"run_queue"`
	// HighSteal is Steal above HighSteal: the run's times hold the
	// hypervisor's other guests. Kept, and counted by A/B sessions
	// (ABFile.HighStealPairs).
	HighSteal bool `json:"high_steal,omitempty"`
}
