package main

// The replay mode: load the recorded sessions, replay them as the flags
// say (the scenarios, the other resamplings, the variants) and write the
// report.

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

// aaRaw names the A/A scenario without centring.
const aaRaw = "A/A, recorded shifts kept"

// runReplay loads the recorded sessions, replays them (and the variants)
// and writes the report.
func runReplay(c *replayConfig) error {
	start := time.Now()
	var inputs []*template
	for _, path := range c.files {
		t, err := loadTemplate(path)
		if err != nil {
			return err
		}
		inputs = append(inputs, t)
	}
	scs := scenarios(c.pcts, true, c.sessions, c.planted)
	r, results, err := c.replay(inputs, variant{budget: c.budget, cells: c.cells, cellList: c.cellList}, scs, start)
	if err != nil {
		return err
	}
	rep := newReplayReport(c, r, inputs, scs, results, 0)
	if c.checkResampling {
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
			vscs := scenarios([]float64{10}, false, c.sessions, c.planted)
			vr, vres, err := alt.replay(inputs, variant{budget: c.budget, cells: c.cells, cellList: c.cellList}, vscs, start)
			if err != nil {
				return err
			}
			rep.Resamplings = append(rep.Resamplings, variantReport("resampling: "+m.String(), vr, vscs, vres))
		}
	}
	for _, v := range c.variants {
		vscs := scenarios(variantPcts, false, c.variantSessions, c.variantSessions)
		vr, vres, err := c.replay(inputs, v, vscs, start)
		if err != nil {
			return err
		}
		rep.Variants = append(rep.Variants, variantReport(v.name(), vr, vscs, vres))
	}
	rep.ElapsedNs = time.Since(start).Nanoseconds()
	if err := rep.write(c.out, c.live); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "gatecheck: wrote %s.json and %s.md in %s\n", c.out, c.out, time.Since(start).Round(time.Second))
	return nil
}

// scenarios are A/A (and, with raw, A/A without centring), aa sessions
// each, and a planted slowdown of each of pcts, planted sessions each.
func scenarios(pcts []float64, raw bool, aa, planted int) []scenario {
	scs := []scenario{{name: "A/A", sessions: aa}}
	if raw {
		scs = append(scs, scenario{name: aaRaw, raw: true, sessions: aa})
	}
	for _, p := range pcts {
		scs = append(scs, scenario{name: fmt.Sprintf("planted %s%%", strconv.FormatFloat(p, 'g', -1, 64)), pct: p, sessions: planted})
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
