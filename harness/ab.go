package harness

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// A/B sessions: see "A/B sessions" in the package documentation (doc.go)
// for the order, the looks and the budget.

// ABSchema is the version tag of the A/B results file this build writes.
// rootbench-ab/v2 adds to rootbench-ab/v1 its sides of schema rootbench/v2
// (Schema), the pairs flagged for steal (HighStealPairs, RunEnv.HighSteal),
// the sizes of equal-time sessions (Sizes) and the waits for the load
// (LoadWaits).
const ABSchema = "rootbench-ab/v2"

// ABSchemas are the A/B results file schemas this build reads, oldest
// first.
var ABSchemas = []string{"rootbench-ab/v1", ABSchema}

// Side is one build in an A/B session.
type Side struct {
	// Name is "base" or "head"; it names the side in logs and notices.
	Name string
	// Executable is the side's rootbench binary: its workers run
	// `Executable <Benchmark.Args>`.
	Executable string
	// Env is extra environment for this side's workers only, "NAME=value"
	// (for example a planted slowdown for testing the gate).
	Env []string
	// Modified marks a side built from a work tree with uncommitted
	// changes: its Tool says modified whatever its binary's build
	// information says.
	Modified bool
	// Args, when not nil, gives this side's worker arguments for a
	// benchmark in place of Benchmark.Args: two builds may spell the same
	// measurement differently (see DescribeWorker).
	Args func(b *Benchmark) []string
}

// SequentialRule is the sequential test an A/B session samples under: it
// says where to look and, at each look, whether the session can stop. The
// harness only measures and asks; the false-alarm guarantee is the rule's
// (analysis.Sequential implements it; see analysis/sequential.go).
//
// The harness's side of the contract: looks are made only at the planned
// sizes (in runs per side of the benchmark with the fewest), plus once more
// on the runs made when the budget ends between two of them, which then
// takes the place of the last planned look; the plan depends on the pace
// of the rounds only, never on what they measured.
type SequentialRule interface {
	// PlannedLooks are the fixed looks in runs per side (even, increasing,
	// at least 2), or nil to plan them from the pace: PlanLooks is then
	// called once, after the first ABBA block, with the runs per side the
	// budget allows.
	PlannedLooks() []int
	// MaxLooks is the most looks the session makes before its plan is
	// made (Look.Of until then).
	MaxLooks() int
	// PlanLooks plans the looks of a session that can reach reach runs per
	// side: even, increasing, at least 2 each, at most MaxLooks of them.
	PlanLooks(reach int) []int
	// Decide examines both sides at a look and reports whether the
	// session can stop; note, when not empty, is printed as one line on
	// Notices ("look 2/4 at 20 runs per side: 1 row undecided").
	Decide(base, head *File, look Look) (done bool, note string)
}

// Look tells the rule where the session stands.
type Look struct {
	Number int `json:"number"` // 1 for the first look
	// Of is the most looks the session can make: the planned looks, or
	// the rule's MaxLooks before they are planned.
	Of int `json:"of"`
	// Runs is the fewest measured runs per side of a benchmark still
	// running (failed runs included): the slowest benchmark's, which makes
	// one pair per round; faster ones have made more (see balance).
	Runs int `json:"runs"`
	// Final is true when no run follows this look, whatever Decide says:
	// the last planned look, or the budget's look.
	Final bool `json:"final,omitempty"`
	// Budget is true for the look made because the budget ran out.
	Budget bool `json:"budget,omitempty"`
}

// ABOptions configure ExecuteAB.
type ABOptions struct {
	// Benchmarks are measured on both sides with the same Args.
	Benchmarks []Benchmark
	Base, Head Side
	// Warmup is the number of unmeasured runs per benchmark and side made
	// before the first round (failed warm-ups are recorded as failed runs).
	Warmup int
	// MaxTime is the session's time budget; 0 means none (the session
	// ends at the last look).
	MaxTime time.Duration
	// Timeout bounds one run, as in Options.
	Timeout time.Duration
	// IgnoreFailure keeps a benchmark running after a failed run, as in
	// Options. Without it, a failure on either side stops the benchmark on
	// both.
	IgnoreFailure bool
	// Rule is the sequential rule: where the looks are and what each
	// decides (analysis.Sequential).
	Rule SequentialRule
	// WaitForLoad, when not nil, makes every measured round wait for the
	// load first (LoadWait); the time waited does not count against
	// MaxTime.
	WaitForLoad *LoadWait

	Workload, Unit string            // copied into both Files
	Params         map[string]string // parameters common to all benchmarks
	CommandLine    []string          // recorded in both Files' Tool

	// Progress, Notices and LogDir are as in Options. Log files are named
	// after the side: "head-boxroot-run3.log".
	Progress io.Writer
	Notices  io.Writer
	LogDir   string
	// OnLook, when not nil, is called after every look with the session
	// so far (sides marked Partial), e.g. to write it out, so that a
	// session cut short still leaves what it measured.
	OnLook func(f *ABFile)
}

