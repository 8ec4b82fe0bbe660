package analysis

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// levelSeries is one run per point: levels[i]·(1 + cv·ε), ε standard
// normal from a fixed seed.
func levelSeries(seed uint64, cv float64, levels ...float64) []SeriesPoint {
	rng := rand.New(rand.NewPCG(seed, 7))
	pts := make([]SeriesPoint, len(levels))
	for i, l := range levels {
		pts[i] = SeriesPoint{Values: []float64{l * (1 + cv*rng.NormFloat64())}}
	}
	return pts
}

// steps is n1 points at l1, n2 at l2, and so on: steps(20, 100, 20, 120).
func steps(pairs ...float64) []float64 {
	var out []float64
	for i := 0; i < len(pairs); i += 2 {
		for range int(pairs[i]) {
			out = append(out, pairs[i+1])
		}
	}
	return out
}

func indices(cps []ChangePoint) []int {
	out := make([]int, len(cps))
	for i, c := range cps {
		out[i] = c.Index
	}
	return out
}

func mustChangePoints(t interface {
	Helper()
	Fatal(...any)
}, pts []SeriesPoint, o ChangePointOptions) []ChangePoint {
	t.Helper()
	cps, err := ChangePoints(pts, o)
	if err != nil {
		t.Fatal(err)
	}
	return cps
}

func TestChangePointsClearStep(t *testing.T) {
	t.Parallel()
	cps := mustChangePoints(t, levelSeries(1, 0.01, steps(20, 100, 20, 120)...), ChangePointOptions{})
	if got := indices(cps); !slices.Equal(got, []int{20}) {
		t.Fatalf("change points at %v, want [20]", got)
	}
	c := cps[0]
	if c.From != 0 || c.To != 40 || c.LastGood >= 20 || c.FirstBad < 20 || c.LastGood < 17 || c.FirstBad > 23 {
		t.Errorf("segments [%d, %d), range %d..%d: want [0, 40) and a range around 19..20", c.From, c.To, c.LastGood, c.FirstBad)
	}
	if math.Abs(c.Ratio-1.2) > 0.02 || !(c.Lo < c.Ratio && c.Ratio < c.Hi) || c.Lo <= 1 {
		t.Errorf("ratio %v [%v, %v], want about 1.2 inside an interval above 1", c.Ratio, c.Lo, c.Hi)
	}
	if math.Abs(c.Before-100) > 1 || math.Abs(c.After-120) > 1.2 || math.Abs(c.Percent()-100*(c.Ratio-1)) > 1e-12 {
		t.Errorf("before %v, after %v, %v%%: want about 100 and 120", c.Before, c.After, c.Percent())
	}
	if c.P > 1e-10 {
		t.Errorf("p = %v for a 20%% step in 1%% noise", c.P)
	}
}

func TestChangePointsNoneInConstantSeries(t *testing.T) {
	t.Parallel()
	for _, pts := range [][]SeriesPoint{
		levelSeries(1, 0, steps(60, 100)...),
		levelSeries(2, 0.03, steps(60, 100)...),
		nil,
		levelSeries(3, 0.03, 100),
		levelSeries(4, 0, 100, 200),
	} {
		if cps := mustChangePoints(t, pts, ChangePointOptions{}); len(cps) != 0 {
			t.Errorf("%d points: change points at %v, want none", len(pts), indices(cps))
		}
	}
}

func TestChangePointsTwoSteps(t *testing.T) {
	t.Parallel()
	cps := mustChangePoints(t, levelSeries(5, 0.01, steps(30, 100, 30, 115, 30, 100)...), ChangePointOptions{})
	if got := indices(cps); !slices.Equal(got, []int{30, 60}) {
		t.Fatalf("change points at %v, want [30 60]", got)
	}
	if cps[0].To != 60 || cps[1].From != 30 || cps[0].Ratio <= 1 || cps[1].Ratio >= 1 {
		t.Errorf("segments and ratios: %+v", cps)
	}
}

func TestChangePointsStepAtTheEnds(t *testing.T) {
	t.Parallel()
	// The first step of a history can be between its first two commits.
	cps := mustChangePoints(t, levelSeries(6, 0.02, steps(1, 100, 29, 170)...), ChangePointOptions{})
	if got := indices(cps); !slices.Equal(got, []int{1}) || cps[0].LastGood != 0 {
		t.Fatalf("change points %+v, want one at 1 with last good 0", cps)
	}
	cps = mustChangePoints(t, levelSeries(6, 0.02, steps(29, 170, 1, 100)...), ChangePointOptions{})
	if got := indices(cps); !slices.Equal(got, []int{29}) || cps[0].FirstBad != 29 {
		t.Fatalf("change points %+v, want one at 29 with first bad 29", cps)
	}
}

