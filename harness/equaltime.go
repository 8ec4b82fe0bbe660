package harness

import (
	"context"
	"math"
	"slices"
	"time"
)

// Equal time: at one amount of work for every benchmark, a slow one's runs
// take far longer than the others' (cgo-handle's about thirty times
// ocaml's), so a session's budget gives it a handful of pairs. An
// equal-time session times one unmeasured run of each benchmark first
// (TimeEach), then gives each its own amount of work (EqualTimeWork) so
// that its runs take about as long as the median benchmark's; both sides
// of every pair run the same work, and a row, being per unit of work,
// means what it meant.

// EqualTimeFloor is the least share of its asked work equal time gives a
// benchmark. A 64th of the defaults is still tens of thousands of units of
// work per pass (31 batches of 1024 cells for niters 2000; 15,625 of a
// million calls), enough for a time per unit that is the implementation's
// rather than its pass's fixed costs; a benchmark more than 64 times
// slower than the median keeps runs longer than the others'.
const EqualTimeFloor = 1.0 / 64

// EqualTimeWork sizes each benchmark's work so that its runs take about as
// long as the median benchmark's: asked[i] is benchmark i's asked work (a
// run's niters or calls) and took[i] the measured time of one run of it at
// that work (0 or less: unknown, and the benchmark keeps its work). The
// target is the lower median of the known times (with two benchmarks the
// faster one's). Benchmark i then gets round(asked[i] × target / took[i]),
// never more than asked[i] and never less than EqualTimeFloor of it (nor
// less than 1): time per unit of work is taken to be the same at every
// amount of work, which the floor keeps within reach.
func EqualTimeWork(asked []int64, took []time.Duration) []int64 {
	out := slices.Clone(asked)
	var known []time.Duration
	for i, d := range took {
		if d > 0 && asked[i] > 0 {
			known = append(known, d)
		}
	}
	if len(known) == 0 {
		return out
	}
	slices.Sort(known)
	target := float64(known[(len(known)-1)/2])
	for i, d := range took {
		if d <= 0 || asked[i] <= 0 || float64(d) <= target {
			continue
		}
		floor := max(1, int64(math.Ceil(float64(asked[i])*EqualTimeFloor)))
		w := int64(math.Round(float64(asked[i]) * target / float64(d)))
		out[i] = min(asked[i], max(floor, w))
	}
	return out
}

// TimeEach makes one unmeasured run of each benchmark with side's worker
// (its Args and Env, as a session runs them), each bounded by timeout (0:
// none), and returns the runs, failed ones included with their reason
// (logged in logDir, "" for the default, as a session's). Its error is
// ctx's when ctx ended.
func TimeEach(ctx context.Context, side Side, bs []Benchmark, timeout time.Duration, logDir string) ([]Run, error) {
	dir := (&Options{LogDir: logDir}).logDir()
	runs := make([]Run, len(bs))
	for i := range bs {
		b := &bs[i]
		args := b.Args
		if side.Args != nil {
			args = side.Args(b)
		}
		run, interrupted := execWorker(ctx, workerCmd{exe: side.Executable, args: args, env: side.Env, timeout: timeout,
			log: logPath(dir, side.Name+"-"+b.Label+"-pilot")})
		if interrupted {
			return nil, ctx.Err()
		}
		runs[i] = run
	}
	return runs, nil
}
