// Package compare compares benchmark results the way benchstat does, and
// gates CI on regressions without failing on noise.
//
// A comparison pairs results (one configuration: a cell with its
// parameters) from a base and a head, takes every successful run's workload
// wall time as the sample (report/export's Go-benchmark format carries the
// same figure divided by the run's cell count as sec/op: the same ranks and
// ratios), and summarises each side with golang.org/x/perf/benchmath under
// AssumeNothing: the median with its distribution-free confidence interval,
// and the Mann-Whitney U test between the two sides. Verdicts therefore
// agree with benchstat's on the same samples: Same ("~") where benchstat
// prints "~" (p > alpha) or "0.00%" (equal medians), else Slower or Faster
// by the sign of benchstat's delta.
//
// # Delta interval
//
// Delta is head median / base median − 1, as benchstat prints it. Its
// interval is built from the two medians' own confidence intervals, each
// computed at the Šidák-adjusted level √Confidence, so that both cover their
// medians at once with probability at least Confidence (the samples are
// independent); every ratio consistent with both then lies in
//
//	[head.lo/base.hi − 1, head.hi/base.lo − 1]
//
// This is deliberately conservative (the widest combination of the two
// intervals), which is what a CI gate wants: it needs at least 7 runs per side
// at 95% for a finite interval, and with fewer the interval is infinite, the
// gate cannot fail and a warning says so.
//
// # Gate
//
// With Options.Threshold > 0, a row is a regression only when the change is
// significant (the row's verdict is Slower) AND the whole delta interval lies
// above +Threshold. Noise alone, or a real but small slowdown, never fails.
package compare

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"golang.org/x/perf/benchmath"

	"github.com/rootbench/rootbench/harness"
)

// Default statistical levels, as benchstat uses them.
const (
	DefaultAlpha      = 0.05
	DefaultConfidence = 0.95
)

// Options configures a comparison. The zero value uses the defaults and
// leaves the gate off.
type Options struct {
	// Alpha is the significance level of the Mann-Whitney U test: a change
	// is significant when p <= Alpha (benchstat's rule). 0 means 0.05.
	Alpha float64
	// Confidence is the level of the medians' confidence intervals and of
	// the delta interval. 0 means 0.95.
	Confidence float64
	// Threshold is the regression gate as a fraction (0.05 for 5%); 0
	// turns the gate off.
	Threshold float64
	// BaseName and HeadName name the two sides in reports (file names,
	// say). Empty means "base" and "head" (or the labels, for Cells).
	BaseName, HeadName string
}

// Verdict is the outcome of one row's significance test.
type Verdict string

// The verdicts. Same is benchstat's "~": no significant difference.
const (
	Faster Verdict = "faster"
	Slower Verdict = "slower"
	Same   Verdict = "~"
)

// Summary is one side of a row: the median of the workload wall times, in
// seconds, with its confidence interval (Lo and Hi are ±Inf when there are
// too few runs for one).
type Summary struct {
	Median float64
	Lo, Hi float64
	// Confidence is the interval's actual level (at least the requested one).
	Confidence float64
	// N is the number of successful runs; Failed the number of failed runs
	// left out.
	N      int
	Failed int
}

// Row compares one configuration between base and head.
type Row struct {
	// Label names the configuration (the head's label). BaseLabel is the
	// base's label when it differs (always, for Cells).
	Label     string
	BaseLabel string
	Cell      string
	// Params are the head's effective parameters (file-wide merged with the
	// result's own).
	Params     map[string]string
	Base, Head Summary
	// Delta is Head.Median/Base.Median − 1; DeltaLo and DeltaHi bound it
	// (see the package documentation), ±Inf when there are too few runs.
	Delta, DeltaLo, DeltaHi float64
	// DeltaConfidence is the level the delta interval is built for.
	DeltaConfidence float64
	// P is the Mann-Whitney U test's p-value (benchmath, AssumeNothing).
	P     float64
	Alpha float64
	// Verdict is Same when p > Alpha or the medians are equal, else Faster
	// or Slower by the sign of Delta.
	Verdict Verdict
	// Regression marks a row that fails the gate: Slower and DeltaLo above
	// the threshold.
	Regression bool
	// Warnings about this row (too few samples, mismatched parameters).
	Warnings []string
}

