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
	"slices"
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

	var pairs []pair
	var onlyBase, onlyHead, differ []string
	var units []Metric
	if base.GoBench != nil && head.GoBench != nil {
		if err := checkIgnore(base, head, o.Ignore); err != nil {
			return nil, fmt.Errorf("compare: %w", err)
		}
		if units, err = goBenchUnits(base, head, o); err != nil {
			return nil, fmt.Errorf("compare: %w", err)
		}
		var ignored []string
		pairs, onlyBase, onlyHead, differ, ignored = matchGoBench(base, head, o.Ignore, c.Base.Name, c.Head.Name)
		if len(ignored) > 0 {
			c.warnf("configurations differ in keys ignored (compared anyway): %s", strings.Join(ignored, "; "))
		}
	} else {
		if len(o.Units) > 0 || len(o.Ignore) > 0 {
			return nil, errors.New("compare: units and ignored configuration keys apply to go test -bench text only; results files are judged on their metrics")
		}
		pairs, onlyBase, onlyHead = matchFiles(base, head)
	}
	c.plan(o, units)
	for _, p := range pairs {
		c.addRows(p.base, p.head, base, head, o, units)
	}
	c.OnlyBase, c.OnlyHead = onlyBase, onlyHead
	c.Load = loadOf(base, head)
	if len(differ) > 0 {
		c.warnf("not compared, their configurations differ (benchstat compares only equal configurations; --ignore KEY compares them anyway): %s", strings.Join(differ, "; "))
	}
	if len(onlyBase) > 0 {
		c.warnf("only in %s (not compared): %s", c.Base.Name, strings.Join(onlyBase, ", "))
	}
	if len(onlyHead) > 0 {
		c.warnf("only in %s (not compared): %s", c.Head.Name, strings.Join(onlyHead, ", "))
	}
	switch {
	case len(c.Rows) > 0:
	case len(pairs) == 0 && len(differ) > 0:
		return nil, fmt.Errorf("compare: no benchmark of the same configuration on both sides: %s; benchstat compares only equal configurations: --ignore KEY compares them anyway",
			strings.Join(differ, "; "))
	case len(pairs) > 0:
		return nil, fmt.Errorf("compare: nothing could be compared: %s", strings.Join(c.Warnings, "; "))
	default:
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
	c.Load = loadOf(f)

	var units []Metric
	if f.GoBench != nil {
		if units, err = goBenchUnits(f, f, o); err != nil {
			return nil, fmt.Errorf("compare: %w", err)
		}
	}
	c.plan(o, units)
	if len(as) == 1 && len(bs) == 1 {
		c.addRows(as[0], bs[0], f, f, o, units)
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
				c.addRows(r, h, f, f, o, units)
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

// plan records the metrics the comparison judges: units of Go benchmark
// text when there are, else o's metrics.
func (c *Comparison) plan(o Options, units []Metric) {
	c.planned = o.Metrics
	if units != nil {
		c.planned = units
	}
}

// loadOf is the range of the one-minute load averages the runs of files
// started under (harness.ABFile.LoadRange over each).
func loadOf(files ...*harness.File) LoadRange {
	var out LoadRange
	for _, f := range files {
		lo, hi, ok := (&harness.ABFile{Base: f}).LoadRange()
		switch {
		case !ok:
		case !out.OK:
			out = LoadRange{Lo: lo, Hi: hi, OK: true}
		default:
			out.Lo, out.Hi = min(out.Lo, lo), max(out.Hi, hi)
		}
	}
	return out
}

// finish applies the correction (across every row, whatever its metric)
// and the gate, gathers the notes and the rows' warnings, and computes
// each metric's geomean row, as benchstat's: the geomean of each side's
// medians and the geomean of the per-row ratios.
func (c *Comparison) finish(o Options) {
	for _, r := range c.Rows {
		if !slices.ContainsFunc(c.Metrics, func(m Metric) bool { return sameMetric(m, r.Metric) }) {
			c.Metrics = append(c.Metrics, r.Metric)
		}
	}
	if o.Method == MethodHL {
		c.correct()
	}
	c.gate()
	if len(c.processCPU) > 0 {
		c.warnf("%s compared on process CPU time (start-up and warm-up included): a side's worker predates the measured passes' CPU time",
			strings.Join(c.processCPU, ", "))
	}
	if len(c.noCPU) > 0 {
		c.warnf("%s: no CPU time row: a side's runs record no CPU time", strings.Join(c.noCPU, ", "))
	}
	for i := range c.Rows {
		r := &c.Rows[i]
		// Across layouts the sides' columns pool different binaries, whose
		// medians may differ by more than the combined interval allows.
		if w := mediansOutsidePairs(*r); w != "" && c.Mode != ModeLayouts {
			r.Warnings = append(r.Warnings, w)
		}
		for _, w := range r.Warnings {
			c.warnf("%s: %s", c.RowName(*r), w)
		}
	}
	for _, m := range c.Metrics {
		g, ok := c.geomean(m)
		if !ok {
			what := ""
			if c.NamesMetrics() {
				what = " of " + m.Label
			}
			c.warnf("no geomean%s: every median must be positive", what)
			continue
		}
		c.Geomeans = append(c.Geomeans, g)
	}
	if len(c.Geomeans) > 0 && sameMetric(c.Geomeans[0].Metric, c.Metrics[0]) {
		c.Geomean = c.Geomeans[0]
	}
}

// geomean is the geomean row of m's rows; ok is false when a median is
// not positive.
func (c *Comparison) geomean(m Metric) (g Geomean, ok bool) {
	var lb, lh, lr, n float64
	for _, r := range c.Rows {
		if !sameMetric(r.Metric, m) {
			continue
		}
		if !(r.Base.Median > 0 && r.Head.Median > 0) {
			return Geomean{}, false
		}
		lb += math.Log(r.Base.Median)
		lh += math.Log(r.Head.Median)
		if c.Method == MethodHL {
			lr += math.Log1p(r.Delta) // the rows' own estimates
		} else {
			lr += math.Log(ratio(r.Head.Median, r.Base.Median))
		}
		n++
	}
	if n == 0 {
		return Geomean{}, false
	}
	return Geomean{Metric: m, Base: math.Exp(lb / n), Head: math.Exp(lh / n), Delta: math.Exp(lr/n) - 1, OK: true}, true
}
