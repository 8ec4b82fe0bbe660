package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rootbench/rootbench/analysis"
)

// replayConfig is what the flags of `gatecheck -replay FILES...` say.
type replayConfig struct {
	files    []string
	sessions int       // synthetic sessions per A/A scenario
	planted  int       // synthetic sessions per planted scenario
	pcts     []float64 // planted slowdowns, percent
	slow     string
	cells    map[string]bool // the cells kept (nil: all)
	cellList string
	budget   time.Duration // 0: each session's recorded budget
	resample string
	block    int
	seed     uint64
	jobs     int
	alpha    float64
	gate     float64 // the gate as a fraction
	gateFlag string
	out      string
	live     string // the live report whose replay section is rewritten
	// variants are other budgets and cell sets to model, each replayed
	// with variantSessions sessions of the scenarios variantPcts.
	variants        []variant
	variantSessions int
	// checkResampling replays A/A and a planted 10% with the other
	// resamplings too (resamplings), to show what the choice changes.
	checkResampling bool
	args            []string
}

// resampling is a way of drawing the synthetic pairs (-resample, -block).
type resampling struct {
	method string
	block  int
}

// resamplings are those the report compares with the chosen one.
var resamplings = []resampling{{resampleBlock, 2}, {resampleBlock, 4}, {resampleBlock, 8}, {resamplePooled, 1}}

func (m resampling) String() string {
	if m.method == resamplePooled {
		return "single pairs pooled over the sessions"
	}
	return fmt.Sprintf("blocks of %d pairs within each session", m.block)
}

// variant is a budget (0: the recorded one) and a cell set (nil: all) to
// model from the recorded sessions.
type variant struct {
	budget   time.Duration
	cells    map[string]bool
	cellList string
}

// name says the variant in the report: "budget 6m0s, cells ocaml,ref".
func (v variant) name() string {
	b, c := "recorded budget", "every cell"
	if v.budget > 0 {
		b = "budget " + v.budget.String()
	}
	if v.cellList != "" {
		c = "cells " + v.cellList
	}
	return b + ", " + c
}

// parseVariant reads BUDGET, BUDGET:CELLS or :CELLS.
func parseVariant(s string) (variant, error) {
	var v variant
	b, cells, _ := strings.Cut(s, ":")
	if b = strings.TrimSpace(b); b != "" {
		d, err := time.ParseDuration(b)
		if err != nil || d <= 0 {
			return v, fmt.Errorf("-variant %q: expected BUDGET, BUDGET:CELLS or :CELLS, e.g. 6m or 3m:ocaml,boxroot,ref", s)
		}
		v.budget = d
	}
	if cells = strings.TrimSpace(cells); cells != "" {
		v.cellList, v.cells = cells, cellSet(cells)
	}
	if v.budget == 0 && v.cells == nil {
		return v, fmt.Errorf("-variant %q: give a budget, a cell set or both, e.g. 6m or 3m:ocaml,boxroot,ref", s)
	}
	return v, nil
}

// cellSet is a comma-separated list of cells as a set.
func cellSet(list string) map[string]bool {
	set := map[string]bool{}
	for _, cell := range strings.Split(list, ",") {
		set[strings.TrimSpace(cell)] = true
	}
	return set
}

// variantPcts are the planted slowdowns a variant is replayed with.
var variantPcts = []float64{5, 10}

// Replay defaults: enough A/A sessions that a false-alarm rate of 1%, per
// session and so per row too, has a 95% Wilson upper bound at most 1.5%
// (about 1,800 are needed); enough planted ones that a detection rate
// near 95% is known within about ±1.5%.
const (
	defaultReplaySessions  = 4000
	defaultPlantedSessions = 1000
	defaultReplayPcts      = "2,5,10,20"
)

