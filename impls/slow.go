package impls

// SlowEnv names the environment variable that plants a known slowdown on
// cells, for measuring the regression gate's detection rate: a test build
// (go build -tags rootbench_faulty) reads it as
//
//	ROOTBENCH_SLOW=CELL=PCT[,CELL=PCT...]    e.g. boxroot=20% or boxroot=5%,ref=10%
//
// where CELL is a cell name or alias and PCT a percentage in (0, 1000], the
// '%' optional. Every message-passing run of a named cell then takes
// (1+PCT/100) times its own wall time: once the run's workers have finished,
// the calling thread busy-spins for PCT% of the run's measured wall time, and
// that spin is added to the run's wall time. The shift is exact and
// multiplicative (noise included), a known ground truth for the gate; a spin
// per cell inside the pipeline would not be, since the worker that spins may
// be off the critical path. The run's Stats carry SlowStat (the planted
// slowdown in per mille), so a results file shows which side was slowed.
//
// A shipped build (without the tag) has no slowdown code: while SlowEnv is
// set to anything but spaces, its Lookup and Resolve fail, so that a binary
// that cannot plant the slowdown never silently measures an unslowed run.
const SlowEnv = "ROOTBENCH_SLOW"

// SlowStat is the Stats key of a planted slowdown, in per mille of the run's
// unslowed wall time (200 for 20%).
const SlowStat = "planted_slowdown_permille"
