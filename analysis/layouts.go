package analysis

// This file judges a change across function layouts: several A/B sessions
// of the same two revisions, each with both builds linked in one layout
// (the linker's -randlayout seed), combined into one row per benchmark.
//
// Why: where the linker puts a binary's functions moves its speed by a few
// percent, and a change moves every function after the code it touches. So
// one session of two builds compares two layouts as much as two versions of
// the code: a change that computes nothing new can read as a significant
// slowdown in one layout and a speed-up in another. A session's interval
// is right about its two binaries; more runs shrink it towards their
// difference, layout included. Only more layouts average the layout out,
// as Stabilizer does by re-randomizing the layout of one binary
// (Curtsinger and Berger, ASPLOS 2013).
//
// The method, and what it assumes:
//
//   - Each layout k gives one estimate y_k of the change: the mean of its
//     session's paired log ratios (head run over base run). Pairing cancels
//     the machine's drift within the session; y_k still carries that pair
//     of builds' layout effect.
//   - The y_k are taken as independent draws around the true change μ with
//     one common spread (layout effect plus session noise), close enough to
//     normal: each is a mean of many runs, and the layout effect of a whole
//     binary is itself the sum of many placements. The estimate is their
//     mean, the interval Student's t on K−1 degrees of freedom, and the
//     p-value the matching two-sided t-test: a row is significant exactly
//     when its interval excludes zero, so the verdict and the interval come
//     from the one estimator.
//   - The standard error is never below what the sessions' own noise
//     implies (the mean of their squared standard errors over K): with few
//     layouts, their sample spread can come out small by chance. This only
//     widens the interval.
//   - Holm controls the error rate across rows, as in one session. The
//     sessions' own sequential looks decide only when each session stops;
//     the combined test is made once, after the last.
//
// TestLayoutShiftCalibrated measures its false-alarm rate and its power on
// simulated layouts; `make perf-check` applies it to the real layouts its
// LAYOUTS names.

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/rootbench/rootbench/harness"
)

// ModeLayouts is Comparison.Mode for CompareLayouts.
const ModeLayouts = "layouts"

// LayoutSession is one A/B session of a change with both builds linked in
// one function layout: Layout names it (a -randlayout seed, "0" for the
// linker's default), Base and Head are the session's two files, their runs
// paired as ab makes them.
type LayoutSession struct {
	Layout     string
	Base, Head *harness.File
}

// layoutRow gathers one benchmark's figures across the sessions.
type layoutRow struct {
	label, baseLabel, cell, basis string
	metric                        Metric
	params                        map[string]string
	ys, sq                        []float64 // per layout: mean paired log ratio, its squared standard error (NaN below 2 pairs)
	layouts                       []string
	bs, hs                        []float64 // every layout's successful runs, for the sides' columns
	pairs, bfail, hfail           int
}