func TestChangePointsStepAfterTheFirstBesideAShortStretch(t *testing.T) {
	t.Parallel()
	// +70% after the first point, the next two points high by chance: the
	// split step also cuts after them, and the merge must keep the step,
	// whose test against a segment of two points pools the variance of
	// the whole series.
	vals := []float64{1.036, 1.829, 1.780, 1.598, 1.639, 1.690, 1.712, 1.729, 1.748, 1.725, 1.771, 1.750, 1.738, 1.668,
		1.676, 1.693, 1.612, 1.679, 1.746, 1.639, 1.690, 1.695, 1.734, 1.709, 1.684, 1.641, 1.789, 1.689, 1.668, 1.712,
		1.786, 1.655, 1.720, 1.655, 1.666, 1.749, 1.709, 1.717, 1.729, 1.643}
	pts := make([]SeriesPoint, len(vals))
	for i, v := range vals {
		pts[i].Values = []float64{v}
	}
	cps := mustChangePoints(t, pts, ChangePointOptions{})
	if len(cps) == 0 || cps[0].Index != 1 || cps[0].LastGood != 0 {
		t.Fatalf("change points %+v, want the first at 1 with last good 0", cps)
	}
}

func TestChangePointsMedianOfRuns(t *testing.T) {
	t.Parallel()
	// One wild run in a point of three moves its median little: no change.
	pts := levelSeries(7, 0.01, steps(40, 100)...)
	for i := range pts {
		pts[i].Values = append(pts[i].Values, 100, 101)
	}
	pts[20].Values[0] = 500
	if cps := mustChangePoints(t, pts, ChangePointOptions{}); len(cps) != 0 {
		t.Errorf("change points at %v, want none", indices(cps))
	}
}

func TestChangePointsMinMagnitude(t *testing.T) {
	t.Parallel()
	pts := levelSeries(8, 0.002, steps(30, 100, 30, 101)...)
	if got := indices(mustChangePoints(t, pts, ChangePointOptions{})); !slices.Equal(got, []int{30}) {
		t.Fatalf("change points at %v, want [30]", got)
	}
	if cps := mustChangePoints(t, pts, ChangePointOptions{MinMagnitude: 0.02}); len(cps) != 0 {
		t.Errorf("a 1%% step with a 2%% minimum: change points at %v, want none", indices(cps))
	}
}

func TestChangePointsBadInput(t *testing.T) {
	t.Parallel()
	ok := levelSeries(9, 0.01, steps(5, 100)...)
	for _, tc := range []struct {
		pts  []SeriesPoint
		o    ChangePointOptions
		want string
	}{
		{append(slices.Clone(ok), SeriesPoint{}), ChangePointOptions{}, "point 5 has no values"},
		{append(slices.Clone(ok), SeriesPoint{Values: []float64{1, 0}}), ChangePointOptions{}, "point 5, value 1 is 0"},
		{[]SeriesPoint{{Values: []float64{math.NaN()}}}, ChangePointOptions{}, "value 0 is NaN"},
		{[]SeriesPoint{{Values: []float64{math.Inf(1)}}}, ChangePointOptions{}, "is +Inf"},
		{ok, ChangePointOptions{StrictLevel: 1}, "strict level 1 is outside"},
		{ok, ChangePointOptions{StrictLevel: 0.01, RelaxedLevel: 0.001}, "relaxed level 0.001"},
		{ok, ChangePointOptions{Window: 3}, "window 3 is below 4"},
		{ok, ChangePointOptions{MinMagnitude: -0.1}, "minimum magnitude -0.1"},
		{ok, ChangePointOptions{Observations: 7}, "unknown observations 7"},
	} {
		_, err := ChangePoints(tc.pts, tc.o)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one containing %q", tc.o, err, tc.want)
		}
	}
}

func TestChangePointOptionsDefaults(t *testing.T) {
	t.Parallel()
	o, err := ChangePointOptions{}.withDefaults()
	if err != nil || o.StrictLevel != DefaultChangePointStrictLevel || o.Window != DefaultChangePointWindow ||
		o.RelaxedLevel != DefaultChangePointRelaxedFactor*DefaultChangePointStrictLevel {
		t.Errorf("defaults %+v, %v", o, err)
	}
	if o, _ := (ChangePointOptions{StrictLevel: 0.3}).withDefaults(); o.RelaxedLevel != 0.5 {
		t.Errorf("strict 0.3: relaxed %v, want the cap 0.5", o.RelaxedLevel)
	}
	if o, _ := (ChangePointOptions{StrictLevel: 0.7}).withDefaults(); o.RelaxedLevel != 0.7 {
		t.Errorf("strict 0.7: relaxed %v, want the strict level", o.RelaxedLevel)
	}
}

