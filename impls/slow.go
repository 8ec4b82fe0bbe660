package impls

// SlowEnv names the environment variable that plants a known slowdown on
// cells, for measuring the regression gate's detection rate: a test build
// (go build -tags rootbench_faulty) reads it as
//
//	ROOTBENCH_SLOW=CELL=PCT[,CELL=PCT...]    e.g. boxroot=20% or boxroot=5%,ref=10%cpu
//
// where CELL is a cell name or alias and PCT a percentage in (0, 1000] that
// says the metric it is planted in: PCT% (or a bare number) in wall time,
// PCT%cpu in CPU time; any other suffix is refused. Every message-passing
// pass of a named cell is then slowed inside the pass, so that both the
// pass's wall time and its CPU time (the worker's, over its measured
// passes) see the spin: once the pass's workers have finished, the calling
// thread busy-spins; the spin's wall time is added to the pass's wall
// time, and the process's CPU time during the spin to the pass's CPU time.
//
//   - In wall time (PCT%): the thread spins for PCT% of the pass's measured
//     wall time. The pass's wall time grows by exactly PCT% (noise
//     included); its CPU time grows by what the process used meanwhile,
//     about PCT% of the pass's wall time, which is a smaller share of a
//     pass whose threads run in parallel.
//   - In CPU time (PCT%cpu): the thread spins until it has used, by its own
//     CPU clock, PCT% of the pass's CPU time (every thread's, over the
//     interval the pass measures, as the worker counts it). The pass's CPU
//     time grows by PCT% (and by whatever else the process did during the
//     spin, next to nothing), however busy the machine: a descheduled spin
//     lasts longer, not more; its wall time grows by however long the spin
//     took.
//
// A spin inside the pipeline would not be exact: the worker that spins may
// be off the critical path. The run's Stats say what was planted: SlowStat
// (the percentage, in per mille), SlowCPUStat (1 when planted in CPU
// time), and the planted time itself in each metric, summed over the
// measured passes (PlantedWallStat, PlantedCPUStat), so that a reader
// computes both shifts of a run: planted wall / (WallNs − planted wall),
// and planted CPU / (CPU time − planted CPU).
//
// A shipped build (without the tag) has no slowdown code: while SlowEnv is
// set to anything but spaces, its Lookup and Resolve fail, so that a binary
// that cannot plant the slowdown never silently measures an unslowed run.
const SlowEnv = "ROOTBENCH_SLOW"

// Stats keys of a planted slowdown.
const (
	// SlowStat is the planted slowdown in per mille of the unslowed pass,
	// in the metric it was planted in (200 for 20%).
	SlowStat = "planted_slowdown_permille"
	// SlowCPUStat is 1 when the slowdown was planted in CPU time (absent
	// when in wall time).
	SlowCPUStat = "planted_in_cpu_time"
	// PlantedWallStat and PlantedCPUStat are the wall time the spins took
	// and the CPU time the spinning threads used, in nanoseconds. They end
	// in "_ns", so the worker sums them over the measured passes
	// (harness.MeasurePasses). PlantedCPUStat is absent where the thread
	// CPU clock cannot be read (outside Linux).
	PlantedWallStat = "planted_wall_ns"
	PlantedCPUStat  = "planted_cpu_ns"
)
