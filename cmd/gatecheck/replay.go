package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
)

// The replay: synthetic sessions made of recorded pairs, judged by the
// decision code `rootbench ab` runs (analysis.Sequential: Decide at every
// look, Verdict at the end), at the looks and with the pair counts of the
// recorded sessions, on every metric of the templates (metric.go). A
// planted slowdown multiplies one metric's value of every head run of one
// cell by 1+x, as ROOTBENCH_SLOW plants it in that metric.

// scenario is one kind of synthetic session: A/A (pct 0) or a planted
// slowdown of pct percent on the slowed cell's head runs in one metric
// (metric: its index in the templates' metrics); raw keeps the shift each
// recorded session measured (no centring).
type scenario struct {
	name     string
	pct      float64
	metric   int
	raw      bool
	sessions int // synthetic sessions of this scenario
}

// replayer makes and judges synthetic sessions.
type replayer struct {
	templates []*template
	// pools[label] is every recorded pair of a benchmark over the
	// sessions, each session's cut to an even count so that parities
	// stay those of the pairs' order (pooled resampling only).
	pools    map[string][]runPair
	resample string
	block    int
	seed     uint64
	slow     string
	// alpha and threshold are ab's --alpha and --fail-on-regression.
	alpha, threshold float64
}

// synthetic is the outcome of one synthetic session.
type synthetic struct {
	template int
	rows     []rowOutcome // per row of the template (rowOf), in its order
	looks    int          // looks made
	rounds   int          // runs per side at the last look
	err      string       // why no verdict could be made
}

// rowOutcome is what a synthetic session concluded on one row: the
// gate's outcome (pass, regression or inconclusive) and whether the row's
// interval lies above 0, the head found slower whatever the gate made of
// it.
type rowOutcome struct {
	gate   analysis.Outcome
	slower bool
}

// rule is the sequential rule `ab` runs with automatic looks.
func (r *replayer) rule() *analysis.Sequential {
	return &analysis.Sequential{Alpha: r.alpha, Threshold: r.threshold, AutoLooks: analysis.DefaultAutoLooks,
		BaseName: "base", HeadName: "head", Metrics: []analysis.Metric{analysis.Wall}}
}

// newPools pools every template's pairs by benchmark label.
func newPools(ts []*template) map[string][]runPair {
	pools := map[string][]runPair{}
	for _, t := range ts {
		for _, b := range t.benches {
			n := len(b.pairs) - len(b.pairs)%2
			pools[b.label] = append(pools[b.label], b.pairs[:n]...)
		}
	}
	return pools
}

// draw picks the recorded pairs of synthetic session k on template t: for
// each benchmark, the pairs it has at the budget look.
func (r *replayer) draw(t *template, k int) ([][]runPair, error) {
	rng := rand.New(rand.NewPCG(r.seed, uint64(k)))
	out := make([][]runPair, len(t.benches))
	for i, b := range t.benches {
		src, block := b.pairs, r.block
		if r.resample == resamplePooled {
			if p := r.pools[b.label]; len(p) > 0 {
				src = p
			}
			block = 1
		}
		idx, err := analysis.BlockBootstrapIndexes(rng, len(src), b.pairsAt(t.rounds), block)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", t.name, b.label, err)
		}
		out[i] = make([]runPair, len(idx))
		for j, x := range idx {
			out[i][j] = src[x]
		}
	}
	return out, nil
}

// sideRuns are the runs of both sides of one synthetic session, per row:
// row i·len(metrics)+k is benchmark i judged on metric k (rowOf).
type sideRuns [2][][]harness.Run

// rowOf is the row of benchmark i in metric k of a template with nm
// metrics; benchOf and metricOf undo it.
func rowOf(i, k, nm int) int   { return i*nm + k }
func benchOf(row, nm int) int  { return row / nm }
func metricOf(row, nm int) int { return row % nm }

// build numbers the drawn pairs (Pair from 1, Index in the engine's order:
// round by round, each benchmark's pairs in turn, the sides in ABBA order)
// and makes each benchmark's row in every metric of the template (its runs
// as the metric's, metric.run), centred unless raw (each head run divided
// by exp of its pair's shift in that metric, so that every benchmark's
// recorded pairs show no change: the A/A null made exact), with the head
// runs of the slowed cell multiplied by 1 + pct/100 in the scenario's
// metric.
func build(t *template, drawn [][]runPair, slow string, sc scenario) sideRuns {
	nm := len(t.metrics)
	var s sideRuns
	for side := range s {
		s[side] = make([][]harness.Run, len(drawn)*nm)
	}
	for i, ps := range drawn {
		for k, m := range t.metrics {
			planted := 1.0
			if sc.pct != 0 && sc.metric == k && t.benches[i].cell == slow {
				planted = 1 + sc.pct/100
			}
			row := rowOf(i, k, nm)
			for side := range s {
				s[side][row] = make([]harness.Run, len(ps))
			}
			for j, p := range ps {
				b, h := m.run(p.base), m.run(p.head)
				b.Pair, h.Pair = j+1, j+1
				factor := planted
				if !sc.raw {
					factor *= math.Exp(-p.shifts[k])
				}
				if factor != 1 {
					h.WallNs = scaleNs(h.WallNs, factor)
					h.PassNs = slices.Clone(h.PassNs)
					for x := range h.PassNs {
						h.PassNs[x] = scaleNs(h.PassNs[x], factor)
					}
				}
				s[0][row][j], s[1][row][j] = b, h
			}
		}
	}
	index, next := 0, make([]int, len(drawn))
	for round := range t.rounds {
		for i, b := range t.benches {
			reps := 1
			if round >= autoPlanRounds {
				reps = b.reps
			}
			for range reps {
				j := next[i]
				if j >= len(drawn[i]) {
					break
				}
				first, second := 0, 1 // ABBA: base first in odd pairs
				if j%2 == 1 {
					first, second = 1, 0
				}
				for k := range nm {
					row := rowOf(i, k, nm)
					s[first][row][j].Index, s[second][row][j].Index = index, index+1
				}
				index += 2
				next[i]++
			}
		}
	}
	return s
}