// Geomean closes the table, as benchstat's geomean row: the geometric means
// of the base and head medians, and Delta = the geometric mean of the
// per-row ratios − 1.
type Geomean struct {
	Base, Head float64
	Delta      float64
	// OK is false when a median is not positive and no geomean exists.
	OK bool
}

// Side describes one side of a comparison.
type Side struct {
	Name    string
	Tool    harness.Tool
	Machine harness.Machine
	Params  map[string]string
}

// Comparison is the whole comparison: one row per configuration present on
// both sides, a geomean, and every warning.
type Comparison struct {
	// Mode is "files" (Files) or "cells" (Cells).
	Mode       string
	Base, Head Side
	Workload   string
	Unit       string
	Alpha      float64
	Confidence float64
	// Threshold is the gate (a fraction); 0 when the gate is off.
	Threshold float64
	Rows      []Row
	Geomean   Geomean
	// OnlyBase and OnlyHead list the labels present on one side only.
	OnlyBase, OnlyHead []string
	// Warnings gathers every warning, the rows' included, in order.
	Warnings []string
}

// Regressions returns the rows that fail the gate (none when it is off).
func (c *Comparison) Regressions() []Row {
	var out []Row
	for _, r := range c.Rows {
		if r.Regression {
			out = append(out, r)
		}
	}
	return out
}

// Counts returns how many rows are slower, faster and unchanged.
func (c *Comparison) Counts() (slower, faster, same int) {
	for _, r := range c.Rows {
		switch r.Verdict {
		case Slower:
			slower++
		case Faster:
			faster++
		default:
			same++
		}
	}
	return
}

func (o Options) resolve() (Options, error) {
	if o.Alpha == 0 {
		o.Alpha = DefaultAlpha
	}
	if o.Confidence == 0 {
		o.Confidence = DefaultConfidence
	}
	if !(o.Alpha > 0 && o.Alpha < 1) {
		return o, fmt.Errorf("alpha %v: must lie strictly between 0 and 1 (e.g. 0.05)", o.Alpha)
	}
	if !(o.Confidence > 0 && o.Confidence < 1) {
		return o, fmt.Errorf("confidence %v: must lie strictly between 0 and 1 (e.g. 0.95)", o.Confidence)
	}
	if math.IsNaN(o.Threshold) || math.IsInf(o.Threshold, 0) || o.Threshold < 0 {
		return o, fmt.Errorf("threshold %v: must be a finite fraction >= 0 (0.05 for 5%%; 0 turns the gate off)", o.Threshold)
	}
	return o, nil
}

// Files compares every configuration present in both files, matched by
// label (and, for labels left over, by cell and parameters). Labels present
// in one file only, mismatched parameters, different machines or Go versions
// and too few samples are reported as warnings.
func Files(base, head *harness.File, o Options) (*Comparison, error) {
	if base == nil || head == nil {
		return nil, errors.New("compare: need both a base and a head results file")
	}
	o, err := o.resolve()
	if err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	c := newComparison("files", base, head, o)
	c.Base.Name, c.Head.Name = orDefault(o.BaseName, "base"), orDefault(o.HeadName, "head")

	c.warnFile(base, c.Base.Name)
	c.warnFile(head, c.Head.Name)
	if base.Workload != head.Workload {
		c.warnf("workloads differ: %s is %q, %s is %q", c.Base.Name, base.Workload, c.Head.Name, head.Workload)
	}
	if base.Unit != head.Unit {
		c.warnf("units of work differ: %s counts %q, %s counts %q", c.Base.Name, base.Unit, c.Head.Name, head.Unit)
	}
	c.warnMachines(base, head)

	pairs, onlyBase, onlyHead := matchFiles(base, head)
	for _, p := range pairs {
		c.addRow(p.base, p.head, base, head, o)
	}
	c.OnlyBase, c.OnlyHead = onlyBase, onlyHead
	if len(onlyBase) > 0 {
		c.warnf("only in %s (not compared): %s", c.Base.Name, strings.Join(onlyBase, ", "))
	}
	if len(onlyHead) > 0 {
		c.warnf("only in %s (not compared): %s", c.Head.Name, strings.Join(onlyHead, ", "))
	}
	if len(c.Rows) == 0 && len(pairs) > 0 {
		return nil, fmt.Errorf("compare: nothing could be compared: %s", strings.Join(c.Warnings, "; "))
	}
	if len(c.Rows) == 0 {
		return nil, fmt.Errorf("compare: no benchmark in common: %s has [%s], %s has [%s]",
			c.Base.Name, strings.Join(labels(base), ", "), c.Head.Name, strings.Join(labels(head), ", "))
	}
	c.finish()
	return c, nil
}

