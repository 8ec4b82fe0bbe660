package analysis

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"

	"golang.org/x/perf/benchmath"

	"github.com/rootbench/rootbench/harness"
)

// Default statistical levels.
const (
	// DefaultAlpha is the error rate across a comparison's rows (HL with
	// Holm), or per row (benchstat).
	DefaultAlpha = 0.05
	// DefaultConfidence is the level of each side's median interval, as
	// benchstat shows it.
	DefaultConfidence = 0.95
)

// Method names how a row's delta, interval and verdict are computed.
type Method string

// The methods.
const (
	// MethodHL is the default: the Hodges-Lehmann shift of log times with
	// the Mann-Whitney (Moses) interval; significant exactly when the
	// interval excludes zero (see the package documentation).
	MethodHL Method = "hl"
	// MethodBenchstat reproduces benchstat: medians with their intervals,
	// the U test's p-value, no correction across rows.
	MethodBenchstat Method = "benchstat"
)

// ParseMethod parses a --method value: hl (or hodges-lehmann, or empty)
// or benchstat, case-insensitively.
func ParseMethod(s string) (Method, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "hl", "hodges-lehmann":
		return MethodHL, nil
	case "benchstat":
		return MethodBenchstat, nil
	}
	return "", fmt.Errorf("unknown method %q: accepted values are hl (Hodges-Lehmann, the default) and benchstat", s)
}

// Correction names how the error rate is controlled across rows.
type Correction string

// The corrections.
const (
	// CorrectionHolm controls the family-wise error rate across rows
	// (Holm's step-down): the default of MethodHL.
	CorrectionHolm Correction = "holm"
	// CorrectionNone tests every row at Alpha (benchstat's practice).
	CorrectionNone Correction = "none"
)

// Options configures a comparison. The zero value is MethodHL with Holm at
// alpha 0.05 and the gate off.
type Options struct {
	// Method is MethodHL ("") or MethodBenchstat.
	Method Method
	// Alpha is the error rate: across the rows for MethodHL with Holm, per
	// row otherwise. 0 means DefaultAlpha.
	Alpha float64
	// Correction is CorrectionHolm ("") or CorrectionNone for MethodHL;
	// MethodBenchstat always uses CorrectionNone.
	Correction Correction
	// Threshold is the regression gate as a fraction (0.05 for 5%); 0
	// turns the gate off.
	Threshold float64
	// BaseName and HeadName name the two sides in reports (file names,
	// say). Empty means "base" and "head" (or the labels, for CompareCells).
	BaseName, HeadName string
	// Paired (MethodHL, CompareFiles) declares that the runs of a
	// configuration on the two sides were made in pairs, back to back, as
	// ab makes them (harness.Run.Pair numbers them; files without numbers
	// pair the i-th runs): each row then compares the pairs' log ratios
	// (the one-sample Hodges-Lehmann estimate with the Wilcoxon
	// signed-rank interval), so that drift common to a pair cancels. See
	// "Paired comparisons" in the package documentation.
	Paired bool
}

// Verdict is the outcome of one row's significance test.
type Verdict string

// The verdicts. Same is benchstat's "~": no significant difference.
const (
	Faster Verdict = "faster"
	Slower Verdict = "slower"
	Same   Verdict = "~"
)

// Outcome is the gate's answer for a row or a whole comparison.
type Outcome string

// The outcomes.
const (
	// GateOff: no threshold was given.
	GateOff Outcome = "off"
	// Pass: the delta interval lies wholly below +Threshold.
	Pass Outcome = "pass"
	// Regression: the change is significant and its estimate is beyond
	// +Threshold.
	Regression Outcome = "regression"
	// Inconclusive: neither; more runs would decide (Row.MoreRuns).
	Inconclusive Outcome = "inconclusive"
)

// ExitCode is the process exit status for the outcome: 0 for Pass and
// GateOff, 1 for Regression, 3 for Inconclusive.
func (o Outcome) ExitCode() int {
	switch o {
	case Regression:
		return 1
	case Inconclusive:
		return 3
	}
	return 0
}

