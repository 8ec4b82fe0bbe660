package charts

import (
	"slices"
	"strings"
	"testing"
)

func TestSeriesGroups(t *testing.T) {
	t.Parallel()
	small := scanFile(1, "alpha", 1)
	small.Results = small.Results[:MaxSeries]
	if got := SeriesGroups(small); len(got) != 1 || got[0].Name != "" || len(got[0].Labels) != len(small.Results) {
		t.Errorf("SeriesGroups of %d configurations = %+v, want one unnamed group of all", len(small.Results), got)
	}
	g := gridFile(1)
	got := SeriesGroups(g)
	seen := map[string]bool{}
	for _, grp := range got {
		if len(grp.Labels) > MaxSeries || !strings.HasPrefix(grp.Name, "consumers=") {
			t.Errorf("group %q of %d labels: want at most %d, named by a parameter value", grp.Name, len(grp.Labels), MaxSeries)
		}
		for _, l := range grp.Labels {
			if seen[l] || !strings.Contains(l, grp.Name) {
				t.Errorf("label %q in group %q: repeated, or not of the group", l, grp.Name)
			}
			seen[l] = true
		}
	}
	if len(got) != 3 || len(seen) != len(g.Results) {
		t.Errorf("%d groups covering %d of %d configurations, want 3 covering all", len(got), len(seen), len(g.Results))
	}
	// Costs 100× apart: apart on charts, whatever their number.
	cb := SeriesGroups(callbackFile(1))
	if len(cb) != 2 || !slices.Equal(cb[1].Labels, []string{"pipe", "channel"}) || !strings.HasPrefix(cb[1].Name, "medians ") {
		t.Errorf("SeriesGroups(callback) = %+v, want the slow variants on a chart of their own", cb)
	}
	// No varying parameter to split by: consecutive chunks.
	for i := range g.Results {
		g.Results[i].Params = nil
	}
	chunks := SeriesGroups(g)
	if len(chunks) != 3 || chunks[0].Name != "configurations 1–12 of 36" || len(chunks[2].Labels) != 12 {
		t.Errorf("chunks = %d groups, first %q", len(chunks), chunks[0].Name)
	}
}

func TestScaleGroups(t *testing.T) {
	t.Parallel()
	got := ScaleGroups(callbackFile(1))
	if len(got) != 2 {
		t.Fatalf("ScaleGroups(callback) = %+v, want the fast variants and the two slow ones apart", got)
	}
	if !slices.Equal(got[0].Labels, []string{"plain", "cthread", "spin"}) || !slices.Equal(got[1].Labels, []string{"pipe", "channel"}) {
		t.Errorf("groups %q and %q", got[0].Labels, got[1].Labels)
	}
	if !strings.Contains(got[0].Name, "ns per call") {
		t.Errorf("group name %q does not give its range", got[0].Name)
	}
	// Costs spread evenly over 30×: one group, one chart.
	if got := ScaleGroups(gridFile(1)); len(got) != 1 || got[0].Name != "" {
		t.Errorf("ScaleGroups(grid) = %d groups, want one unnamed", len(got))
	}
}