// Paths loads two results files with harness.Load (whose errors name the
// file and what is wrong with it) and compares them with Files; the paths
// name the sides unless o names them.
func Paths(basePath, headPath string, o Options) (*Comparison, error) {
	base, err := harness.Load(basePath)
	if err != nil {
		return nil, fmt.Errorf("compare: base: %w", err)
	}
	head, err := harness.Load(headPath)
	if err != nil {
		return nil, fmt.Errorf("compare: head: %w", err)
	}
	o.BaseName = orDefault(o.BaseName, basePath)
	o.HeadName = orDefault(o.HeadName, headPath)
	return Files(base, head, o)
}

// Cells compares two configurations within one file; a is the base. a and b
// are labels, or cell names: two cell names with several results each (a
// parameter scan) give one row per parameter combination both share. The
// error for an unknown name lists the labels and cells available.
func Cells(f *harness.File, a, b string, o Options) (*Comparison, error) {
	if f == nil {
		return nil, errors.New("compare: no results file")
	}
	o, err := o.resolve()
	if err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	if a == b {
		return nil, fmt.Errorf("compare --cells: %q twice: name two different labels or cells, BASE,NEW", a)
	}
	as, err := resolve(f, a)
	if err != nil {
		return nil, err
	}
	bs, err := resolve(f, b)
	if err != nil {
		return nil, err
	}
	c := newComparison("cells", f, f, o)
	c.Base.Name, c.Head.Name = orDefault(o.BaseName, a), orDefault(o.HeadName, b)
	c.warnFile(f, "the file")

	if len(as) == 1 && len(bs) == 1 {
		c.addRow(as[0], bs[0], f, f, o)
	} else {
		byKey := map[string]*harness.Result{}
		for _, r := range bs {
			byKey[paramKey(f, r)] = r
		}
		used := map[string]bool{}
		var unpaired []string
		for _, r := range as {
			k := paramKey(f, r)
			if h, ok := byKey[k]; ok && !used[k] {
				used[k] = true
				c.addRow(r, h, f, f, o)
			} else {
				unpaired = append(unpaired, r.Label)
			}
		}
		for _, r := range bs {
			if !used[paramKey(f, r)] {
				unpaired = append(unpaired, r.Label)
			}
		}
		if len(unpaired) > 0 {
			c.warnf("no counterpart with the same parameters (not compared): %s", strings.Join(unpaired, ", "))
		}
	}
	if len(c.Rows) == 0 {
		return nil, fmt.Errorf("compare --cells %s,%s: no results of %q and %q share their parameters; labels available: %s",
			a, b, a, b, strings.Join(labels(f), ", "))
	}
	c.finish()
	return c, nil
}