// registerReplay registers the flags of replay mode in the flag set the
// live mode shares (-pcts, -slow, -cells, -out, read by finish).
func registerReplay(fs *flag.FlagSet, args []string) *replayConfig {
	c := &replayConfig{args: append([]string{"gatecheck"}, args...)}
	fs.IntVar(&c.sessions, "sessions", defaultReplaySessions, "replay: synthetic A/A sessions")
	fs.IntVar(&c.planted, "planted-sessions", defaultPlantedSessions, "replay: synthetic sessions per planted slowdown")
	fs.DurationVar(&c.budget, "budget", 0, "replay: model sessions with this time budget (default: the recorded one)")
	fs.StringVar(&c.resample, "resample", resampleBlock, "replay: block (moving blocks within each recorded session) or pooled (single pairs from every session)")
	fs.IntVar(&c.block, "block", 4, "replay: pairs per block of the block resampling (1 or even)")
	fs.Uint64Var(&c.seed, "seed", 1, "replay: random seed")
	fs.IntVar(&c.jobs, "jobs", 0, "replay: sessions judged at once (default GOMAXPROCS)")
	fs.Float64Var(&c.alpha, "alpha", analysis.DefaultAlpha, "replay: ab's --alpha")
	fs.StringVar(&c.gateFlag, "gate", "5%", "replay: ab's --fail-on-regression")
	fs.IntVar(&c.variantSessions, "variant-sessions", 1000, "replay: synthetic sessions per scenario of each -variant")
	fs.Func("variant", "replay: also model another budget or cell set: BUDGET, BUDGET:CELLS or :CELLS (repeatable)", func(s string) error {
		v, err := parseVariant(s)
		c.variants = append(c.variants, v)
		return err
	})
	fs.BoolVar(&c.checkResampling, "check-resampling", true, "replay: also replay A/A and a planted 10% with the other resamplings (block 2, 4, 8, pooled)")
	fs.StringVar(&c.live, "live", "results/gate-check.md", "replay: the live report whose replay section is rewritten (\"\" for none)")
	return c
}

// finish checks the replay flags once parsed; the files are the
// arguments left.
func (c *replayConfig) finish(fs *flag.FlagSet) (*replayConfig, error) {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	c.files = fs.Args()
	c.slow = fs.Lookup("slow").Value.String()
	c.out = fs.Lookup("out").Value.String()
	if !set["out"] {
		c.out = "results/gate-replay"
	}
	pcts := defaultReplayPcts
	if set["pcts"] {
		pcts = fs.Lookup("pcts").Value.String()
	}
	for _, p := range strings.Split(pcts, ",") {
		v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(p), "%"), 64)
		if err != nil || !(v > 0 && v <= 1000) {
			return nil, fmt.Errorf("-pcts %q: expected percentages from 0 to 1000, e.g. 2,5,10,20", pcts)
		}
		c.pcts = append(c.pcts, v)
	}
	if set["cells"] {
		c.cellList = fs.Lookup("cells").Value.String()
		c.cells = cellSet(c.cellList)
	}
	for _, v := range append([]variant{{cells: c.cells, cellList: c.cellList}}, c.variants...) {
		if v.cells != nil && !v.cells[c.slow] {
			return nil, fmt.Errorf("-slow %s: not among the cells %s", c.slow, v.cellList)
		}
	}
	var err error
	if c.gate, err = analysis.ParseThreshold(c.gateFlag); err != nil {
		return nil, fmt.Errorf("-gate: %w", err)
	}
	switch {
	case len(c.files) == 0:
		return nil, fmt.Errorf("-replay: name the recorded sessions (ab --export-json files, .json or .json.gz)")
	case c.sessions < 1 || c.planted < 1 || c.variantSessions < 1:
		return nil, fmt.Errorf("-sessions %d, -planted-sessions %d, -variant-sessions %d: need at least 1 each", c.sessions, c.planted, c.variantSessions)
	case c.budget < 0:
		return nil, fmt.Errorf("-budget %v: must be positive (or 0 for the recorded one)", c.budget)
	case c.resample != resampleBlock && c.resample != resamplePooled:
		return nil, fmt.Errorf("-resample %q: accepted: %s, %s", c.resample, resampleBlock, resamplePooled)
	case c.block < 1 || (c.block > 1 && c.block%2 != 0):
		return nil, fmt.Errorf("-block %d: must be 1 or even (whole ABBA blocks)", c.block)
	case analysis.CheckAlpha(c.alpha) != nil:
		return nil, fmt.Errorf("-%w", analysis.CheckAlpha(c.alpha))
	}
	for _, f := range c.files {
		if _, err := os.Stat(f); err != nil {
			return nil, fmt.Errorf("-replay: %w", err)
		}
	}
	return c, nil
}

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