// randomSteps draws a series with up to three steps (each ±5 to 40%) in
// 1 to 5% noise, one to three runs a point, all from rapid's draws.
func randomSteps(t *rapid.T) []SeriesPoint {
	n := rapid.IntRange(2, 150).Draw(t, "n")
	cv := rapid.Float64Range(0.01, 0.05).Draw(t, "cv")
	rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 0))
	levels := make([]float64, n)
	for i := range levels {
		levels[i] = 1
	}
	for range rapid.IntRange(0, 3).Draw(t, "steps") {
		at := rapid.IntRange(1, max(1, n-1)).Draw(t, "at")
		f := rapid.Float64Range(1.05, 1.4).Draw(t, "factor")
		if rapid.Bool().Draw(t, "down") {
			f = 1 / f
		}
		for i := at; i < n; i++ {
			levels[i] *= f
		}
	}
	runs := rapid.IntRange(1, 3).Draw(t, "runs")
	pts := make([]SeriesPoint, n)
	for i, l := range levels {
		for range runs {
			pts[i].Values = append(pts[i].Values, l*math.Exp(cv*rng.NormFloat64()))
		}
	}
	return pts
}

func TestChangePointsInvariantToScale(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		pts := randomSteps(t)
		c := rapid.Float64Range(1e-6, 1e6).Draw(t, "scale")
		scaled := make([]SeriesPoint, len(pts))
		for i, p := range pts {
			for _, v := range p.Values {
				scaled[i].Values = append(scaled[i].Values, c*v)
			}
		}
		a, b := mustChangePoints(t, pts, ChangePointOptions{}), mustChangePoints(t, scaled, ChangePointOptions{})
		if len(a) != len(b) {
			t.Fatalf("change points at %v, scaled by %v at %v", indices(a), c, indices(b))
		}
		for i := range a {
			x, y := a[i], b[i]
			if x.Index != y.Index || x.LastGood != y.LastGood || x.FirstBad != y.FirstBad || x.From != y.From || x.To != y.To ||
				!relClose(x.Ratio, y.Ratio) || !relClose(x.Lo, y.Lo) || !relClose(x.Hi, y.Hi) || !relClose(x.P, y.P) || !relClose(c*x.Before, y.Before) {
				t.Fatalf("change point %d: %+v, scaled by %v: %+v", i, x, c, y)
			}
		}
	})
}

func TestChangePointsMirrorTheReversedSeries(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		pts := randomSteps(t)
		n := len(pts)
		rev := slices.Clone(pts)
		slices.Reverse(rev)
		a, b := mustChangePoints(t, pts, ChangePointOptions{}), mustChangePoints(t, rev, ChangePointOptions{})
		if len(a) != len(b) {
			t.Fatalf("change points at %v, reversed at %v", indices(a), indices(b))
		}
		for i := range a {
			x, y := a[i], b[len(b)-1-i]
			if y.Index != n-x.Index || y.LastGood != n-1-x.FirstBad || y.FirstBad != n-1-x.LastGood ||
				y.From != n-x.To || y.To != n-x.From || !relClose(x.Ratio, 1/y.Ratio) || !relClose(x.P, y.P) {
				t.Fatalf("change point %+v, reversed %+v (n = %d)", x, y, n)
			}
		}
	})
}

func TestChangePointsReportWhatTheyPassed(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		pts := randomSteps(t)
		o := ChangePointOptions{StrictLevel: rapid.SampledFrom([]float64{0.001, 0.003, 0.05}).Draw(t, "level")}
		cps := mustChangePoints(t, pts, o)
		prev := 0
		for i, c := range cps {
			if c.From != prev || c.Index <= c.From || c.To <= c.Index || c.LastGood < c.From-1 || c.LastGood >= c.Index ||
				c.FirstBad < c.Index || c.FirstBad >= c.To {
				t.Fatalf("change point %d: %+v after %d: indices out of order", i, c, prev)
			}
			if i+1 < len(cps) && c.To != cps[i+1].Index || i+1 == len(cps) && c.To != len(pts) {
				t.Fatalf("change point %d ends its segment at %d", i, c.To)
			}
			if c.P > o.StrictLevel || !(c.Lo > 1 || c.Hi < 1) || !(c.Lo <= c.Ratio && c.Ratio <= c.Hi) {
				t.Fatalf("change point %d: p %v at level %v, ratio %v [%v, %v]", i, c.P, o.StrictLevel, c.Ratio, c.Lo, c.Hi)
			}
			prev = c.Index
		}
	})
}

// relClose: equal within 1e-6, relatively (a scaled or reversed series sums
// in another order, and a t tail with one degree of freedom magnifies it).
func relClose(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-6*math.Max(math.Abs(a), math.Abs(b))
}
