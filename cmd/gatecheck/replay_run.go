package main

// The replay mode: load the recorded sessions, group them by condition,
// replay each condition on its metrics as the flags say (the scenarios,
// the other resamplings, the variants, the search for budgets that meet
// the targets) and write the report.

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/rootbench/rootbench/harness"
)

// aaRaw names the A/A scenario without centring.
const aaRaw = "A/A, recorded shifts kept"

// runReplay replays every condition of the recorded sessions and writes
// the report.
func runReplay(c *replayConfig) error {
	start := time.Now()
	groups, err := groupSessions(c.files)
	if err != nil {
		return err
	}
	doc := newReplayDocument(c)
	for _, g := range groups {
		secs, targets, err := c.replayCondition(g, start)
		if err != nil {
			return err
		}
		doc.Sections = append(doc.Sections, secs...)
		doc.Targets = append(doc.Targets, targets...)
	}
	doc.finish(time.Since(start))
	if err := doc.write(c.out, c.live); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "gatecheck: wrote %s.json and %s.md in %s\n", c.out, c.out, time.Since(start).Round(time.Second))
	return nil
}

// replayCondition replays one condition's sessions: one report per metric
// the sessions measured, and the targets of that condition.
func (c *replayConfig) replayCondition(g *sessionGroup, start time.Time) ([]ReplaySection, []TargetResult, error) {
	var files []*harness.ABFile
	for _, path := range g.files {
		f, err := harness.LoadAB(path)
		if err != nil {
			return nil, nil, err
		}
		files = append(files, f)
	}
	var ms []metric
	var skipped []string
	for _, m := range c.metrics {
		all := true
		for _, f := range files {
			all = all && m.measured(f)
		}
		if all {
			ms = append(ms, m)
		} else {
			skipped = append(skipped, m.name)
		}
	}
	if len(ms) == 0 {
		return nil, nil, fmt.Errorf("%s: no metric of -metrics %s was measured by every session", g.cond, metricNames(c.metrics))
	}
	var inputs []*template
	for i, f := range files {
		t, err := newTemplate(g.files[i], f, ms)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", g.files[i], err)
		}
		inputs = append(inputs, t)
	}
	fmt.Fprintf(os.Stderr, "gatecheck: %s: %d sessions, judged on %s\n", g.cond, len(inputs), metricNames(ms))
	scs := scenarios(c.pcts, true, c.sessions, c.planted, len(ms))
	base := variant{budget: c.budget, cells: c.cells, cellList: c.cellList}
	r, results, err := c.replay(inputs, base, scs, start)
	if err != nil {
		return nil, nil, err
	}
	reps := make([]*ReplayReport, len(ms))
	for k := range ms {
		reps[k] = newReplayReport(c, r, inputs, scs, results, k, 0)
	}
	if c.checkResampling {
		if err := c.otherResamplings(inputs, base, reps, start); err != nil {
			return nil, nil, err
		}
	}
	for _, v := range c.variants {
		if _, err := c.variantReports(inputs, v, variantPcts, reps, start); err != nil {
			return nil, nil, err
		}
	}
	targets := conditionTargets(g, ms, reps, c.slow)
	if err := c.searchBudgets(inputs, targets, reps, start); err != nil {
		return nil, nil, err
	}
	secs := make([]ReplaySection, len(ms))
	for k, m := range ms {
		reps[k].ElapsedNs = time.Since(start).Nanoseconds()
		secs[k] = ReplaySection{Condition: g.cond, Noise: g.noise, Describe: g.describe(), Metric: m.name, MetricTitle: m.title,
			JudgedWith: metricNames(ms), NotMeasured: skipped, Log: g.log, Report: reps[k]}
	}
	return secs, targets, nil
}

// otherResamplings replays A/A and a planted 10% with the resamplings the
// flags did not choose, one row each in every metric's report.
func (c *replayConfig) otherResamplings(inputs []*template, base variant, reps []*ReplayReport, start time.Time) error {
	chosen := resampling{c.resample, c.block}
	if c.resample == resamplePooled {
		chosen.block = 1
	}
	for _, m := range resamplings {
		if m == chosen {
			continue
		}
		alt := *c
		alt.resample, alt.block = m.method, m.block
		vscs := scenarios([]float64{10}, false, c.sessions, c.planted, len(reps))
		vr, vres, err := alt.replay(inputs, base, vscs, start)
		if err != nil {
			return err
		}
		for k, rep := range reps {
			rep.Resamplings = append(rep.Resamplings, variantReport("resampling: "+m.String(), vr, vscs, vres, k))
		}
	}
	return nil
}

// variantReports replays the sessions as v models them and returns, and
// adds to every metric's report, its row per metric.
func (c *replayConfig) variantReports(inputs []*template, v variant, pcts []float64, reps []*ReplayReport, start time.Time) ([]VariantReport, error) {
	vscs := scenarios(pcts, false, c.variantSessions, c.variantSessions, len(reps))
	vr, vres, err := c.replay(inputs, v, vscs, start)
	if err != nil {
		return nil, err
	}
	out := make([]VariantReport, len(reps))
	for k, rep := range reps {
		out[k] = variantReport(v.name(), vr, vscs, vres, k)
		rep.Variants = append(rep.Variants, out[k])
	}
	return out, nil
}

// scenarios are A/A (and, with raw, A/A without centring), aa sessions
// each, and a planted slowdown of each of pcts in each of nm metrics,
// planted sessions each.
func scenarios(pcts []float64, raw bool, aa, planted, nm int) []scenario {
	scs := []scenario{{name: "A/A", sessions: aa}}
	if raw {
		scs = append(scs, scenario{name: aaRaw, raw: true, sessions: aa})
	}
	for k := range nm {
		for _, p := range pcts {
			scs = append(scs, scenario{name: fmt.Sprintf("planted %s%%", strconv.FormatFloat(p, 'g', -1, 64)), pct: p, metric: k, sessions: planted})
		}
	}
	return scs
}

// replay makes the synthetic sessions of each scenario from the recorded
// sessions as the variant models them.
func (c *replayConfig) replay(inputs []*template, v variant, scs []scenario, start time.Time) (*replayer, [][]synthetic, error) {
	r := &replayer{resample: c.resample, block: c.block, seed: c.seed, slow: c.slow, alpha: c.alpha, threshold: c.gate}
	for _, t := range inputs {
		s, err := t.scaled(v.budget, v.cells, r.rule())
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", t.name, err)
		}
		r.templates = append(r.templates, s)
	}
	r.pools = newPools(r.templates)
	results, err := r.run(scs, c.jobs, func(done, of int) {
		if done%max(of/4, 1) == 0 {
			fmt.Fprintf(os.Stderr, "gatecheck: %s: replayed %d of %d session numbers (%d scenarios) after %s\n",
				v.name(), done, of, len(scs), time.Since(start).Round(time.Second))
		}
	})
	return r, results, err
}