// CompareLayouts combines sessions of one change in several function
// layouts into one comparison: one row per benchmark present in at least
// two of them, its delta the mean over layouts of the sessions' mean paired
// log ratios, with Student's t interval (see the file's comment for what it
// assumes), Holm across rows at o.Alpha and the gate at o.Threshold. The
// sides' columns pool every layout's runs. Rows present in fewer than two
// layouts are reported as warnings. Paired is implied, so o.Method must be
// MethodHL (resolve refuses another).
func CompareLayouts(sessions []LayoutSession, o Options) (*Comparison, error) {
	if len(sessions) < 2 {
		return nil, fmt.Errorf("compare layouts: %d session(s): need at least two layouts", len(sessions))
	}
	o.Paired = true
	o, err := o.resolve()
	if err != nil {
		return nil, fmt.Errorf("compare layouts: %w", err)
	}
	for i, s := range sessions {
		if s.Base == nil || s.Head == nil {
			return nil, fmt.Errorf("compare layouts: session %d (layout %s): need both a base and a head file", i+1, s.Layout)
		}
	}
	first := sessions[0]
	c := newComparison(ModeLayouts, first.Base, first.Head, o)
	c.Base.Name, c.Head.Name = orDefault(o.BaseName, "base"), orDefault(o.HeadName, "head")
	c.plan(o, nil)
	metrics := layoutMetrics(sessions, o.Metrics)
	name := func(label string, m Metric) string {
		if c.namesPlanned() {
			return label + " " + m.Label
		}
		return label
	}
	var order []string
	rows := map[string]*layoutRow{}
	for _, s := range sessions {
		c.Layouts = append(c.Layouts, s.Layout)
		c.warnFile(s.Base, c.Base.Name+" (layout "+s.Layout+")")
		c.warnFile(s.Head, c.Head.Name+" (layout "+s.Layout+")")
		pairs, _, _ := matchFiles(s.Base, s.Head)
		for _, p := range pairs {
			b, h := p.base, p.head
			for _, m := range metrics[h.Label] {
				key := h.Label + "\x00" + m.Name
				lr := rows[key]
				if lr == nil {
					lr = &layoutRow{label: h.Label, cell: h.Cell, basis: string(BasisTime), metric: m, params: effective(s.Head, h)}
					if b.Label != h.Label {
						lr.baseLabel = b.Label
					}
					rows[key] = lr
					order = append(order, key)
				}
				perUnit := !sameWork(b, h)
				if perUnit {
					lr.basis = "per " + c.Unit
				}
				lr.bfail += failed(b)
				lr.hfail += failed(h)
				xs, ys := pairedSamples(b, h, m, perUnit)
				if len(xs) == 0 {
					c.warnf("%s: no pair of successful runs in layout %s (left out)", name(h.Label, m), s.Layout)
					continue
				}
				d := make([]float64, len(xs))
				for i := range xs {
					d[i] = math.Log(ys[i]) - math.Log(xs[i])
				}
				mean, variance := stat.MeanVariance(d, nil)
				sq := math.NaN()
				if len(d) >= 2 {
					sq = variance / float64(len(d))
				}
				lr.ys, lr.sq, lr.layouts = append(lr.ys, mean), append(lr.sq, sq), append(lr.layouts, s.Layout)
				lr.bs, lr.hs = append(lr.bs, xs...), append(lr.hs, ys...)
				lr.pairs += len(xs)
			}
		}
	}
	for label, ms := range metrics {
		for _, m := range ms {
			if m == ProcessCPU {
				c.processCPU = append(c.processCPU, label)
			}
		}
		if len(ms) < len(o.Metrics) {
			c.noCPU = append(c.noCPU, label)
		}
	}
	slices.Sort(c.processCPU)
	slices.Sort(c.noCPU)
	for _, key := range order {
		lr := rows[key]
		if len(lr.ys) < 2 {
			c.warnf("%s: measured in %d layout(s) (%s): needs two or more (not compared)", name(lr.label, lr.metric), len(lr.ys), strings.Join(lr.layouts, ", "))
			continue
		}
		row := hlRow(lr.bs, lr.hs, newLayoutShift(lr.ys, lr.sq), lr.metric, o)
		row.Label, row.BaseLabel, row.Cell, row.Basis, row.Params, row.Metric = lr.label, lr.baseLabel, lr.cell, lr.basis, lr.params, lr.metric
		row.Pairs, row.Layouts = lr.pairs, len(lr.ys)
		row.Base.Failed, row.Head.Failed = lr.bfail, lr.hfail
		if len(lr.ys) < len(sessions) {
			row.Warnings = append(row.Warnings, fmt.Sprintf("measured in %d of %d layouts (%s)", len(lr.ys), len(sessions), strings.Join(lr.layouts, ", ")))
		}
		if n := lr.bfail + lr.hfail; n > 0 {
			row.Warnings = append(row.Warnings, fmt.Sprintf("%d failed run(s) left out (%d in %s, %d in %s)", n, lr.bfail, c.Base.Name, lr.hfail, c.Head.Name))
		}
		c.Rows = append(c.Rows, row)
	}
	var files []*harness.File
	for _, s := range sessions {
		files = append(files, s.Base, s.Head)
	}
	c.Load = loadOf(files...)
	if len(c.Rows) == 0 {
		return nil, fmt.Errorf("compare layouts: no benchmark measured in two layouts or more: %s", strings.Join(c.Warnings, "; "))
	}
	c.finish(o)
	for i := range c.Rows {
		// More runs in the same layouts would not shrink the interval
		// much: the spread between layouts sets it.
		c.Rows[i].MoreRuns = 0
	}
	return c, nil
}

// layoutShift is the combined comparison of one benchmark across layouts:
// the mean of the layouts' estimates with Student's t interval and test
// (see the file's comment). It works on log ratios.
type layoutShift struct {
	mean, se float64
	df       float64
}

// newLayoutShift combines ys, the layouts' mean log ratios, with sq, the
// squared standard errors of those means (NaN where a layout had too few
// pairs to tell).
func newLayoutShift(ys, sq []float64) *layoutShift {
	k := float64(len(ys))
	mean, variance := stat.MeanVariance(ys, nil)
	floor, known := 0.0, 0
	for _, v := range sq {
		if !math.IsNaN(v) {
			floor += v
			known++
		}
	}
	se2 := variance / k
	if known > 0 {
		// The mean of the known squared errors, over k: the variance of
		// the mean of k layouts from the sessions' noise alone.
		se2 = max(se2, floor/float64(known)/k)
	}
	return &layoutShift{mean: mean, se: math.Sqrt(se2), df: k - 1}
}

func (s *layoutShift) estimate() float64 { return s.mean }

// pValue is the two-sided t-test of no change.
func (s *layoutShift) pValue() float64 {
	if s.se == 0 {
		if s.mean == 0 {
			return 1
		}
		return 0
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: s.df}
	return min(1, 2*t.Survival(math.Abs(s.mean)/s.se))
}

// interval is the t interval at level 1 − alpha/mult: it excludes zero
// exactly when pValue() <= alpha/mult.
func (s *layoutShift) interval(mult, alpha float64) (lo, hi float64) {
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: s.df}
	half := t.Quantile(1-alpha/mult/2) * s.se
	return s.mean - half, s.mean + half
}

// minRuns is 2: two layouts give a finite interval at any level.
func (s *layoutShift) minRuns(mult, alpha float64) int { return 2 }

// layoutMetrics chooses each benchmark's metrics across the sessions: ms,
// with CPU time as cpuMetric chooses it from every session's runs of the
// benchmark (left out when they record none).
func layoutMetrics(sessions []LayoutSession, ms []Metric) map[string][]Metric {
	results := map[string][]*harness.Result{}
	for _, s := range sessions {
		pairs, _, _ := matchFiles(s.Base, s.Head)
		for _, p := range pairs {
			results[p.head.Label] = append(results[p.head.Label], p.base, p.head)
		}
	}
	out := map[string][]Metric{}
	for label, rs := range results {
		for _, m := range ms {
			if sameMetric(m, CPU) {
				var ok bool
				if m, ok = cpuMetric(rs...); !ok {
					continue
				}
			}
			out[label] = append(out[label], m)
		}
	}
	return out
}
