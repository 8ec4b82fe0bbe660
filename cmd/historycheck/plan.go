package main

// What the command measures: the targets, the same series under
// other noise models, the step at other places, and the method at other
// settings. Each table is a list of experiments; plan collects them all so
// that one parallel pass runs every series.

import "github.com/rootbench/rootbench/analysis"

// The targets the method is held to (results/history.md says whether each
// is met and by how much it misses).
const (
	stepFoundTarget   = 0.95 // series with a step in which a change point is reported
	stepLocatedTarget = 0.90 // series in which a change point's range holds the step
	falsePerPoint     = 1e-3 // change points in pure noise, per point
	creepFoundTarget  = 0.95 // creeping series in which a change point is reported
)

// The synthetic series.
var (
	// base is the noise of the targets: one run a point, CV 3%.
	base = noise{runs: 1, cv: 0.03}
	// step is the target's step: 5% over 40 points, in the middle 50%.
	step = stepShape(40, 1.05, 10, 30)
	// pure is the target's pure noise: 200 points.
	pure = flatShape(200)
	// creep is ten +1.5% steps, eight points apart, after ten flat points.
	creep = creepShape(100, 10, 1.015, 10, 8)
)

// noiseRow is one row of the noise models' table.
type noiseRow struct {
	noise noise
	obs   analysis.ChangePointObservations
}

// noiseRows are the per-point noise models: the median of 1 or 5 runs,
// with and without a build-to-build factor, and, as the contrast, the
// t-test over runs instead of commits. The first is the targets' own.
var noiseRows = []noiseRow{
	{base, analysis.ObserveCommits},
	{noise{runs: 5, cv: 0.03}, analysis.ObserveCommits},
	{noise{runs: 1, cv: 0.03, build: 0.02}, analysis.ObserveCommits},
	{noise{runs: 5, cv: 0.03, build: 0.02}, analysis.ObserveCommits},
	{noise{runs: 5, cv: 0.03}, analysis.ObserveRuns},
	{noise{runs: 5, cv: 0.03, build: 0.02}, analysis.ObserveRuns},
}

// position is a step of factor at a fixed point of a 40-point series.
type position struct {
	factor float64
	at     int
}

func (q position) shape() shape { return stepShape(40, q.factor, q.at, q.at) }

// positions put the step elsewhere, near the ends included, and one large
// step (as large as a real one) right after the first point.
var positions = []position{
	{1.05, 1}, {1.05, 2}, {1.05, 5}, {1.05, 10}, {1.05, 20},
	{1.05, 30}, {1.05, 35}, {1.05, 38}, {1.05, 39}, {1.7, 1},
}

// setting is one row of the settings table: the strict level, the
// relaxed level as a factor of it, and the window.
type setting struct {
	strict, factor float64
	window         int
}

func (s setting) options() analysis.ChangePointOptions {
	return analysis.ChangePointOptions{StrictLevel: s.strict, RelaxedLevel: s.factor * s.strict, Window: s.window}
}

// defaultSetting is analysis' defaults, spelled out.
var defaultSetting = setting{
	analysis.DefaultChangePointStrictLevel, analysis.DefaultChangePointRelaxedFactor, analysis.DefaultChangePointWindow,
}

// settings are Otava's defaults, the method's, and their neighbours.
var settings = []setting{
	{0.001, 10, 50}, // Otava's
	{0.001, 2, 100},
	{0.002, 2, 100},
	defaultSetting,
	{0.003, 10, 100},
	{0.003, 2, 50},
	{0.005, 2, 100},
}

// plan is every experiment of the report, and where each table's rows
// are in it.
type plan struct {
	exps []experiment
	// noise[i] is noiseRows[i]'s step, pure-noise and creep experiments.
	noise [][3]int
	// position[i] is positions[i]'s experiment.
	position []int
	// setting[i] is settings[i]'s step and pure-noise experiments.
	setting [][2]int
}

func (p *plan) add(x experiment) int {
	p.exps = append(p.exps, x)
	return len(p.exps) - 1
}

// newPlan lays out every table with series series per experiment.
func newPlan(series int) *plan {
	p := &plan{}
	for _, r := range noiseRows {
		o := analysis.ChangePointOptions{Observations: r.obs}
		p.noise = append(p.noise, [3]int{
			p.add(experiment{step, r.noise, o, series}),
			p.add(experiment{pure, r.noise, o, series}),
			p.add(experiment{creep, r.noise, o, series}),
		})
	}
	for _, q := range positions {
		p.position = append(p.position, p.add(experiment{q.shape(), base, analysis.ChangePointOptions{}, series}))
	}
	for _, s := range settings {
		p.setting = append(p.setting, [2]int{
			p.add(experiment{step, base, s.options(), series}),
			p.add(experiment{pure, base, s.options(), series}),
		})
	}
	return p
}

// seriesCount is the number of series the plan runs.
func (p *plan) seriesCount() int {
	n := 0
	for _, x := range p.exps {
		n += x.series
	}
	return n
}
