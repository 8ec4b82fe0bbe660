//go:build race

package boxroot

// raceEnabled says the race detector is on: tests shrink their sizes (never
// their checks) to stay within the suite's time budget.
const raceEnabled = true

// pinCacheID locks a cache, by id, for a test's inspection.
func pinCacheID(id int) *pcache { cacheLocks[id].Lock(); return &caches[id] }

// unpinCacheID ends pinCacheID.
func unpinCacheID(id int) { cacheLocks[id].Unlock() }
