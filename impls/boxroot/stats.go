package boxroot

import "sync/atomic"

// counters are a domain's event counts.
type counters struct {
	creates, localDeletes, remoteDeletes int64
	slowCreates, flushes, publishes      int64
}

func (c *counters) add(o counters) {
	c.creates += o.creates
	c.localDeletes += o.localDeletes
	c.remoteDeletes += o.remoteDeletes
	c.slowCreates += o.slowCreates
	c.flushes += o.flushes
	c.publishes += o.publishes
}

// atomicCounters mirrors counters for readers on other goroutines.
type atomicCounters struct {
	creates, localDeletes, remoteDeletes atomic.Int64
	slowCreates, flushes, publishes      atomic.Int64
}

func (m *atomicCounters) store(c counters) {
	m.creates.Store(c.creates)
	m.localDeletes.Store(c.localDeletes)
	m.remoteDeletes.Store(c.remoteDeletes)
	m.slowCreates.Store(c.slowCreates)
	m.flushes.Store(c.flushes)
	m.publishes.Store(c.publishes)
}

func (m *atomicCounters) load() counters {
	return counters{
		creates:       m.creates.Load(),
		localDeletes:  m.localDeletes.Load(),
		remoteDeletes: m.remoteDeletes.Load(),
		slowCreates:   m.slowCreates.Load(),
		flushes:       m.flushes.Load(),
		publishes:     m.publishes.Load(),
	}
}

// totals sums the counters of closed domains and the last published
// counters of open ones. Called with mu held.
func (im *Impl) totals() counters {
	t := im.closed
	for d := range im.domains {
		t.add(d.mirror.load())
	}
	return t
}

// Live returns the number of handles created and not deleted. It is exact
// once every domain is closed; while domains run it lags behind by the work
// they have not yet published (at most a pool switch's worth each).
func (im *Impl) Live() int64 {
	im.mu.Lock()
	defer im.mu.Unlock()
	t := im.totals()
	return t.creates - t.localDeletes - t.remoteDeletes
}

// Stats returns the allocator's counters (see the package documentation).
// Safe to call while domains run: the figures are then approximate.
func (im *Impl) Stats() map[string]int64 {
	im.mu.Lock()
	defer im.mu.Unlock()
	t := im.totals()
	return map[string]int64{
		"pools_allocated":  im.allocs,
		"peak_pools":       im.peak,
		"pools_released":   im.released,
		"pools":            im.pools,
		"pools_empty":      int64(len(im.empty)),
		"pools_orphaned":   int64(len(im.orphans)),
		"orphans_adopted":  im.adopted,
		"live":             t.creates - t.localDeletes - t.remoteDeletes,
		"creates":          t.creates,
		"local_deletes":    t.localDeletes,
		"remote_deletes":   t.remoteDeletes,
		"delayed_flushes":  t.flushes,
		"remote_publishes": t.publishes,
		"slow_creates":     t.slowCreates,
		"domains_open":     int64(len(im.domains)),
	}
}
