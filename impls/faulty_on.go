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

// slowdowns is SlowEnv parsed once per process: canonical cell name ->
// fraction of the run's wall time to add.
var slowdowns = sync.OnceValues(func() (map[string]float64, error) {
	return parseSlowdowns(os.Getenv(SlowEnv))
})

// maxSlowPercent bounds a planted slowdown.
const maxSlowPercent = 1000

// parseSlowdowns parses SlowEnv's value: CELL=PCT[,CELL=PCT...]; empty (or
// spaces) plants nothing.
func parseSlowdowns(v string) (map[string]float64, error) {
	out := map[string]float64{}
	if strings.TrimSpace(v) == "" {
		return out, nil
	}
	const accepted = "accepted: CELL=PCT[,CELL=PCT...], e.g. boxroot=20%, with 0 < PCT <= 1000"
	for item := range strings.SplitSeq(v, ",") {
		name, pct, ok := strings.Cut(item, "=")
		if !ok {
			return nil, fmt.Errorf("%s=%s: %q has no '=': %s", SlowEnv, v, item, accepted)
		}
		e, err := lookup(name)
		if err != nil {
			return nil, fmt.Errorf("%s=%s: %w", SlowEnv, v, err)
		}
		f, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(pct), "%"), 64)
		if err != nil || !(f > 0 && f <= maxSlowPercent) {
			return nil, fmt.Errorf("%s=%s: bad percentage %q for %s: %s", SlowEnv, v, pct, e.Name, accepted)
		}
		if _, dup := out[e.Name]; dup {
			return nil, fmt.Errorf("%s=%s: cell %s named twice: %s", SlowEnv, v, e.Name, accepted)
		}
		out[e.Name] = f / 100
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
func plantFrom(m map[string]float64, e Entry) Entry {
	frac, ok := m[e.Name]
	if !ok || e.run == nil {
		return e
	}
	e.run = slowed(e.run, frac)
	return e
}

// slowed returns run made frac slower: after each successful run it spins
// for frac of the run's own wall time and adds the spin to it (see SlowEnv).
func slowed(run func(context.Context, msgpass.Params) (msgpass.Result, error), frac float64) func(context.Context, msgpass.Params) (msgpass.Result, error) {
	return func(ctx context.Context, p msgpass.Params) (msgpass.Result, error) {
		res, err := run(ctx, p)
		if err != nil {
			return res, err
		}
		res.Wall += faulty.Spin(time.Duration(frac * float64(res.Wall)))
		stats := make(map[string]int64, len(res.Stats)+1)
		maps.Copy(stats, res.Stats)
		stats[SlowStat] = int64(frac*1000 + 0.5)
		res.Stats = stats
		return res, nil
	}
}
