package main

// The command's flags: those of the live check and of the recording
// (-record), and those of the replay (-replay), which share -pcts, -slow,
// -cells and -out.

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rootbench/rootbench/analysis"
)

// config is what the flags of the live check and of the recording say.
type config struct {
	rootbench string     // the tagged rootbench binary, both sides
	aa        int        // A/A trials
	planted   int        // trials per planted slowdown
	cells     string     // the --cell list of every session
	slow      string     // the cell slowed on the head side
	pcts      []planting // planted slowdowns
	out       string     // OUT.json and OUT.md
	abFlags   []string   // extra ab flags
	args      []string   // the command line, recorded
	// conditions are the live check's, checked in turn (-noise 0,4), or
	// the one a recording is made under.
	conditions []condition
	// record is set by -record: the recording's configuration.
	record *recordConfig
	// replayReport is the replay's OUT.json, whose figures the live
	// report sets beside its own.
	replayReport string
}

// parseFlags reads the flags of the live mode or of the recording
// (-record, config.record), or of the replay mode (-replay) whose
// configuration it then returns instead.
func parseFlags(args []string) (*config, *replayConfig, error) {
	fs := flag.NewFlagSet("gatecheck", flag.ContinueOnError)
	c := &config{args: append([]string{"gatecheck"}, args...)}
	pcts := fs.String("pcts", "5,10", "planted slowdowns in percent, comma-separated: PCT% in wall time, PCT%cpu in CPU time (as ROOTBENCH_SLOW spells them)")
	noise := fs.String("noise", "0", "CPU-bound noise processes running during the sessions: one count per condition, comma-separated (0: quiet; -record: one count)")
	recording := fs.Bool("record", false, "record A/A sessions for the replay into -dir/CONDITION/ (quiet or noiseN), each at ab's defaults with the gate "+recordGate)
	count := fs.Int("count", 8, "record: sessions to record")
	dir := fs.String("dir", "results/sessions", "record: the sessions directory (each condition's sessions and record log in a directory of its own)")
	fs.StringVar(&c.rootbench, "rootbench", "bin/rootbench-faulty", "rootbench built with -tags rootbench_faulty")
	fs.IntVar(&c.aa, "aa", 25, "A/A trials")
	fs.IntVar(&c.planted, "planted", 25, "trials per planted slowdown")
	fs.StringVar(&c.cells, "cells", "ocaml,boxroot,ref,cgo-handle", "cells of every session")
	fs.StringVar(&c.slow, "slow", "boxroot", "the cell slowed on the head side")
	fs.StringVar(&c.out, "out", "results/gate-check", "write OUT.json and OUT.md (replay: default results/gate-replay)")
	fs.StringVar(&c.replayReport, "replay-report", "results/gate-replay.json", "the replay's report, whose rates the live report sets beside its own (\"\" for none)")
	replay := fs.Bool("replay", false, "replay recorded ab sessions (the arguments: their --export-json files) instead of running sessions")
	rc := registerReplay(fs, args)
	// A bad flag is one line (main prints the error); -h prints the flags.
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(os.Stderr)
			fs.PrintDefaults()
		}
		return nil, nil, err
	}
	if *replay {
		rc, err := rc.finish(fs)
		return nil, rc, err
	}
	c.abFlags = fs.Args()
	for _, n := range strings.Split(*noise, ",") {
		v, err := parseNoise(n)
		if err != nil {
			return nil, nil, err
		}
		if slices.Contains(c.conditions, condition{noise: v}) {
			return nil, nil, fmt.Errorf("-noise %q: condition %s twice", *noise, condition{noise: v}.name())
		}
		c.conditions = append(c.conditions, condition{noise: v})
	}
	if _, err := os.Stat(c.rootbench); err != nil {
		return nil, nil, fmt.Errorf("-rootbench: %w (build it with: go build -tags rootbench_faulty -o %s ./cmd/rootbench)", err, c.rootbench)
	}
	if *recording {
		if len(c.conditions) != 1 || *count < 1 {
			return nil, nil, fmt.Errorf("-record -noise %s -count %d: record under one condition (one count of noise processes), at least one session", *noise, *count)
		}
		c.record = &recordConfig{rootbench: c.rootbench, cells: c.cells, cond: c.conditions[0], count: *count, dir: *dir, abFlags: c.abFlags}
		return c, nil, nil
	}
	for _, p := range strings.Split(*pcts, ",") {
		num, cpu := strings.CutSuffix(strings.TrimSpace(p), cpuSuffix)
		num = strings.TrimSuffix(num, "%")
		if v, err := strconv.ParseFloat(num, 64); err != nil || !(v > 0 && v <= 1000) || strings.ContainsAny(num, "%") {
			return nil, nil, fmt.Errorf("-pcts %q: expected percentages from 0 to 1000, PCT%% planted in wall time, PCT%%cpu in CPU time, e.g. 5%%,10%%cpu", *pcts)
		}
		c.pcts = append(c.pcts, planting{pct: num, cpu: cpu})
	}
	switch {
	case c.aa < 0 || c.planted < 0 || c.aa+c.planted == 0:
		return nil, nil, fmt.Errorf("-aa %d -planted %d: need at least one trial, and no negative count", c.aa, c.planted)
	case !strings.Contains(","+c.cells+",", ","+c.slow+","):
		return nil, nil, fmt.Errorf("-slow %s: not among -cells %s", c.slow, c.cells)
	}
	return c, nil, nil
}

