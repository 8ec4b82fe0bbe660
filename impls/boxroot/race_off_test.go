//go:build !race

package boxroot

// pinCacheID gives a test a cache, by id, to inspect; without the race
// detector, the caller makes sure that no goroutine uses the drop-in API.
func pinCacheID(id int) *pcache { return &caches[id] }

// unpinCacheID ends pinCacheID.
func unpinCacheID(int) {}