// Summary is one side of a row: the median of its samples (seconds, or
// seconds per unit of work when Row.Basis says so) with benchmath's
// distribution-free confidence interval (Lo and Hi are ±Inf when there are
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
	// base's label when it differs (always, for CompareCells).
	Label     string
	BaseLabel string
	Cell      string
	// Params are the head's effective parameters (file-wide merged with the
	// result's own).
	Params map[string]string
	// Basis is "time" when both sides do the same work per run, else "per
	// cell" or "per call": the samples are then times per unit of work.
	Basis      string
	Base, Head Summary
	// Delta is the estimated change, head over base − 1: the Hodges-Lehmann
	// shift of log times (MethodHL) or the ratio of medians (benchstat).
	// DeltaLo and DeltaHi bound it at Level; ±Inf with too few runs.
	Delta, DeltaLo, DeltaHi float64
	// Level is the delta interval's confidence level: 1 − the level the row
	// was tested at (after the correction) for MethodHL; benchstat's 0.95.
	Level float64
	// P is the row's p-value (Mann-Whitney); PAdjusted is P after the
	// correction (equal to P without one). For MethodHL the row is
	// significant exactly when PAdjusted <= Alpha, exactly when the interval
	// excludes zero.
	P, PAdjusted float64
	// Alpha is the comparison's error rate.
	Alpha float64
	// Verdict is Same when the change is not significant, else Faster or
	// Slower by the sign of Delta.
	Verdict Verdict
	// Gate is the row's outcome under the threshold (GateOff without one).
	Gate Outcome
	// MoreRuns is, for an Inconclusive row, about how many more runs per
	// side would decide it (interval width taken as shrinking with
	// 1/sqrt(n)); 0 when unknown, not needed, or beyond maxMoreRuns (an
	// estimate about the size of the threshold, which no practical number
	// of runs settles).
	MoreRuns int
	// Warnings about this row (too few samples, mismatched parameters).
	Warnings []string

	// Pairs is the number of paired runs compared (Options.Paired); 0 for
	// an unpaired row.
	Pairs int

	mult    float64   // the correction's multiplier of the row's tested level
	minRuns int       // MethodHL: sh.minRuns at the row's tested level
	sh      shiftTest // MethodHL's comparison, until the correction is done
}

// shiftTest is a rank comparison of log times whose interval and test
// agree by construction: shift (two samples) or pairedShift (pairs).
type shiftTest interface {
	estimate() float64
	pValue() float64
	interval(mult, alpha float64) (lo, hi float64)
	// minRuns is the fewest runs (per side, or pairs) giving a finite
	// interval at alpha/mult.
	minRuns(mult, alpha float64) int
}

// Geomean closes the table, as benchstat's geomean row: the geometric means
// of the base and head medians, and Delta = the geometric mean of the rows'
// ratios − 1 (the rows' estimates for MethodHL, the ratios of medians for
// benchstat).
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
	// Mode is "files" (CompareFiles) or "cells" (CompareCells).
	Mode       string
	Method     Method
	Correction Correction
	// Paired is true when the rows compare paired runs (Options.Paired).
	Paired     bool
	Base, Head Side
	Workload   string
	Unit       string
	Alpha      float64
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
func (c *Comparison) Regressions() []Row { return c.rowsWith(Regression) }

// Undecided returns the Inconclusive rows (none when the gate is off).
func (c *Comparison) Undecided() []Row { return c.rowsWith(Inconclusive) }

func (c *Comparison) rowsWith(o Outcome) []Row {
	var out []Row
	for _, r := range c.Rows {
		if r.Gate == o {
			out = append(out, r)
		}
	}
	return out
}

// Decided reports whether no row is Inconclusive (true when the gate is
// off): `ab` samples until it is.
func (c *Comparison) Decided() bool { return len(c.Undecided()) == 0 }