func newComparison(mode string, base, head *harness.File, o Options) *Comparison {
	return &Comparison{
		Mode:       mode,
		Base:       Side{Tool: base.Tool, Machine: base.Machine, Params: base.Params},
		Head:       Side{Tool: head.Tool, Machine: head.Machine, Params: head.Params},
		Workload:   head.Workload,
		Unit:       head.Unit,
		Alpha:      o.Alpha,
		Confidence: o.Confidence,
		Threshold:  o.Threshold,
	}
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func (c *Comparison) warnf(format string, args ...any) {
	c.Warnings = append(c.Warnings, fmt.Sprintf(format, args...))
}

func (c *Comparison) warnFile(f *harness.File, name string) {
	if f.Partial {
		c.warnf("%s is partial (written before its run finished)", name)
	}
}

// warnMachines reports every machine property that differs between the two
// files: timings from different machines are not comparable.
func (c *Comparison) warnMachines(base, head *harness.File) {
	bm, hm := base.Machine, head.Machine
	diff := func(what string, b, h any) {
		if b != h {
			c.warnf("machines differ: %s %v in %s, %v in %s", what, b, c.Base.Name, h, c.Head.Name)
		}
	}
	diff("CPU model", quoteEmpty(bm.CPUModel), quoteEmpty(hm.CPUModel))
	diff("logical CPUs", bm.LogicalCPUs, hm.LogicalCPUs)
	diff("GOMAXPROCS", bm.GOMAXPROCS, hm.GOMAXPROCS)
	diff("OS/arch", bm.OS+"/"+bm.Arch, hm.OS+"/"+hm.Arch)
	diff("Go version", quoteEmpty(base.Tool.GoVersion), quoteEmpty(head.Tool.GoVersion))
}

func quoteEmpty(s string) string {
	if s == "" {
		return "(unknown)"
	}
	return s
}

type pair struct{ base, head *harness.Result }

// matchFiles pairs results by label, then pairs what is left by cell and
// parameters (a file that scanned a parameter labels "boxroot batch-size=16"
// what another labels "boxroot"). Pairs follow the base's order.
func matchFiles(base, head *harness.File) (pairs []pair, onlyBase, onlyHead []string) {
	headBy := map[string]*harness.Result{}
	for i := range head.Results {
		headBy[head.Results[i].Label] = &head.Results[i]
	}
	matched := map[*harness.Result]bool{}
	var leftBase []*harness.Result
	for i := range base.Results {
		b := &base.Results[i]
		if h, ok := headBy[b.Label]; ok && !matched[h] {
			matched[h] = true
			pairs = append(pairs, pair{b, h})
		} else {
			leftBase = append(leftBase, b)
		}
	}
	// Second pass: by cell and parameters, only where the key is unique on
	// both sides among the leftovers.
	headKeys := map[string][]*harness.Result{}
	for i := range head.Results {
		h := &head.Results[i]
		if !matched[h] {
			k := h.Cell + "\x01" + paramKey(head, h)
			headKeys[k] = append(headKeys[k], h)
		}
	}
	baseKeys := map[string]int{}
	for _, b := range leftBase {
		baseKeys[b.Cell+"\x01"+paramKey(base, b)]++
	}
	for _, b := range leftBase {
		k := b.Cell + "\x01" + paramKey(base, b)
		if hs := headKeys[k]; len(hs) == 1 && baseKeys[k] == 1 {
			matched[hs[0]] = true
			pairs = append(pairs, pair{b, hs[0]})
			continue
		}
		onlyBase = append(onlyBase, b.Label)
	}
	for i := range head.Results {
		if !matched[&head.Results[i]] {
			onlyHead = append(onlyHead, head.Results[i].Label)
		}
	}
	// Keep the base's order for pairs added in the second pass.
	order := map[*harness.Result]int{}
	for i := range base.Results {
		order[&base.Results[i]] = i
	}
	slices.SortStableFunc(pairs, func(x, y pair) int { return order[x.base] - order[y.base] })
	return pairs, onlyBase, onlyHead
}

// effective merges the file-wide parameters with the result's own.
func effective(f *harness.File, r *harness.Result) map[string]string {
	m := make(map[string]string, len(f.Params)+len(r.Params))
	maps.Copy(m, f.Params)
	maps.Copy(m, r.Params)
	return m
}

// paramKey identifies a configuration's parameters, leaving out a "cell"
// parameter: Cells pairs results of two cells by it, and matchFiles prefixes
// the cell itself.
func paramKey(f *harness.File, r *harness.Result) string {
	m := effective(f, r)
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if strings.EqualFold(k, "cell") {
			continue
		}
		fmt.Fprintf(&b, "%s=%s\x00", k, m[k])
	}
	return b.String()
}

