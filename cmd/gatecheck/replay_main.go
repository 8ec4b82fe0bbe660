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
	sessions int       // synthetic sessions per scenario
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
	args     []string
}

// Replay defaults: enough sessions that a false-alarm rate of 1% per row
// has a 95% Wilson upper bound at most 1.5% (about 1,800 rows are needed).
const (
	defaultReplaySessions = 4000
	defaultReplayPcts     = "2,5,10,20"
)

// registerReplay registers the flags of replay mode in the flag set the
// live mode shares (-pcts, -slow, -cells, -out, read by finish).
func registerReplay(fs *flag.FlagSet, args []string) *replayConfig {
	c := &replayConfig{args: append([]string{"gatecheck"}, args...)}
	fs.IntVar(&c.sessions, "sessions", defaultReplaySessions, "replay: synthetic sessions per scenario")
	fs.DurationVar(&c.budget, "budget", 0, "replay: model sessions with this time budget (default: the recorded one)")
	fs.StringVar(&c.resample, "resample", resampleBlock, "replay: block (moving blocks within each recorded session) or pooled (single pairs from every session)")
	fs.IntVar(&c.block, "block", 4, "replay: pairs per block of the block resampling (1 or even)")
	fs.Uint64Var(&c.seed, "seed", 1, "replay: random seed")
	fs.IntVar(&c.jobs, "jobs", 0, "replay: sessions judged at once (default GOMAXPROCS)")
	fs.Float64Var(&c.alpha, "alpha", 0.05, "replay: ab's --alpha")
	fs.StringVar(&c.gateFlag, "gate", "5%", "replay: ab's --fail-on-regression")
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
		c.cells = map[string]bool{}
		for _, cell := range strings.Split(c.cellList, ",") {
			c.cells[strings.TrimSpace(cell)] = true
		}
		if !c.cells[c.slow] {
			return nil, fmt.Errorf("-slow %s: not among -cells %s", c.slow, c.cellList)
		}
	}
	var err error
	if c.gate, err = analysis.ParseThreshold(c.gateFlag); err != nil {
		return nil, fmt.Errorf("-gate: %w", err)
	}
	switch {
	case len(c.files) == 0:
		return nil, fmt.Errorf("-replay: name the recorded sessions (ab --export-json files, .json or .json.gz)")
	case c.sessions < 1:
		return nil, fmt.Errorf("-sessions %d: need at least 1", c.sessions)
	case c.budget < 0:
		return nil, fmt.Errorf("-budget %v: must be positive (or 0 for the recorded one)", c.budget)
	case c.resample != resampleBlock && c.resample != resamplePooled:
		return nil, fmt.Errorf("-resample %q: accepted: %s, %s", c.resample, resampleBlock, resamplePooled)
	case c.block < 1 || (c.block > 1 && c.block%2 != 0):
		return nil, fmt.Errorf("-block %d: must be 1 or even (whole ABBA blocks)", c.block)
	case !(c.alpha > 0 && c.alpha < 1):
		return nil, fmt.Errorf("-alpha %v: must lie strictly between 0 and 1", c.alpha)
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

// runReplay loads the recorded sessions, replays them and writes the report.
func runReplay(c *replayConfig) error {
	start := time.Now()
	r := &replayer{resample: c.resample, block: c.block, seed: c.seed, slow: c.slow, alpha: c.alpha, threshold: c.gate}
	var inputs []*template
	for _, path := range c.files {
		t, err := loadTemplate(path)
		if err != nil {
			return err
		}
		inputs = append(inputs, t)
		s, err := t.scaled(c.budget, c.cells, r.rule())
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		r.templates = append(r.templates, s)
	}
	r.pools = newPools(r.templates)
	scs := []scenario{{name: "A/A"}, {name: aaRaw, raw: true}}
	for _, p := range c.pcts {
		scs = append(scs, scenario{name: fmt.Sprintf("planted %s%%", strconv.FormatFloat(p, 'g', -1, 64)), pct: p})
	}
	step := max(c.sessions/4, 1)
	results, err := r.run(scs, c.sessions, c.jobs, func(done int) {
		if done%step == 0 {
			fmt.Fprintf(os.Stderr, "gatecheck: replayed %d of %d sessions (%d scenarios each) in %s\n", done, c.sessions, len(scs), time.Since(start).Round(time.Second))
		}
	})
	if err != nil {
		return err
	}
	rep := newReplayReport(c, r, inputs, scs, results, time.Since(start))
	if err := rep.write(c.out, c.live); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "gatecheck: wrote %s.json and %s.md in %s\n", c.out, c.out, time.Since(start).Round(time.Second))
	return nil
}
