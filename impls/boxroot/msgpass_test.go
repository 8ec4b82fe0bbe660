package boxroot

import (
	"testing"

	"github.com/rootbench/rootbench/internal/racedetect"
)

// TestMsgPassMemory runs the parallel message-passing workload (batches of
// 1024, a sync every 128 batches) through 10M cells per variant and checks
// that the pools stay bounded and are all released or reusable at the end.
//
// Bound: a cell is deleted at most maxDelay batches after its creation, so
// a pool retired more than (maxDelay+1)*batch/poolSize pools ago holds only
// freed slots (published, except for the one chain the consumer is still
// building, which is for a recent pool). The producer's ring is FIFO, so
// its head is then reusable: peak pools stay under that figure plus the
// current pool, the consumer's pending pool and one for rounding. no-reuse
// takes delayed lists back only every noReuseFlushEvery switches and reuses
// a pool in part until its next sweep, so it is allowed twice the bound:
// the point there is that it stays bounded (without any reclaim the peak
// would be cells/poolSize).
func TestMsgPassMemory(t *testing.T) {
	t.Parallel()
	cells := 10_000_000
	if testing.Short() || racedetect.Enabled {
		cells = 1_000_000
	}
	p := mpParams{cells: cells, batch: 1024, maxDelay: 128}
	base := int64((p.maxDelay+1)*p.batch/poolSize + 3)
	for _, c := range benchImpls() {
		t.Run(c.name, func(t *testing.T) {
			if err := msgPass(c.impl, p); err != nil {
				t.Fatal(err)
			}
			s := c.impl.Stats()
			t.Logf("%d cells: peak_pools=%d pools_allocated=%d pools_released=%d pools=%d pools_empty=%d delayed_flushes=%d remote_publishes=%d",
				cells, s["peak_pools"], s["pools_allocated"], s["pools_released"], s["pools"], s["pools_empty"], s["delayed_flushes"], s["remote_publishes"])
			bound := base
			if c.impl.opts.NoReuse {
				bound *= 2
			}
			if s["peak_pools"] > bound {
				t.Errorf("peak_pools = %d, want <= %d", s["peak_pools"], bound)
			}
			want := int64((cells + p.batch - 1) / p.batch * p.batch) // whole batches
			if s["live"] != 0 || s["creates"] != want {
				t.Errorf("live = %d, creates = %d; want 0 and %d", s["live"], s["creates"], want)
			}
			if s["pools_orphaned"] != 0 || s["pools"] != s["pools_empty"] {
				t.Errorf("at the end: %d pools, %d empty (reusable), %d orphaned; want every pool empty or released",
					s["pools"], s["pools_empty"], s["pools_orphaned"])
			}
			if s["pools_allocated"]-s["pools_released"] != s["pools"] {
				t.Errorf("pools_allocated %d - pools_released %d != pools %d", s["pools_allocated"], s["pools_released"], s["pools"])
			}
		})
	}
}