// Why an A/B session stopped (ABFile.Stopped).
const (
	StopDecided     = "decided"     // Decide said done
	StopLastLook    = "last-look"   // the last planned look came without a decision
	StopBudget      = "budget"      // MaxTime ran out before the last planned look
	StopFailed      = "failed"      // every benchmark stopped after a failed run
	StopInterrupted = "interrupted" // ctx was cancelled
	// StopRunning marks a file written at a look (ABOptions.OnLook): the
	// session had not ended.
	StopRunning = "running"
)

// ABFile is the results file of an A/B session: both sides, each a complete
// results file with its own binary's Tool (VCS revision), every run kept, and
// the session's looks.
type ABFile struct {
	Schema string `json:"schema"` // ABSchema
	Base   *File  `json:"base"`
	Head   *File  `json:"head"`
	// BaseEnv and HeadEnv are the extra environments of each side's workers.
	BaseEnv []string `json:"base_env,omitempty"`
	HeadEnv []string `json:"head_env,omitempty"`
	// PlannedLooks are the looks planned (the rule's fixed looks, or its
	// automatic plan once made); MaxTimeNs the budget (0: none).
	PlannedLooks []int   `json:"planned_looks"`
	MaxTimeNs    int64   `json:"max_time_ns"`
	Looks        []ABLog `json:"looks"`
	// Stopped says why sampling ended: decided, last-look, budget, failed
	// or interrupted.
	Stopped string `json:"stopped"`
	// WaitForLoad is the load average every round waited to fall below
	// (ABOptions.WaitForLoad; 0: none), and LoadWaits the waits it took.
	WaitForLoad float64       `json:"wait_for_load,omitempty"`
	LoadWaits   []LoadWaitLog `json:"load_waits,omitempty"`
	// HighStealPairs counts the pairs in which a run saw steal above
	// HighSteal (RunEnv.HighSteal says which runs): kept in every look and
	// verdict, and counted here so that a reader knows.
	HighStealPairs int `json:"high_steal_pairs"`
	// Gate is the decision on the final runs, recorded by the caller (the
	// harness does not judge); nil when none was made.
	Gate *ABGate `json:"gate,omitempty"`
	// Sizes are the work given to each benchmark whose work was sized
	// (ab --equal-time) or given by hand (--niters-for), recorded by the
	// caller; empty when every benchmark ran the work asked.
	Sizes []ABSize `json:"sizes,omitempty"`
	// Layout is the function layout both builds were linked in, for a
	// session of ab --layouts (the -randlayout seed; "0" the linker's
	// default); empty otherwise. Recorded by the caller.
	Layout     string    `json:"layout,omitempty"`
	StartedAt  time.Time `json:"started_at"`
	FinishedAt time.Time `json:"finished_at,omitempty"`
}

// ABGate is the gate's decision on an A/B session's final runs.
type ABGate struct {
	Threshold float64 `json:"threshold"` // as a fraction: 0.03 for 3%
	// Alpha is the session's false-alarm budget; AlphaPerLook what each
	// look was tested at (Alpha / len(PlannedLooks)).
	Alpha        float64 `json:"alpha"`
	AlphaPerLook float64 `json:"alpha_per_look"`
	// Outcome is "pass", "regression" or "inconclusive" for the whole
	// table.
	Outcome string      `json:"outcome"`
	Rows    []ABGateRow `json:"rows"`
}

// ABGateRow is one row's gate decision: a benchmark on one metric. Delta
// is head/base − 1 and DeltaLo, DeltaHi its interval; each is absent when
// not finite (too few runs).
type ABGateRow struct {
	Label string `json:"label"`
	// Metric is what the row measures ("cpu": CPU time); absent for wall
	// time, the one metric of sessions that judged no other.
	Metric  string   `json:"metric,omitempty"`
	Outcome string   `json:"outcome"` // pass, regression or inconclusive
	Delta   *float64 `json:"delta,omitempty"`
	DeltaLo *float64 `json:"delta_lo,omitempty"`
	DeltaHi *float64 `json:"delta_hi,omitempty"`
	// Claim is what the row's interval rules out (analysis.Claim: e.g.
	// "no-slowdown-beyond" with Bound +0.031), so that an undecided row
	// still says what it excluded; Bound is its figure as a fraction.
	Claim string   `json:"claim,omitempty"`
	Bound *float64 `json:"bound,omitempty"`
}

