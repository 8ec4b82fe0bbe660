//go:build rootbench_faulty

package impls

import (
	"context"
	"fmt"
	"maps"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rootbench/rootbench/cputime"
	"github.com/rootbench/rootbench/impls/faulty"
	"github.com/rootbench/rootbench/workload/msgpass"
)

// registerTestOnly registers the deliberately broken cells of impls/faulty,
// hidden from listings and the default set.
func registerTestOnly() {
	for _, f := range faulty.All() {
		e := bind(f.Name, f.Description, f.New, nil)
		e.Hidden = true
		must(register(e))
	}
}

// slowdown is one cell's planted slowdown: frac of the pass, in wall
// time or, with cpu, in CPU time (see SlowEnv).
type slowdown struct {
	frac float64
	cpu  bool
}

// slowdowns is SlowEnv parsed once per process: canonical cell name ->
// its planted slowdown.
var slowdowns = sync.OnceValues(func() (map[string]slowdown, error) {
	return parseSlowdowns(os.Getenv(SlowEnv))
})

// maxSlowPercent bounds a planted slowdown.
const maxSlowPercent = 1000

// cpuSuffix marks a slowdown planted in CPU time: PCT%cpu.
const cpuSuffix = "%cpu"

// parseSlowdowns parses SlowEnv's value: CELL=PCT[,CELL=PCT...], PCT being
// a number, NUMBER% (wall time) or NUMBER%cpu (CPU time); empty (or
// spaces) plants nothing.
func parseSlowdowns(v string) (map[string]slowdown, error) {
	out := map[string]slowdown{}
	if strings.TrimSpace(v) == "" {
		return out, nil
	}
	const accepted = "accepted: CELL=PCT[,CELL=PCT...] with 0 < PCT <= 1000, PCT% in wall time, PCT%cpu in CPU time, e.g. boxroot=20% or boxroot=10%cpu"
	for item := range strings.SplitSeq(v, ",") {
		name, pct, ok := strings.Cut(item, "=")
		if !ok {
			return nil, fmt.Errorf("%s=%s: %q has no '=': %s", SlowEnv, v, item, accepted)
		}
		e, err := lookup(name)
		if err != nil {
			return nil, fmt.Errorf("%s=%s: %w", SlowEnv, v, err)
		}
		num, cpu := strings.CutSuffix(strings.TrimSpace(pct), cpuSuffix)
		f, err := strconv.ParseFloat(strings.TrimSuffix(num, "%"), 64)
		if err != nil || !(f > 0 && f <= maxSlowPercent) {
			return nil, fmt.Errorf("%s=%s: bad percentage %q for %s: %s", SlowEnv, v, pct, e.Name, accepted)
		}
		if _, dup := out[e.Name]; dup {
			return nil, fmt.Errorf("%s=%s: cell %s named twice: %s", SlowEnv, v, e.Name, accepted)
		}
		out[e.Name] = slowdown{frac: f / 100, cpu: cpu}
	}
	return out, nil
}

// plant wraps e's run with the slowdown SlowEnv names for it, if any.
func plant(e Entry) (Entry, error) {
	m, err := slowdowns()
	if err != nil {
		return Entry{}, err
	}
	return plantFrom(m, e), nil
}

// plantFrom wraps e's run with the slowdown m names for it, if any.
func plantFrom(m map[string]slowdown, e Entry) Entry {
	s, ok := m[e.Name]
	if !ok || e.run == nil {
		return e
	}
	e.run = slowed(e.run, s)
	return e
}

// msgpassRun is one message-passing pass of a cell.
type msgpassRun = func(context.Context, msgpass.Params) (msgpass.Result, error)

// slowed returns run slowed by s: after each successful pass the calling
// thread spins, in wall time for s.frac of the pass's own wall time, in
// CPU time for s.frac of the pass's own CPU time (res.CPU, as the worker
// counts it); the spin's wall time is added to the pass's wall time and
// the process's CPU time during the spin to the pass's CPU time, so both
// metrics see it, and the Stats say what was planted (see SlowEnv).
func slowed(run msgpassRun, s slowdown) msgpassRun {
	return func(ctx context.Context, p msgpass.Params) (msgpass.Result, error) {
		res, err := run(ctx, p)
		if err != nil {
			return res, err
		}
		var wall, cpu time.Duration
		before := cputime.Self()
		if s.cpu {
			passCPU := res.CPU.Total()
			if passCPU <= 0 {
				return res, fmt.Errorf("%s: a slowdown in CPU time: the pass reported no CPU time", SlowEnv)
			}
			if wall, cpu, err = faulty.SpinCPU(time.Duration(s.frac * float64(passCPU))); err != nil {
				return res, fmt.Errorf("%s: a slowdown in CPU time: %w", SlowEnv, err)
			}
		} else {
			wall, cpu = faulty.Spin(time.Duration(s.frac * float64(res.Wall)))
		}
		res.Wall += wall
		res.CPU = res.CPU.Add(cputime.Self().Sub(before))
		stats := make(map[string]int64, len(res.Stats)+4)
		maps.Copy(stats, res.Stats)
		stats[SlowStat] = int64(s.frac*1000 + 0.5)
		if s.cpu {
			stats[SlowCPUStat] = 1
		}
		stats[PlantedWallStat] = wall.Nanoseconds()
		if cpu > 0 {
			stats[PlantedCPUStat] = cpu.Nanoseconds()
		}
		res.Stats = stats
		return res, nil
	}
}
