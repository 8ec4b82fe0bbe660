// Package analysis decides every figure people read about a results file:
// which results do equal work, each group's reference, the relative figures
// (on wall time or per unit of work), and, between two sides, the deltas,
// their intervals, the verdicts, the correction across rows and the
// regression gate. It formats nothing: package report and its
// sub-packages print what it returns, and every command (run, compare, ab,
// report) calls it, so every view of a file agrees.
//
// # Relatives (Relate, Annotate)
//
// Results with equal parameters apart from the cell do equal work and form
// a group. A file of one group is compared on mean wall time, as hyperfine
// compares commands ("ran 2.17 ± 0.04 times faster than"). When the results
// do different amounts of work (a scan over niters, batch-size, producers,
// consumers, calls, ...) every relative figure divides mean times per unit
// of work (ns/cell, ns/call) and is labelled "per cell"/"per call": a scan
// crossing cells with parameters compares the cells within each parameter
// set (one reference per group), a scan of one cell compares the parameter
// sets with each other. Ratios carry hyperfine's first-order error
// propagation, σ(a/b) = (a/b)·sqrt((σa/a)² + (σb/b)²).
//
// # Comparisons (CompareFiles, CompareCells)
//
// Each row compares one configuration's samples on one metric between a
// base and a head (metric.go). A results file's metrics are wall time (the
// successful runs' workload wall times) and CPU time (the workers' CPU
// time over the same measured passes; the whole process's, start-up and
// warm-up included, for both sides when a side's workers predate it; no
// row when the runs record neither), each per unit of work when the two
// sides do different work; Options.Metrics chooses (nil: wall time alone;
// the commands' default is both, DefaultMetrics). Go benchmark text's
// metrics are its units (sec/op, B/op, allocs/op, B/s, custom ones;
// Options.Units chooses, nil: all), each with benchfmt's direction (a
// throughput such as B/s is better higher: its change for the worse, which
// the gate reads, is a fall) and assumption (a unit declared assume=exact
// is compared by its values alone, exact.go), and a benchmark is compared
// only with one of the same configuration apart from Options.Ignore, as
// benchstat pairs them (gobench.go). Every row, whatever its metric, is in
// one family: one correction across all of them, one gate, and the
// comparison regresses when any row does. Wall time sees everything,
// the machine's load included; CPU time misses the time spent blocked and
// counts spinning, and is far less moved by the load.
//
// The default method, MethodHL, estimates the change as the Hodges-Lehmann
// shift of log times, the median of the m·n pairwise differences
// log(head_j) − log(base_i), reported as exp(shift) − 1. Its interval is
// Moses' distribution-free interval, [d_(k), d_(mn+1−k)] over the sorted
// differences, with k − 1 the largest count c whose two-sided Mann-Whitney
// tail 2·P(U ≤ c) is at most the row's tested level. The null distribution
// of U is exact (no ties) up to 50 runs per side, and the normal
// approximation with continuity and tie corrections beyond. The verdict is
// DEFINED as the interval excluding zero, and the reported p-value is
// 2·P(U ≤ u) with u = min(#{d ≤ 0}, #{d ≥ 0}) (differences of exactly zero
// counted on both sides, conservatively), so p <= level exactly when the
// interval excludes zero: the delta, the interval, the p-value and the
// verdict tell one story. Why this method: benchmarks' times are skewed
// and outlier-prone, so a rank method assumes nothing about their shape;
// on the log scale a slowdown is a ratio, which is what a threshold in
// percent means; the shift estimate uses every pair, so it is steadier
// than a ratio of two medians; and unlike combining two medians' intervals
// it has a finite interval from 4 runs per side (at 5%) and the width the
// test actually has.
//
// # Paired comparisons (Options.Paired)
//
// When the i-th runs of the two sides were made back to back (ab's ABBA
// rounds record a round's two runs at the same index), each row compares
// the pairs instead of the two samples: d_i = log(head_i) − log(base_i),
// the estimate is the one-sample Hodges-Lehmann estimate (the median of
// the n(n+1)/2 Walsh averages (d_i + d_j)/2, i ≤ j), and the interval is
// Tukey's, [w_(k), w_(N+1−k)] over the sorted Walsh averages, with k − 1
// the largest count c whose two-sided Wilcoxon signed-rank tail
// 2·P(T ≤ c) is at most the row's tested level (T = #{w < 0}; exact up to
// 200 pairs, normal with continuity and tie corrections beyond). The
// p-value is 2·P(T ≤ u) with u = min(#{w ≤ 0}, #{w ≥ 0}), so, as for the
// two-sample method, the row is significant exactly when its interval
// excludes zero. Assumptions: the pairs' log ratios are independent and
// symmetric about the true shift; the machine's state may change from one
// round to the next (that is what pairing removes), but not within a
// round's two runs. Why: where most of a run's noise is the machine's
// phase, which the two runs of a round share, pairing removes it where the
// two-sample method must average it away, and the interval narrows by as
// much as the pairs' log ratios vary less than the runs (`make gate-check`
// measures the gate's error rates on real sessions, `make gate-replay` on
// sessions resampled from recorded ones, TestPairedFalseAlarmRate on
// simulated ones). A run that failed on either side drops its pair.
//
// # Across function layouts (CompareLayouts)
//
// A session of two builds compares their function layouts as much as
// their code, and more runs only narrow the interval around the two
// binaries' difference. CompareLayouts combines sessions of one change,
// each with both sides linked in one layout: each layout gives one
// estimate per row, the mean of its pairs' log ratios; the row's delta is
// the mean over the K layouts with Student's t interval on K − 1 degrees
// of freedom (its standard error never below what the sessions' own noise
// implies), the p-value the matching t-test, Holm across rows, the same
// gate. Assumptions: the layouts' estimates are independent draws around
// the change with one spread, close enough to normal (layouts.go says why,
// and what its measured rates are).
//
// Across the rows, CorrectionHolm (the default) controls the family-wise
// error rate at Alpha with Holm's step-down, so a 20-row table raises a
// false alarm no more often than a one-row one. Each row's interval is
// built at the level Holm tested it at (rows after the first one Holm
// cannot reject, at that step's level), so significance and interval still
// agree; PAdjusted is Holm's adjusted p-value.
//
// MethodBenchstat reproduces benchstat exactly: medians with benchmath's
// AssumeNothing intervals, the U test's p-value against Alpha, no
// correction, and a delta that is the ratio of medians. Its delta interval
// combines the two medians' intervals at √0.95 each at their extremes
// (conservative); it can disagree with the verdict, which is why it is not
// the default.
//
// # Gate
//
// With a threshold T (a fraction), a row passes when its interval (of the
// change for the worse: base/head − 1 for a higher-is-better metric) lies
// wholly below +T, regresses when it is significant and its estimate is
// beyond +T, and is otherwise inconclusive, with an estimate of how many
// more runs per side would decide it (the interval's half-widths on the
// log scale taken as shrinking with 1/sqrt(n)). No row passes merely
// because its data are too noisy to see a change. Every row also states
// what its interval rules out (Row.RuledOut, RuleOut): no slowdown beyond
// the upper bound for a pass, a slowdown of at least the lower bound for a
// regression, the range still possible for an undecided row, nothing when
// the interval is unbounded. The whole comparison regresses when a row
// does, else is inconclusive when a row is, else passes;
// Outcome.ExitCode maps this to 1, 3 and 0.
//
// # Files
//
// As in golang.org/x/perf/benchmath, each file holds one method and its
// comment names what it assumes: relative.go (ratios of means), rows.go
// (which results and runs a row compares), metric.go (what a row
// measures, and what each metric cannot see), gobench.go (which
// benchmarks of Go benchmark text a row compares), addrow.go (a pair's
// rows, one per metric), hodgeslehmann.go with shift.go, paired.go and
// exact.go (the default rank method, and exact units), benchstat.go
// (benchstat's medians and U test), layouts.go (the combination across function
// layouts), holm.go (the correction across rows), gate.go (the three
// outcomes), ruledout.go (what each row's interval rules out), needed.go
// (the runs an inconclusive row still needs), sequential.go (the looks of
// an A/B session and a bisection's alpha per step), describe.go (the
// descriptive figures of a result's runs), and, for the gate's measured
// error rates (cmd/gatecheck), wilson.go (the interval of a measured
// proportion), bootstrap.go (block resampling of paired runs),
// autocorrelation.go (the dependence between neighbouring pairs) and
// spread.go (how far estimates spread beyond their standard errors).
// compare.go puts a comparison together, from options.go (what it is
// asked for) to comparison.go (what it returns); alpha.go and threshold.go
// parse and check the error rate and the gate.
package analysis
