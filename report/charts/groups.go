package charts

// This file splits a file's configurations into the groups one chart can
// show: where one log axis could not show their spread (ScaleGroups), and
// into series few enough for one line chart (SeriesGroups).

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/report"
)

// Group is a set of configurations drawn on one chart: Name says what they
// share ("producers=2"; empty when the group is the whole file) and Labels
// lists them in file order.
type Group struct {
	Name   string
	Labels []string
}

// SeriesGroups splits f's configurations into the groups a line chart of
// one series per configuration (Progression) can show: first where one log
// axis could not show their spread (ScaleGroups), then each such group into
// groups of at most MaxSeries: one group when they fit; else one group per
// value of the varying parameter that needs the fewest groups of at most
// MaxSeries each; else consecutive runs of MaxSeries configurations. A
// group's Name joins what its members share; one group for the whole file
// is unnamed.
func SeriesGroups(f *harness.File) []Group {
	var out []Group
	for _, sg := range ScaleGroups(f) {
		for _, g := range splitSeries(f, sg.Labels) {
			g.Name = report.JoinNonEmpty("; ", sg.Name, g.Name)
			out = append(out, g)
		}
	}
	return out
}

// ScaleGroups splits f's configurations where one log axis could not show
// their runs' spread: sorted by median time per unit, a new group starts
// wherever a median exceeds the one before it by more than wideSpread (the
// callback workload's pipe and channel variants take 100× longer than the
// others). Each group lists its labels in file order and is named by its
// range of medians ("medians 62.71 to 273.4 ns per call"); a file that needs no split
// gives one unnamed group. Configurations without a successful run are
// left out.
func ScaleGroups(f *harness.File) []Group {
	if f == nil {
		return nil
	}
	type med struct {
		label string
		ns    float64
	}
	var meds []med
	for i := range f.Results {
		r := &f.Results[i]
		if d := analysis.DescribeUnitTimes(r); d.N > 0 {
			meds = append(meds, med{r.Label, d.Median})
		}
	}
	if len(meds) == 0 {
		return nil
	}
	sorted := slices.Clone(meds)
	slices.SortStableFunc(sorted, func(a, b med) int { return cmp.Compare(a.ns, b.ns) })
	groupOf := map[string]int{}
	var bounds [][2]float64
	for i, m := range sorted {
		if i == 0 || m.ns > sorted[i-1].ns*wideSpread {
			bounds = append(bounds, [2]float64{m.ns, m.ns})
		}
		g := len(bounds) - 1
		bounds[g][1] = m.ns
		groupOf[m.label] = g
	}
	groups := make([]Group, len(bounds))
	for _, m := range meds {
		g := groupOf[m.label]
		groups[g].Labels = append(groups[g].Labels, m.label)
	}
	if len(groups) > 1 {
		for g, b := range bounds {
			groups[g].Name = fmt.Sprintf("medians %s to %s ns per %s", report.FourDigits(b[0]), report.FourDigits(b[1]), analysis.Unit(f))
		}
	}
	return groups
}

// splitSeries splits labels, configurations of f, into groups of at most
// MaxSeries (see SeriesGroups).
func splitSeries(f *harness.File, labels []string) []Group {
	if len(labels) <= MaxSeries {
		return []Group{{Labels: labels}}
	}
	var best []Group
	for _, k := range varying(f) {
		var groups []Group
		at := map[string]int{}
		for _, l := range labels {
			v := params(f, find(f, l))[k]
			g, ok := at[v]
			if !ok {
				g = len(groups)
				at[v] = g
				groups = append(groups, Group{Name: k + "=" + v})
			}
			groups[g].Labels = append(groups[g].Labels, l)
		}
		fits := !slices.ContainsFunc(groups, func(g Group) bool { return len(g.Labels) > MaxSeries })
		if fits && len(groups) > 1 && (best == nil || len(groups) < len(best)) {
			best = groups
		}
	}
	if best != nil {
		return best
	}
	var out []Group
	for start := 0; start < len(labels); start += MaxSeries {
		end := min(start+MaxSeries, len(labels))
		out = append(out, Group{
			Name:   fmt.Sprintf("configurations %d–%d of %d", start+1, end, len(labels)),
			Labels: labels[start:end],
		})
	}
	return out
}
