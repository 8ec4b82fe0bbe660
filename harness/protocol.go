package harness

import (
	"errors"
)

// The worker protocol: what a build's `rootbench worker` accepts, learned
// before a session so that two builds (ab's base and head, bisect's steps)
// can be driven with the same workload and parameters.
//
// Workers since protocol 1 answer `worker --describe` with one JSON line, a
// WorkerDescription. Older workers (every build from ff81315, where `worker`
// first exists, to 8b5e1bb) have no --describe; DescribeWorker learns what
// they accept from `worker --help` and from probes that each stop at the
// worker's first check, before anything runs: an unknown --workload, --cell
// and --set NAME each make the worker exit 2 with a line that lists what it
// accepts ("accepted: ..."). Their --help text is the same in every such
// build, so it tells a rootbench worker from other programs but not what the
// worker accepts. What the probes cannot show comes from the history:
//   - passes and the unmeasured warm-up pass arrived together (8e283c8): a
//     worker without passes runs one measured pass and no warm-up, a worker
//     with passes and without warmup-passes always runs one warm-up pass;
//   - callback needs cgo: `rootbench version` says whether a build has it.

// ProtocolVersion is the version of the worker protocol this package speaks
// and `worker --describe` prints. Workers that predate --describe are
// protocol 0.
const ProtocolVersion = 1

// Worker parameters the protocol knows by name: the ones some workers lack.
const (
	// ParamPasses is msgpass's measured passes per run (since 8e283c8).
	ParamPasses = "passes"
	// ParamWarmupPasses is the msgpass worker's unmeasured warm-up passes
	// before the measured ones (protocol 1; default 1, 0 measures as the
	// workers before passes did).
	ParamWarmupPasses = "warmup-passes"
)

// FlagCPUTime is the worker flag that asks for the CPU time of the measured
// passes in the worker's line (Run.CPUUserNs, Run.CPUSysNs). A worker says
// it has the flag in its description (WorkerDescription.CPUTime); a worker
// asked without it leaves the fields out, so that a parent from before them,
// which refuses unknown fields, still reads its line.
const FlagCPUTime = "cpu-time"

// WorkerDescription is what `rootbench worker --describe` prints, as one
// JSON line.
type WorkerDescription struct {
	// Protocol is the worker's protocol version (ProtocolVersion).
	Protocol int `json:"protocol"`
	// Workloads are the workloads --workload accepts.
	Workloads map[string]WorkloadDescription `json:"workloads"`
	// Flags are the worker's flags, without dashes (help left out).
	Flags []string `json:"flags"`
	// WarmupPass says whether a msgpass run starts with an unmeasured
	// warm-up pass by default.
	WarmupPass bool `json:"warmup_passes"`
	// CPUTime says whether the worker measures the CPU time of its
	// measured passes, reported when asked with FlagCPUTime.
	CPUTime bool `json:"cpu_time,omitempty"`
}

// WorkloadDescription is what a worker accepts for one workload.
type WorkloadDescription struct {
	// Params are the names --set accepts.
	Params []string `json:"params"`
	// Cells are the values --cell accepts (msgpass: cells and their aliases;
	// callback: variants). Test-only cells are not listed.
	Cells []string `json:"cells"`
	// Defaults are the value of each parameter when --set leaves it out.
	Defaults map[string]string `json:"defaults,omitempty"`
}

// How a WorkerInfo was learned.
const (
	SourceDescribe = "describe" // from `worker --describe`
	SourceHelp     = "help"     // from `worker --help`, probes and the history
)

// WorkerInfo is what one build's worker accepts, as DescribeWorker learned
// it.
type WorkerInfo struct {
	// Name is how notes and errors name this worker. DescribeWorker sets it
	// to the executable's path; callers name sides, e.g. "base (51c97ff)".
	Name string
	// Exe is the executable DescribeWorker ran.
	Exe string
	// Source says how the rest was learned: SourceDescribe or SourceHelp.
	Source string
	// Protocol is the worker's protocol version; 0 for workers that
	// predate --describe.
	Protocol int
	// Workloads maps each workload the worker runs to the parameter names
	// --set accepts for it.
	Workloads map[string][]string
	// Cells maps each workload to the values --cell accepts (nil when
	// unknown).
	Cells map[string][]string
	// Defaults maps each workload to its parameters' defaults, where known
	// (describe only).
	Defaults map[string]map[string]string
	// Fixed maps each workload to settings the worker does not accept but
	// always runs with, by the parameter name newer workers accept them
	// under: a worker before passes runs passes=1 and warmup-passes=0.
	Fixed map[string]map[string]string
	// Flags are the worker's flags, without dashes.
	Flags []string
	// WarmupPass says whether a msgpass run starts with an unmeasured
	// warm-up pass by default.
	WarmupPass bool
	// CPUTime says whether the worker measures the CPU time of its
	// measured passes (FlagCPUTime); builds before it do not, and their
	// runs have no CPU time.
	CPUTime bool
}

// WorkerRequest is one worker run to render as a command line.
type WorkerRequest struct {
	Workload string
	// Cell is the msgpass cell or the callback variant.
	Cell string
	// Params are the workload's parameters by name (canonical or
	// environment spelling: batch-size, BATCH_SIZE).
	Params map[string]string
	// Pin is the CPU list to pin the worker to ("" for none).
	Pin string
	// CPUTime asks for the CPU time of the measured passes, from a worker
	// that measures it (WorkerInfo.CPUTime); a worker that does not runs
	// without it.
	CPUTime bool
}

// ErrNotRootbench is wrapped by DescribeWorker's errors that say the
// executable is not a rootbench build (or not a program at all).
var ErrNotRootbench = errors.New("not a rootbench build")