func scaleNs(ns int64, factor float64) int64 { return int64(float64(ns)*factor + 0.5) }

// files are both sides' files after rounds rounds, statistics computed as
// the engine computes them (harness.Summarize).
func (s sideRuns) files(t *template, rounds int, partial bool) (base, head *harness.File) {
	mk := func(side int, hdr *harness.File) *harness.File {
		f := *hdr
		f.Partial = partial
		f.Warnings = slices.Clone(hdr.Warnings)
		nm := len(t.metrics)
		f.Results = make([]harness.Result, len(t.benches)*nm)
		for row := range f.Results {
			b := t.benches[benchOf(row, nm)]
			f.Results[row] = harness.Result{Cell: b.cell, Label: rowLabel(b.label, t.metrics, metricOf(row, nm)), Params: b.params,
				Runs: slices.Clone(s[side][row][:b.pairsAt(rounds)])}
		}
		harness.Summarize(&f)
		return &f
	}
	return mk(0, t.base), mk(1, t.head)
}

// judge runs one synthetic session as ab runs it: Decide at each look
// until one decides every row or the looks run out, then Verdict on the
// file the session leaves. Decide is not asked at the final look: the
// session ends there whatever it answers, and Verdict judges the same runs
// as that look (what Decide would have kept in the rule, an error, Verdict
// meets again), so the verdict is the one ab reaches, at half the cost of
// the look that costs most.
func (r *replayer) judge(t *template, s sideRuns) synthetic {
	rule := r.rule()
	var out synthetic
	var logs []harness.ABLog
	stopped := harness.StopBudget
	for _, l := range t.looks() {
		out.rounds = l.Runs
		if l.Final {
			logs = append(logs, harness.ABLog{Look: l})
			break
		}
		b, h := s.files(t, l.Runs, true)
		done, note := rule.Decide(b, h, l)
		logs = append(logs, harness.ABLog{Look: l, Done: done, Note: note})
		if done {
			stopped = harness.StopDecided
			break
		}
	}
	out.looks = len(logs)
	b, h := s.files(t, out.rounds, false)
	f := &harness.ABFile{Schema: harness.ABSchema, Base: b, Head: h, PlannedLooks: slices.Clone(t.plan),
		MaxTimeNs: t.maxTime.Nanoseconds(), Looks: logs, Stopped: stopped}
	v := rule.Verdict(f, false)
	if v.Gate == nil {
		out.err = v.Reason
		return out
	}
	byLabel := map[string]harness.ABGateRow{}
	for _, row := range v.Gate.Rows {
		byLabel[row.Label] = row
	}
	nm := len(t.metrics)
	out.rows = make([]rowOutcome, len(t.benches)*nm)
	for row := range out.rows {
		g := byLabel[rowLabel(t.benches[benchOf(row, nm)].label, t.metrics, metricOf(row, nm))]
		out.rows[row] = rowOutcome{gate: analysis.Outcome(g.Outcome), slower: g.DeltaLo != nil && *g.DeltaLo > 0}
	}
	return out
}

// run makes sc.sessions synthetic sessions of every scenario sc, on the
// templates in turn (session k on template k mod len), on jobs goroutines;
// session k draws the same pairs in every scenario (common random
// numbers), so the scenarios differ by the planted slowdown only.
// results[s][k] is session k of scenario s.
func (r *replayer) run(scs []scenario, jobs int, progress func(done, of int)) ([][]synthetic, error) {
	results := make([][]synthetic, len(scs))
	most := 0
	for i, sc := range scs {
		results[i] = make([]synthetic, sc.sessions)
		most = max(most, sc.sessions)
	}
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	// Each worker takes session numbers from ks and writes only
	// results[*][k] of the sessions it took; mu guards firstErr and done.
	ks := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	done := 0
	for range jobs {
		wg.Go(func() {
			for k := range ks {
				ti := k % len(r.templates)
				t := r.templates[ti]
				drawn, err := r.draw(t, k)
				if err == nil {
					for si, sc := range scs {
						if k >= sc.sessions {
							continue
						}
						res := r.judge(t, build(t, drawn, r.slow, sc))
						res.template = ti
						results[si][k] = res
					}
				}
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				done++
				if progress != nil {
					progress(done, most)
				}
				mu.Unlock()
			}
		})
	}
	for k := range most {
		ks <- k
	}
	close(ks)
	wg.Wait()
	return results, firstErr
}

// asRecorded judges each recorded session once on its own pairs, in their
// order, as ab would have with the replay's gate: no resampling, no
// centring. A session whose recorded pairs fall short of the rounds
// replayed (one decided before its budget, a failed run, another budget
// or cell set) is left out.
func (r *replayer) asRecorded() []synthetic {
	var out []synthetic
	for ti, t := range r.templates {
		drawn := make([][]runPair, len(t.benches))
		for i, b := range t.benches {
			if n := b.pairsAt(t.rounds); n <= len(b.pairs) {
				drawn[i] = b.pairs[:n]
			} else {
				drawn = nil
				break
			}
		}
		if drawn == nil {
			continue
		}
		res := r.judge(t, build(t, drawn, r.slow, scenario{name: aaRecorded, raw: true}))
		res.template = ti
		out = append(out, res)
	}
	return out
}

// aaRecorded names the recorded sessions judged as they are.
const aaRecorded = "A/A as recorded (each recorded session judged once, no resampling)"
