package stats

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func near(a, b float64) bool {
	return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b))
}

func TestDescribe(t *testing.T) {
	t.Parallel()
	// By hand: mean 20/5 = 4; squared deviations 9+4+1+0+36 = 50; sample
	// variance 50/4 = 12.5; stddev sqrt(12.5); median 3; CV sqrt(12.5)/4.
	xs := []float64{3, 1, 10, 2, 4}
	orig := slices.Clone(xs)
	s := Describe(xs)
	want := Summary{N: 5, Mean: 4, Stddev: math.Sqrt(12.5), Median: 3, Min: 1, Max: 10, CV: math.Sqrt(12.5) / 4}
	if s.N != want.N || !near(s.Mean, want.Mean) || !near(s.Stddev, want.Stddev) || !near(s.Median, want.Median) ||
		s.Min != want.Min || s.Max != want.Max || !near(s.CV, want.CV) {
		t.Errorf("Describe(%v) = %+v, want %+v", orig, s, want)
	}
	if !slices.Equal(xs, orig) {
		t.Errorf("Describe modified its input: %v, was %v", xs, orig)
	}
}

func TestDescribeSmall(t *testing.T) {
	t.Parallel()
	if s := Describe(nil); s != (Summary{}) {
		t.Errorf("Describe(nil) = %+v, want the zero Summary", s)
	}
	s := Describe([]float64{2.5})
	if s.N != 1 || s.Mean != 2.5 || s.Stddev != 0 || s.Median != 2.5 || s.Min != 2.5 || s.Max != 2.5 || s.CV != 0 {
		t.Errorf("Describe([2.5]) = %+v, want mean=median=min=max=2.5 and stddev=CV=0", s)
	}
}

func TestMedian(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		xs   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{7}, 7},
		{[]float64{4, 1, 3, 2}, 2.5}, // even: mean of 2 and 3
		{[]float64{5, 1, 3}, 3},
		{[]float64{1, 1, 100, 100}, 50.5},
	} {
		if got := Median(c.xs); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.xs, got, c.want)
		}
	}
}

func TestModifiedZScores(t *testing.T) {
	t.Parallel()
	// median 3; absolute deviations 2,1,0,1,7 -> MAD 1; z = x-3.
	z := ModifiedZScores([]float64{1, 2, 3, 4, 10})
	want := []float64{-2, -1, 0, 1, 7}
	for i := range want {
		if !near(z[i], want[i]) {
			t.Fatalf("ModifiedZScores = %v, want %v", z, want)
		}
	}
	// median 3 with deviations 1,0,1,2,97 -> sorted 0,1,1,2,97, MAD 1.
	z = ModifiedZScores([]float64{2, 3, 4, 1, 100})
	if !near(z[4], 97) {
		t.Errorf("z of 100 in [2 3 4 1 100] = %v, want 97", z[4])
	}
	if ModifiedZScores(nil) != nil {
		t.Errorf("ModifiedZScores(nil) should be nil")
	}
}

func TestOutliers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		xs    []float64
		flags []bool
		slow  bool
	}{
		// z = -2,-1,0,1,7: all within 14.826.
		{"none", []float64{1, 2, 3, 4, 10}, []bool{false, false, false, false, false}, false},
		// hyperfine's case: median 0.30, MAD 0.01, z of 0.5 = 20 > 14.826,
		// and it is the first run: slow first run.
		{"slow first", []float64{0.5, 0.30, 0.29, 0.31, 0.30}, []bool{true, false, false, false, false}, true},
		// The same outlier later is not a slow first run.
		{"slow later", []float64{0.30, 0.29, 0.5, 0.31, 0.30}, []bool{false, false, true, false, false}, false},
		// median (10+10)/2 = 10; deviations 0,.1,.1,0,.05,9 -> MAD .075;
		// z of 1 = -120: a fast outlier counts (absolute value), but is not
		// a slow first run even in first place.
		{"fast first", []float64{1, 10.1, 9.9, 10, 10.05, 10}, []bool{true, false, false, false, false, false}, false},
		// MAD 0: hyperfine's epsilon makes every differing value an outlier.
		{"mad zero", []float64{10, 10, 10, 10, 10, 10, 10, 100}, []bool{false, false, false, false, false, false, false, true}, false},
		// Within threshold: median 1, MAD 0.1 (deviations 0,.1,.1,0,1.4):
		// z of 2.4 is 14 < 14.826.
		{"just inside", []float64{1, 1.1, 0.9, 1, 2.4}, []bool{false, false, false, false, false}, false},
		// z of 2.5 is 15 > 14.826.
		{"just outside", []float64{1, 1.1, 0.9, 1, 2.5}, []bool{false, false, false, false, true}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			flags, n := Outliers(c.xs)
			if !slices.Equal(flags, c.flags) {
				t.Errorf("Outliers(%v) flags = %v, want %v", c.xs, flags, c.flags)
			}
			want := 0
			for _, f := range c.flags {
				if f {
					want++
				}
			}
			if n != want {
				t.Errorf("Outliers(%v) count = %d, want %d", c.xs, n, want)
			}
			if got := SlowFirstRun(c.xs); got != c.slow {
				t.Errorf("SlowFirstRun(%v) = %v, want %v", c.xs, got, c.slow)
			}
		})
	}
}

func TestRelative(t *testing.T) {
	t.Parallel()
	// r = 2/1 = 2; σr = 2·sqrt((0.2/2)² + (0.05/1)²) = 2·sqrt(0.0125).
	r, sd, ok := Relative(2, 0.2, 1, 0.05)
	if !ok || !near(r, 2) || !near(sd, 2*math.Sqrt(0.0125)) || !near(sd, 0.22360679774997896) {
		t.Errorf("Relative(2±0.2, 1±0.05) = %v ± %v (ok %v), want 2 ± 0.2236068", r, sd, ok)
	}
	// The inverse ratio has the same relative uncertainty.
	r, sd, ok = Relative(1, 0.05, 2, 0.2)
	if !ok || !near(r, 0.5) || !near(sd, 0.5*math.Sqrt(0.0125)) {
		t.Errorf("Relative(1±0.05, 2±0.2) = %v ± %v (ok %v), want 0.5 ± 0.0559017", r, sd, ok)
	}
	if _, _, ok := Relative(1, 0, 0, 0); ok {
		t.Errorf("Relative with a zero reference mean should not be ok")
	}
	if _, _, ok := Relative(0, 0, 1, 0); ok {
		t.Errorf("Relative with a zero mean should not be ok")
	}
}

func TestMedianCIWarnings(t *testing.T) {
	t.Parallel()
	// benchmath: a 95% interval on the median needs at least 6 samples.
	for n := 1; n <= 8; n++ {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(i + 1)
		}
		ws := MedianCIWarnings(xs, MedianConfidence)
		if n < 6 {
			if len(ws) != 1 || !strings.Contains(ws[0], "need >= 6 samples") {
				t.Errorf("n=%d: warnings %q, want one saying it needs >= 6 samples", n, ws)
			}
		} else if len(ws) != 0 {
			t.Errorf("n=%d: unexpected warnings %q", n, ws)
		}
	}
	if ws := MedianCIWarnings(nil, MedianConfidence); ws != nil {
		t.Errorf("no samples: warnings %q, want none", ws)
	}
}