func labels(f *harness.File) []string {
	out := make([]string, len(f.Results))
	for i, r := range f.Results {
		out[i] = r.Label
	}
	return out
}

// resolve finds the results a --cells name denotes: the result with that
// label, or else every result of that cell.
func resolve(f *harness.File, name string) ([]*harness.Result, error) {
	for i := range f.Results {
		if f.Results[i].Label == name {
			return []*harness.Result{&f.Results[i]}, nil
		}
	}
	var out []*harness.Result
	for i := range f.Results {
		if f.Results[i].Cell == name {
			out = append(out, &f.Results[i])
		}
	}
	if len(out) == 0 {
		var cells []string
		for _, r := range f.Results {
			if !slices.Contains(cells, r.Cell) {
				cells = append(cells, r.Cell)
			}
		}
		return nil, fmt.Errorf("compare --cells: no label or cell %q in the file; labels available: %s (cells: %s)",
			name, strings.Join(labels(f), ", "), strings.Join(cells, ", "))
	}
	return out, nil
}

func failed(r *harness.Result) int {
	n := 0
	for _, run := range r.Runs {
		if run.Failed {
			n++
		}
	}
	return n
}

// addRow compares one pair and appends the row, or a warning when a side
// has no successful run.
func (c *Comparison) addRow(b, h *harness.Result, bf, hf *harness.File, o Options) {
	label := h.Label
	bs, hs := b.WallSeconds(), h.WallSeconds()
	if len(bs) == 0 || len(hs) == 0 {
		var sides []string
		if len(bs) == 0 {
			sides = append(sides, c.Base.Name)
		}
		if len(hs) == 0 {
			sides = append(sides, c.Head.Name)
		}
		c.warnf("%s: no successful run in %s (not compared)", label, strings.Join(sides, " and "))
		return
	}
	row := compareSamples(bs, hs, o)
	row.Label, row.Cell = label, h.Cell
	if b.Label != h.Label {
		row.BaseLabel = b.Label
	}
	row.Base.Failed, row.Head.Failed = failed(b), failed(h)
	bp, hp := effective(bf, b), effective(hf, h)
	row.Params = hp
	if c.Mode == "files" {
		if d := paramDiff(bp, hp); d != "" {
			row.Warnings = append(row.Warnings, "parameters differ: "+d)
		}
	}
	if n := row.Base.Failed + row.Head.Failed; n > 0 {
		row.Warnings = append(row.Warnings, fmt.Sprintf("%d failed run(s) left out (%d in %s, %d in %s)",
			n, row.Base.Failed, c.Base.Name, row.Head.Failed, c.Head.Name))
	}
	for _, w := range row.Warnings {
		c.warnf("%s: %s", label, w)
	}
	c.Rows = append(c.Rows, row)
}

// paramDiff describes the parameters whose values differ, "" when none do.
func paramDiff(b, h map[string]string) string {
	keys := map[string]bool{}
	for k := range b {
		keys[k] = true
	}
	for k := range h {
		keys[k] = true
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		bv, bok := b[k]
		hv, hok := h[k]
		if bok && hok && bv == hv {
			continue
		}
		if !bok {
			bv = "(unset)"
		}
		if !hok {
			hv = "(unset)"
		}
		parts = append(parts, fmt.Sprintf("%s %s → %s", k, bv, hv))
	}
	return strings.Join(parts, ", ")
}