// cpuSuffix marks a slowdown planted in CPU time, as ROOTBENCH_SLOW
// spells it (impls.SlowEnv): 10%cpu.
const cpuSuffix = "%cpu"

// planting is a planted slowdown: pct percent, in CPU time or wall time.
type planting struct {
	pct string
	cpu bool
}

// kind is one kind of trial: A/A (pct "") or a planted slowdown in a
// metric.
type kind struct {
	name   string // "A/A", "planted 5%" or "planted 5% in CPU time"
	pct    string
	metric string // the metric planted in
	n      int
}

// slowValue is the kind's slowdown as ROOTBENCH_SLOW spells it: 5% or
// 5%cpu.
func (k kind) slowValue() string {
	if k.metric == cpuMetric.name {
		return k.pct + cpuSuffix
	}
	return k.pct + "%"
}

func (c *config) kinds() []kind {
	ks := []kind{{name: "A/A", n: c.aa}}
	for _, p := range c.pcts {
		k := kind{name: "planted " + p.pct + "%", pct: p.pct, metric: wallMetric.name, n: c.planted}
		if p.cpu {
			k.name += " in " + cpuMetric.title
			k.metric = cpuMetric.name
		}
		ks = append(ks, k)
	}
	return ks
}

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
	// metrics are judged together in every synthetic session, those the
	// sessions of a condition measured.
	metrics []metric
	// search are the budgets modelled, shortest first, to find one that
	// meets each target a condition misses (none: no search).
	search []time.Duration
	args   []string
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

// defaultSearch are the budgets the search for one that meets a missed
// target models by default.
const defaultSearch = "4m30s,6m,9m,12m,18m,24m,30m"

// parseSearch reads -search: budgets, comma-separated, each longer than
// the one before; "none" for no search.
func parseSearch(s string) ([]time.Duration, error) {
	if strings.TrimSpace(s) == "none" {
		return nil, nil
	}
	var out []time.Duration
	for b := range strings.SplitSeq(s, ",") {
		d, err := time.ParseDuration(strings.TrimSpace(b))
		if err != nil || d <= 0 || (len(out) > 0 && d <= out[len(out)-1]) {
			return nil, fmt.Errorf("-search %q: budgets, shortest first, e.g. %s, or none", s, defaultSearch)
		}
		out = append(out, d)
	}
	return out, nil
}

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
	fs.Func("metrics", "replay: the metrics judged together in each synthetic session, as ab --metric: wall, cpu or wall,cpu (default wall,cpu: those the sessions measured)", func(s string) error {
		ms, err := parseMetrics(s)
		c.metrics = ms
		return err
	})
	fs.Func("search", "replay: the budgets modelled, shortest first, to find one that meets each target a condition misses, comma-separated (\"none\": no search; default "+defaultSearch+")", func(s string) error {
		ds, err := parseSearch(s)
		c.search = ds
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
	if !set["metrics"] {
		c.metrics = allMetrics
	}
	if !set["search"] {
		c.search, _ = parseSearch(defaultSearch) // a valid default
	}
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
