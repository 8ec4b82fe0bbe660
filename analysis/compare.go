package analysis

// This file is the comparison itself: the entry points (CompareFiles,
// ComparePaths, CompareCells) that take the options (options.go), match
// rows (rows.go), compute each row by its method (hodgeslehmann.go,
// benchstat.go), correct across rows (holm.go), apply the gate (gate.go,
// needed.go) and return the comparison (comparison.go), with its
// warnings. It assumes nothing about the samples itself; each of those
// files names what it assumes.
import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/rootbench/rootbench/harness"
)

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

// mediansSlack is how far outside a paired row's interval the change
// between its medians must be (2 percentage points) for mediansOutsidePairs
// to warn: a narrow interval is often missed by a fraction of a point,
// which misleads no one.
const mediansSlack = 0.02

// mediansOutsidePairs warns when a paired row's two medians differ by a
// change its interval rules out, by more than mediansSlack: the base and
// head columns then seem to contradict the delta. It happens when runs
// vary far more from pair to pair than within a pair (a machine whose
// speed jumps between modes, or drifts), which pairing cancels and the
// sides' medians do not; the verdict and the interval read the pairs.
// Empty otherwise.
func mediansOutsidePairs(r Row) string {
	if r.Pairs == 0 || !(r.Base.Median > 0 && r.Head.Median > 0) || math.IsInf(r.DeltaLo, 0) || math.IsInf(r.DeltaHi, 0) {
		return ""
	}
	m := r.Head.Median/r.Base.Median - 1
	if m >= r.DeltaLo-mediansSlack && m <= r.DeltaHi+mediansSlack {
		return ""
	}
	return fmt.Sprintf("the medians differ by %+.1f%%, outside the paired interval [%+.1f%%, %+.1f%%]: runs vary far more from pair to pair than within a pair (a machine that jumps between speeds, or drifts); the delta and the verdict read the pairs",
		100*m, 100*r.DeltaLo, 100*r.DeltaHi)
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

// finish applies the correction and the gate, gathers the rows' warnings
// and computes the geomean row, as benchstat's: the geomean of each side's
// medians and the geomean of the per-row ratios.
func (c *Comparison) finish(o Options) {
	if o.Method == MethodHL {
		c.correct()
	}
	c.gate()
	for i := range c.Rows {
		r := &c.Rows[i]
		// Across layouts the sides' columns pool different binaries, whose
		// medians may differ by more than the combined interval allows.
		if w := mediansOutsidePairs(*r); w != "" && c.Mode != ModeLayouts {
			r.Warnings = append(r.Warnings, w)
		}
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
