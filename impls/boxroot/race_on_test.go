//go:build race

package boxroot

// pinCacheID locks a cache, by id, for a test's inspection.
func pinCacheID(id int) *pcache { cacheLocks[id].Lock(); return &caches[id] }

// unpinCacheID ends pinCacheID.
func unpinCacheID(id int) { cacheLocks[id].Unlock() }