// ABSize is the work an A/B session gave one benchmark when benchmarks may
// run different work (ABFile.Sizes): both sides of every pair ran Work.
type ABSize struct {
	Label string `json:"label"`
	// Param is the parameter that sets a run's work: niters (msgpass) or
	// calls (callback).
	Param string `json:"param"`
	// Asked is the work that was asked for; Work what the benchmark ran.
	Asked int64 `json:"asked"`
	Work  int64 `json:"work"`
	// PilotNs is the measured time of its timing run at Asked (0 when its
	// work was given by hand, or its timing run failed).
	PilotNs int64 `json:"pilot_ns,omitempty"`
	// Given marks a work given by hand (--niters-for, --calls-for).
	Given bool `json:"given,omitempty"`
}

// ABLog records one look of an A/B session.
type ABLog struct {
	Look
	ElapsedNs int64  `json:"elapsed_ns"` // since the session started
	Done      bool   `json:"done"`       // what Decide answered
	Note      string `json:"note,omitempty"`
}

// Sides of an A/B session, as indexes.
const (
	sideBase = 0
	sideHead = 1
)

func (o *ABOptions) side(i int) *Side {
	if i == sideBase {
		return &o.Base
	}
	return &o.Head
}

// check validates the options and fills defaults in a copy.
func (o ABOptions) check() (ABOptions, error) {
	if len(o.Benchmarks) == 0 {
		return o, fmt.Errorf("no benchmarks to run")
	}
	seen := map[string]bool{}
	for i, b := range o.Benchmarks {
		if b.Label == "" {
			return o, fmt.Errorf("benchmark %d (cell %q) has no label", i+1, b.Cell)
		}
		if seen[b.Label] {
			return o, fmt.Errorf("two benchmarks have the label %q: labels must be unique", b.Label)
		}
		seen[b.Label] = true
	}
	for i, def := range []string{"base", "head"} {
		s := o.side(i)
		if s.Name == "" {
			s.Name = def
		}
		if s.Executable == "" {
			return o, fmt.Errorf("no worker executable given for the %s side", s.Name)
		}
		for _, kv := range s.Env {
			if !strings.Contains(kv, "=") {
				return o, fmt.Errorf("%s worker environment entry %q: expected NAME=value", s.Name, kv)
			}
		}
	}
	if o.Base.Name == o.Head.Name {
		return o, fmt.Errorf("both sides are named %q", o.Base.Name)
	}
	if o.Rule == nil {
		return o, fmt.Errorf("no sequential rule given")
	}
	if fixed := o.Rule.PlannedLooks(); fixed != nil {
		if err := checkLooks(fixed); err != nil {
			return o, err
		}
	} else if o.MaxTime <= 0 {
		return o, fmt.Errorf("automatic looks are planned from the time budget: give one")
	}
	switch {
	case o.Warmup < 0:
		return o, fmt.Errorf("warm-up runs %d: must be 0 or more", o.Warmup)
	case o.MaxTime < 0:
		return o, fmt.Errorf("time budget %v: must be 0 (none) or positive", o.MaxTime)
	case o.Timeout < 0:
		return o, fmt.Errorf("timeout %v: must be 0 (none) or positive", o.Timeout)
	}
	if err := o.WaitForLoad.check(); err != nil {
		return o, err
	}
	return o, nil
}

// checkLooks checks a plan of looks: even (whole ABBA blocks), at least 2,
// increasing, at least one.
func checkLooks(looks []int) error {
	if len(looks) == 0 {
		return fmt.Errorf("no looks planned: give the runs per side at which to decide, e.g. 10,20,40, or plan them from the budget")
	}
	for i, n := range looks {
		if n < 2 || n%2 != 0 {
			return fmt.Errorf("look at %d runs: looks must be even (whole ABBA blocks) and at least 2", n)
		}
		if i > 0 && n <= looks[i-1] {
			return fmt.Errorf("looks %v: must increase", looks)
		}
	}
	return nil
}