// compareSamples computes a row from two samples (seconds), exactly as
// benchstat summarises and compares them, plus the delta interval and the
// gate. It does not modify its arguments.
func compareSamples(base, head []float64, o Options) Row {
	th := &benchmath.Thresholds{CompareAlpha: o.Alpha}
	bs := benchmath.NewSample(slices.Clone(base), th)
	hs := benchmath.NewSample(slices.Clone(head), th)
	a := benchmath.AssumeNothing
	bsum, hsum := a.Summary(bs, o.Confidence), a.Summary(hs, o.Confidence)
	cmp := a.Compare(bs, hs)

	row := Row{
		Base:  Summary{Median: bsum.Center, Lo: bsum.Lo, Hi: bsum.Hi, Confidence: bsum.Confidence, N: len(base)},
		Head:  Summary{Median: hsum.Center, Lo: hsum.Lo, Hi: hsum.Hi, Confidence: hsum.Confidence, N: len(head)},
		P:     cmp.P,
		Alpha: cmp.Alpha,
	}
	row.Delta = ratio(hsum.Center, bsum.Center) - 1

	// The delta interval: each median's CI at √Confidence, combined at
	// their extremes (see the package documentation).
	dc := math.Sqrt(o.Confidence)
	bd, hd := a.Summary(bs, dc), a.Summary(hs, dc)
	row.DeltaConfidence = o.Confidence
	row.DeltaLo = ratio(hd.Lo, bd.Hi) - 1
	row.DeltaHi = ratio(hd.Hi, bd.Lo) - 1
	if math.IsNaN(row.DeltaLo) || math.IsInf(bd.Hi, 0) || math.IsInf(hd.Lo, 0) {
		row.DeltaLo = math.Inf(-1)
	}
	if math.IsNaN(row.DeltaHi) || math.IsInf(bd.Lo, 0) || math.IsInf(hd.Hi, 0) {
		row.DeltaHi = math.Inf(1)
	}

	// The verdict follows benchmath's Comparison.FormatDelta, which is what
	// benchstat prints: "~" when p > alpha, and no direction when the
	// medians are equal.
	switch {
	case cmp.P > cmp.Alpha || hsum.Center == bsum.Center:
		row.Verdict = Same
	case hsum.Center > bsum.Center:
		row.Verdict = Slower
	default:
		row.Verdict = Faster
	}
	row.Regression = o.Threshold > 0 && row.Verdict == Slower && row.DeltaLo > o.Threshold

	// benchmath's own warnings (too few samples for an interval or for the
	// test to ever reject), then ours about the delta interval.
	for _, w := range bsum.Warnings {
		row.Warnings = append(row.Warnings, fmt.Sprintf("base: %v (have %d)", w, len(base)))
	}
	for _, w := range hsum.Warnings {
		row.Warnings = append(row.Warnings, fmt.Sprintf("head: %v (have %d)", w, len(head)))
	}
	for _, w := range cmp.Warnings {
		row.Warnings = append(row.Warnings, fmt.Sprint(w))
	}
	if len(bsum.Warnings) == 0 && len(hsum.Warnings) == 0 && (math.IsInf(row.DeltaLo, 0) || math.IsInf(row.DeltaHi, 0)) {
		row.Warnings = append(row.Warnings, fmt.Sprintf("too few runs for a finite delta interval at %v (have %d+%d, need >= %d per side): the gate cannot fail this row",
			o.Confidence, len(base), len(head), minRuns(dc)))
	}
	return row
}

// minRuns is the smallest sample size whose widest median interval (its
// minimum to its maximum, of confidence 1 − 2·0.5ⁿ) reaches confidence.
func minRuns(confidence float64) int {
	n := 2
	for 1-2*math.Pow(0.5, float64(n)) < confidence && n < 1000 {
		n++
	}
	return n
}

// ratio is a/b, with 0/0 = 1 as benchstat treats it.
func ratio(a, b float64) float64 {
	if a == b {
		return 1
	}
	return a / b
}

// finish computes the geomean row, as benchstat's: the geomean of each
// side's medians and the geomean of the per-row ratios.
func (c *Comparison) finish() {
	var lb, lh, lr float64
	ok := true
	for _, r := range c.Rows {
		if !(r.Base.Median > 0 && r.Head.Median > 0) {
			ok = false
			break
		}
		lb += math.Log(r.Base.Median)
		lh += math.Log(r.Head.Median)
		lr += math.Log(ratio(r.Head.Median, r.Base.Median))
	}
	n := float64(len(c.Rows))
	if !ok || n == 0 {
		c.warnf("no geomean: every median must be positive")
		return
	}
	c.Geomean = Geomean{Base: math.Exp(lb / n), Head: math.Exp(lh / n), Delta: math.Exp(lr/n) - 1, OK: true}
}
