package analysis

// This file matches rows: which result of one side is compared with which
// of the other, and which samples a row compares. It assumes that a label
// (or else a cell with its parameters) names the same configuration on
// both sides, and, for paired rows, that the runs with one Pair number
// (or, in files without numbers, at one index) were made back to back. It
// computes no statistic.

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/rootbench/rootbench/harness"
)

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
// failed run, or a run without a figure of m, is left out. The samples are
// m's figures (Metric.pairValue): seconds, or seconds per unit of work
// when perUnit is set (runs that did no work are left out).
func pairedSamples(b, h *harness.Result, m Metric, perUnit bool) (xs, ys []float64) {
	value := func(run harness.Run) (float64, bool) { return m.pairValue(run, perUnit) }
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

// without is m without the keys ignored (nil: m itself).
func without(m map[string]string, ignored []string) map[string]string {
	if len(ignored) == 0 {
		return m
	}
	out := maps.Clone(m)
	for _, k := range ignored {
		delete(out, k)
	}
	return out
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
