//go:build !race && !purego && go1.26 && !go1.27

package boxroot

import "github.com/rootbench/rootbench/workload/msgpass"

// The drop-in API on its pinned fast paths, the ones other builds use,
// beside the assembly ones in the same invocation: "boxroot-handle-pinned"
// in BenchmarkHandle and BenchmarkHandleCrossThread turns asmCaches off
// for its own benchmarks, before any of their goroutines start.
func init() {
	pinned := handleAPIs[0]
	pinned.name += "-pinned"
	pinned.setUp = pinnedFastPaths
	handleAPIs = append(handleAPIs, pinned)

	cross := crossCaseOf("boxroot-handle-pinned", HandleImpl)
	run := cross.run
	cross.run = func(p msgpass.Params) (msgpass.Result, error) {
		defer pinnedFastPaths()()
		return run(p)
	}
	crossCases = append(crossCases, cross)
}

// pinnedFastPaths turns the assembly fast paths off, and returns what
// turns them back on. No handle operation may run meanwhile.
func pinnedFastPaths() (restore func()) {
	on := asmCaches
	asmCaches = false
	return func() { asmCaches = on }
}