// Outcome is the whole comparison's gate result: Regression when a row
// regressed, else Inconclusive when a row is, else Pass; GateOff when no
// threshold was given.
func (c *Comparison) Outcome() Outcome {
	switch {
	case c.Threshold <= 0:
		return GateOff
	case len(c.Regressions()) > 0:
		return Regression
	case len(c.Undecided()) > 0:
		return Inconclusive
	}
	return Pass
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
	if o.Method == "" {
		o.Method = MethodHL
	}
	if o.Method != MethodHL && o.Method != MethodBenchstat {
		return o, fmt.Errorf("method %q: accepted values are hl and benchstat", o.Method)
	}
	switch {
	case o.Method == MethodBenchstat:
		o.Correction = CorrectionNone
	case o.Correction == "":
		o.Correction = CorrectionHolm
	case o.Correction != CorrectionHolm && o.Correction != CorrectionNone:
		return o, fmt.Errorf("correction %q: accepted values are holm and none", o.Correction)
	}
	if o.Paired && o.Method != MethodHL {
		return o, fmt.Errorf("paired comparison: needs the default method (hl), not %s", o.Method)
	}
	if !(o.Alpha > 0 && o.Alpha < 1) {
		return o, fmt.Errorf("alpha %v: must lie strictly between 0 and 1 (e.g. 0.05)", o.Alpha)
	}
	if math.IsNaN(o.Threshold) || math.IsInf(o.Threshold, 0) || o.Threshold < 0 {
		return o, fmt.Errorf("threshold %v: must be a finite fraction >= 0 (0.05 for 5%%; 0 turns the gate off)", o.Threshold)
	}
	return o, nil
}

// CompareFiles compares every configuration present in both files, matched by
// label (and, for labels left over, by cell and parameters). Labels present
// in one file only, mismatched parameters, different machines or Go versions
// and too few samples are reported as warnings.
func CompareFiles(base, head *harness.File, o Options) (*Comparison, error) {
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
	c.finish(o)
	return c, nil
}

// ComparePaths loads two results files, or two files of Go benchmark text,
// with harness.LoadAny (whose errors name the file and what is wrong with it)
// and compares them with CompareFiles; the paths name the sides unless o
// names them.
func ComparePaths(basePath, headPath string, o Options) (*Comparison, error) {
	base, err := harness.LoadAny(basePath)
	if err != nil {
		return nil, fmt.Errorf("compare: base: %w", err)
	}
	head, err := harness.LoadAny(headPath)
	if err != nil {
		return nil, fmt.Errorf("compare: head: %w", err)
	}
	o.BaseName = orDefault(o.BaseName, basePath)
	o.HeadName = orDefault(o.HeadName, headPath)
	return CompareFiles(base, head, o)
}

// CompareCells compares two configurations within one file; a is the base. a and b
// are labels, or cell names: two cell names with several results each (a
// parameter scan) give one row per parameter combination both share. The
// error for an unknown name lists the labels and cells available.
func CompareCells(f *harness.File, a, b string, o Options) (*Comparison, error) {
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
	c.finish(o)
	return c, nil
}

