package analysis

// This file matches two files of Go benchmark text as benchstat does: each
// benchmark is compared with the one of the same name and the same
// configuration (the `key: value` lines in force, benchstat's .config),
// apart from the keys Options.Ignore names (benchstat's -ignore), on each
// unit the texts carry (Options.Units chooses). It computes no statistic.

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/rootbench/rootbench/harness"
)

// goBenchUnits returns the metrics of the units a comparison of two texts
// judges: o.Units, each of which a side must carry, or every unit either
// carries (base's first). A unit's declarations are the first side's that
// carries it.
func goBenchUnits(base, head *harness.File, o Options) ([]Metric, error) {
	var all []harness.GoBenchUnit
	for _, f := range []*harness.File{base, head} {
		for _, u := range f.GoBench.Units {
			if !slices.ContainsFunc(all, func(x harness.GoBenchUnit) bool { return x.Name == u.Name }) {
				all = append(all, u)
			}
		}
	}
	names := func() string {
		var out []string
		for _, u := range all {
			out = append(out, u.Name)
		}
		return strings.Join(out, ", ")
	}
	var out []Metric
	if len(o.Units) == 0 {
		for _, u := range all {
			out = append(out, unitMetric(u))
		}
		return out, nil
	}
	for _, name := range o.Units {
		i := slices.IndexFunc(all, func(x harness.GoBenchUnit) bool { return x.Name == name })
		if i < 0 {
			return nil, fmt.Errorf("unit %q: neither file carries it; they carry: %s", name, names())
		}
		if !slices.ContainsFunc(out, func(m Metric) bool { return m.Name == name }) {
			out = append(out, unitMetric(all[i]))
		}
	}
	return out, nil
}

// checkIgnore refuses an ignored key that no benchmark of either file has
// in its configuration, naming the keys they have.
func checkIgnore(base, head *harness.File, ignore []string) error {
	keys := map[string]bool{}
	for _, f := range []*harness.File{base, head} {
		for _, r := range f.Results {
			for k := range r.Params {
				keys[k] = true
			}
		}
	}
	for _, k := range ignore {
		if !keys[k] {
			return fmt.Errorf("ignore %q: no benchmark of either file has that configuration key; they have: %s",
				k, strings.Join(slices.Sorted(maps.Keys(keys)), ", "))
		}
	}
	return nil
}

// matchGoBench pairs the benchmarks of two texts by label, when their
// configurations are equal apart from the keys ignored; pairs follow the
// base's order. differ describes each configuration key whose values kept
// benchmarks of one label apart ("note: \"a\" in base, \"b\" in head"),
// and ignored each ignored key whose values differ in a pair.
func matchGoBench(base, head *harness.File, ignore []string, baseName, headName string) (pairs []pair, onlyBase, onlyHead, differ, ignored []string) {
	headBy := map[string]*harness.Result{}
	for i := range head.Results {
		headBy[head.Results[i].Label] = &head.Results[i]
	}
	matched := map[*harness.Result]bool{}
	note := func(list *[]string, b, h *harness.Result, keys []string) {
		for _, k := range keys {
			bv, bok := b.Params[k]
			hv, hok := h.Params[k]
			if bok == hok && bv == hv {
				continue
			}
			d := fmt.Sprintf("%s: %s in %s, %s in %s", k, quoteUnset(bv, bok), baseName, quoteUnset(hv, hok), headName)
			if !slices.Contains(*list, d) {
				*list = append(*list, d)
			}
		}
	}
	for i := range base.Results {
		b := &base.Results[i]
		h, ok := headBy[b.Label]
		switch {
		case !ok:
			onlyBase = append(onlyBase, b.Label)
		case keyString(without(b.Params, ignore)) != keyString(without(h.Params, ignore)):
			keys := slices.Sorted(maps.Keys(unionKeys(b.Params, h.Params)))
			note(&differ, b, h, slices.DeleteFunc(keys, func(k string) bool { return slices.Contains(ignore, k) }))
			onlyBase = append(onlyBase, b.Label)
		default:
			matched[h] = true
			note(&ignored, b, h, ignore)
			pairs = append(pairs, pair{b, h})
		}
	}
	for i := range head.Results {
		if !matched[&head.Results[i]] {
			onlyHead = append(onlyHead, head.Results[i].Label)
		}
	}
	return pairs, onlyBase, onlyHead, differ, ignored
}

func quoteUnset(v string, ok bool) string {
	if !ok {
		return "(unset)"
	}
	return fmt.Sprintf("%q", v)
}

func unionKeys(a, b map[string]string) map[string]bool {
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	return keys
}