func newComparison(mode string, base, head *harness.File, o Options) *Comparison {
	return &Comparison{
		Mode:       mode,
		Base:       Side{Tool: base.Tool, Machine: base.Machine, Params: base.Params},
		Head:       Side{Tool: head.Tool, Machine: head.Machine, Params: head.Params},
		Workload:   head.Workload,
		Unit:       head.Unit,
		Method:     o.Method,
		Correction: o.Correction,
		Paired:     o.Paired,
		Alpha:      o.Alpha,
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

// pairedSamples returns the pairs of successful runs of b and h made back
// to back: the runs with the same Pair number (ExecuteAB numbers them), or,
// in files without Pair numbers, the i-th run of each side. A pair with a
// failed run is left out. The samples are workload wall times in seconds,
// or times per unit of work when perUnit is set (runs that did no work are
// left out).
func pairedSamples(b, h *harness.Result, perUnit bool) (xs, ys []float64) {
	value := func(run harness.Run) (float64, bool) {
		if run.Failed {
			return 0, false
		}
		if perUnit {
			if run.Cells <= 0 {
				return 0, false
			}
			return float64(run.WallNs) / float64(run.Cells) / 1e9, true
		}
		return float64(run.WallNs) / 1e9, true
	}
	numbered := map[int]harness.Run{}
	for _, run := range h.Runs {
		if run.Pair > 0 {
			numbered[run.Pair] = run
		}
	}
	if len(numbered) > 0 {
		for _, run := range b.Runs {
			x, okx := value(run)
			hr, found := numbered[run.Pair]
			if y, oky := value(hr); run.Pair > 0 && found && okx && oky {
				xs, ys = append(xs, x), append(ys, y)
			}
		}
		return xs, ys
	}
	for i := range min(len(b.Runs), len(h.Runs)) {
		x, okx := value(b.Runs[i])
		y, oky := value(h.Runs[i])
		if okx && oky {
			xs, ys = append(xs, x), append(ys, y)
		}
	}
	return xs, ys
}

// sameWork reports whether every successful run of b and h did the same
// number of units of work (runs that record none count as equal).
func sameWork(b, h *harness.Result) bool {
	var want int64 = -1
	for _, r := range []*harness.Result{b, h} {
		for _, run := range r.Runs {
			if run.Failed || run.Cells <= 0 {
				continue
			}
			if want >= 0 && run.Cells != want {
				return false
			}
			want = run.Cells
		}
	}
	return true
}

// unitSeconds is UnitTimes in seconds per unit.
func unitSeconds(r *harness.Result) []float64 {
	xs := UnitTimes(r)
	for i := range xs {
		xs[i] *= 1e-9 // as benchfmt converts ns/op, so that Go benchmark text gives benchstat's samples
	}
	return xs
}

// addRow compares one pair and appends the row, or a warning when a side
// has no successful run. The correction across rows and the gate wait for
// finish.
func (c *Comparison) addRow(b, h *harness.Result, bf, hf *harness.File, o Options) {
	label := h.Label
	basis := string(BasisTime)
	bs, hs := b.WallSeconds(), h.WallSeconds()
	// Go benchmark text is compared per op always: each of its runs stands
	// for harness.GoBenchOps ops at its line's rate, so its wall time is
	// no figure anyone measured (see harness.DecodeGoBench).
	perOp := bf.Workload == harness.GoBenchWorkload && hf.Workload == harness.GoBenchWorkload
	if perOp || !sameWork(b, h) {
		basis = "per " + c.Unit
		bs, hs = unitSeconds(b), unitSeconds(h)
	}
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
	if bad := firstUnusable(bs, hs); bad != "" {
		c.warnf("%s: sample %s: every sample must be a positive finite time (not compared)", label, bad)
		return
	}
	var row Row
	switch {
	case o.Method == MethodBenchstat:
		row = benchstatRow(bs, hs, o)
	case o.Paired:
		px, py := pairedSamples(b, h, basis != string(BasisTime))
		if len(px) == 0 {
			c.warnf("%s: no pair of successful runs (not compared)", label)
			return
		}
		row = hlRow(bs, hs, newPairedShift(logs(px), logs(py)), o)
		row.Pairs = len(px)
	default:
		row = hlRow(bs, hs, newShift(logs(bs), logs(hs)), o)
	}
	row.Label, row.Cell, row.Basis = label, h.Cell, basis
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
	if basis != string(BasisTime) && !perOp {
		row.Warnings = append(row.Warnings, fmt.Sprintf("the sides do different amounts of work per run: compared %s", basis))
	}
	if n := row.Base.Failed + row.Head.Failed; n > 0 {
		row.Warnings = append(row.Warnings, fmt.Sprintf("%d failed run(s) left out (%d in %s, %d in %s)",
			n, row.Base.Failed, c.Base.Name, row.Head.Failed, c.Head.Name))
	}
	c.Rows = append(c.Rows, row)
}

// firstUnusable describes the first sample of xs or ys that is not a
// positive finite number ("" when all are): a log time needs one. Loaded
// files are validated (harness.Decode); files built in memory may not be.
func firstUnusable(xs, ys []float64) string {
	for _, s := range []struct {
		name string
		v    []float64
	}{{"base", xs}, {"head", ys}} {
		for i, x := range s.v {
			if !(x > 0) || math.IsInf(x, 0) {
				return fmt.Sprintf("%d of %s is %v", i+1, s.name, x)
			}
		}
	}
	return ""
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

// medianSummaries summarises both sides as benchstat does: benchmath's
// AssumeNothing median with its interval at DefaultConfidence.
func medianSummaries(base, head []float64, th *benchmath.Thresholds) (bs, hs *benchmath.Sample, bsum, hsum benchmath.Summary) {
	bs = benchmath.NewSample(slices.Clone(base), th)
	hs = benchmath.NewSample(slices.Clone(head), th)
	a := benchmath.AssumeNothing
	return bs, hs, a.Summary(bs, DefaultConfidence), a.Summary(hs, DefaultConfidence)
}

// benchstatRow computes a row from two samples exactly as benchstat
// summarises and compares them, plus the conservative delta interval of the
// benchstat method (see the package documentation). It does not modify its
// arguments.
func benchstatRow(base, head []float64, o Options) Row {
	th := &benchmath.Thresholds{CompareAlpha: o.Alpha}
	bs, hs, bsum, hsum := medianSummaries(base, head, th)
	a := benchmath.AssumeNothing
	cmp := a.Compare(bs, hs)

	row := Row{
		Base:      Summary{Median: bsum.Center, Lo: bsum.Lo, Hi: bsum.Hi, Confidence: bsum.Confidence, N: len(base)},
		Head:      Summary{Median: hsum.Center, Lo: hsum.Lo, Hi: hsum.Hi, Confidence: hsum.Confidence, N: len(head)},
		P:         cmp.P,
		PAdjusted: cmp.P,
		Alpha:     cmp.Alpha,
		mult:      1,
	}
	row.Delta = ratio(hsum.Center, bsum.Center) - 1

	// The delta interval: each median's CI at √Confidence, combined at
	// their extremes.
	dc := math.Sqrt(DefaultConfidence)
	bd, hd := a.Summary(bs, dc), a.Summary(hs, dc)
	row.Level = DefaultConfidence
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
		row.Warnings = append(row.Warnings, fmt.Sprintf("too few runs for a finite delta interval at %v (have %d+%d, need >= %d per side)",
			DefaultConfidence, len(base), len(head), minRuns(dc)))
	}
	return row
}

// hlRow prepares a MethodHL row: the medians (for display), and sh's
// Hodges-Lehmann estimate and raw p-value. The interval and verdict wait
// for the correction (finish).
func hlRow(base, head []float64, sh shiftTest, o Options) Row {
	_, _, bsum, hsum := medianSummaries(base, head, &benchmath.DefaultThresholds)
	p := sh.pValue()
	return Row{
		Base:      Summary{Median: bsum.Center, Lo: bsum.Lo, Hi: bsum.Hi, Confidence: bsum.Confidence, N: len(base)},
		Head:      Summary{Median: hsum.Center, Lo: hsum.Lo, Hi: hsum.Hi, Confidence: hsum.Confidence, N: len(head)},
		Delta:     math.Expm1(sh.estimate()),
		P:         p,
		PAdjusted: p,
		Alpha:     o.Alpha,
		mult:      1,
		sh:        sh,
	}
}

// logs returns the natural logarithms of xs (every x is positive: files
// are validated on load).
func logs(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = math.Log(x)
	}
	return out
}

// correct applies the correction to MethodHL rows, then computes each
// row's interval at the level it was tested at and its verdict from that
// interval.
//
// Holm's step-down tests the rows in increasing order of p at levels
// α/m, α/(m−1), ..., stopping at the first row it cannot reject. Each row's
// interval is built at the level Holm tested it at, and the rows after the
// stopping step at the stopping step's level, so every row is significant
// (its adjusted p <= α) exactly when its interval excludes zero: a rejected
// row's p is at most its level, the stopping row's p exceeds its level,
// and every later row's p is at least the stopping row's.
func (c *Comparison) correct() {
	m := len(c.Rows)
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	if c.Correction == CorrectionHolm {
		sort.SliceStable(order, func(a, b int) bool { return c.Rows[order[a]].P < c.Rows[order[b]].P })
		stopped := false
		stopMult := 1.0
		running := 0.0
		for step, i := range order {
			r := &c.Rows[i]
			mult := float64(m - step)
			if !stopped && !(mult*r.P <= c.Alpha) {
				stopped, stopMult = true, mult
			}
			if stopped {
				r.mult = stopMult
			} else {
				r.mult = mult
			}
			running = max(running, min(1, mult*r.P))
			r.PAdjusted = running
		}
	}
	for i := range c.Rows {
		r := &c.Rows[i]
		lo, hi := r.sh.interval(r.mult, c.Alpha)
		r.DeltaLo, r.DeltaHi = math.Expm1(lo), math.Expm1(hi)
		if math.IsInf(lo, -1) {
			r.DeltaLo = lo // unbounded, not −100%
		}
		r.Level = 1 - c.Alpha/r.mult
		switch {
		case lo > 0:
			r.Verdict = Slower
		case hi < 0:
			r.Verdict = Faster
		default:
			r.Verdict = Same
		}
		if math.IsInf(lo, 0) {
			r.Warnings = append(r.Warnings, fmt.Sprintf("too few runs for a finite delta interval at %.4g%% (have %d+%d, need >= %d per side)",
				100*r.Level, r.Base.N, r.Head.N, r.sh.minRuns(r.mult, c.Alpha)))
		}
		r.minRuns = r.sh.minRuns(r.mult, c.Alpha)
		r.sh = nil
	}
}

// gate decides every row's Outcome under the threshold.
func (c *Comparison) gate() {
	for i := range c.Rows {
		r := &c.Rows[i]
		switch {
		case c.Threshold <= 0:
			r.Gate = GateOff
		case r.DeltaHi < c.Threshold:
			r.Gate = Pass
		case r.Verdict != Same && r.Delta > c.Threshold:
			r.Gate = Regression
		default:
			r.Gate = Inconclusive
			r.MoreRuns = c.moreRuns(r)
		}
	}
}

// moreRuns estimates how many more runs per side would decide an
// inconclusive row, taking the interval's half-widths (on the log scale) to
// shrink as 1/sqrt(n): to pass, the upper bound must fall below the
// threshold; to regress, the lower bound must rise above zero. With an
// unbounded interval it is the runs a finite one needs. 0 means unknown.
func (c *Comparison) moreRuns(r *Row) int {
	n := min(r.Base.N, r.Head.N)
	if r.Pairs > 0 {
		n = r.Pairs
	}
	if math.IsInf(r.DeltaLo, 0) || math.IsInf(r.DeltaHi, 0) {
		need := minRuns(math.Sqrt(DefaultConfidence))
		if c.Method == MethodHL {
			need = r.minRuns
		}
		return max(1, need-n)
	}
	lo, hi, e := math.Log1p(r.DeltaLo), math.Log1p(r.DeltaHi), math.Log1p(r.Delta)
	t := math.Log1p(c.Threshold)
	var factor float64
	switch {
	case e < t:
		factor = (hi - e) / (t - e)
	case e > 0:
		factor = (e - lo) / e
	default:
		return 0
	}
	need := float64(n) * factor * factor
	if math.IsNaN(need) || math.IsInf(need, 0) || need > maxMoreRuns {
		return 0
	}
	return max(1, int(math.Ceil(need))-n)
}

// maxMoreRuns bounds the runs per side Row.MoreRuns states.
const maxMoreRuns = 10_000

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

// finish applies the correction and the gate, gathers the rows' warnings
// and computes the geomean row, as benchstat's: the geomean of each side's
// medians and the geomean of the per-row ratios.
func (c *Comparison) finish(o Options) {
	if o.Method == MethodHL {
		c.correct()
	}
	c.gate()
	for _, r := range c.Rows {
		for _, w := range r.Warnings {
			c.warnf("%s: %s", r.Label, w)
		}
	}
	var lb, lh, lr float64
	ok := true
	for _, r := range c.Rows {
		if !(r.Base.Median > 0 && r.Head.Median > 0) {
			ok = false
			break
		}
		lb += math.Log(r.Base.Median)
		lh += math.Log(r.Head.Median)
		if c.Method == MethodHL {
			lr += math.Log1p(r.Delta) // the rows' own estimates
		} else {
			lr += math.Log(ratio(r.Head.Median, r.Base.Median))
		}
	}
	n := float64(len(c.Rows))
	if !ok || n == 0 {
		c.warnf("no geomean: every median must be positive")
		return
	}
	c.Geomean = Geomean{Base: math.Exp(lb / n), Head: math.Exp(lh / n), Delta: math.Exp(lr/n) - 1, OK: true}
}
