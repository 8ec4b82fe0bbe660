package analysis

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/harness"
)

func TestLayoutShiftIsStudentsT(t *testing.T) {
	t.Parallel()
	nan := math.NaN()
	s := newLayoutShift([]float64{0.01, 0.03, 0.02}, []float64{nan, nan, nan})
	// mean 0.02, sample sd 0.01, se 0.01/sqrt(3); t(2) 97.5% = 4.302652729749464.
	se := 0.01 / math.Sqrt(3)
	lo, hi := s.interval(1, 0.05)
	if want := 0.02 - 4.302652729749464*se; math.Abs(lo-want) > 1e-12 {
		t.Errorf("lo = %v, want %v", lo, want)
	}
	if want := 0.02 + 4.302652729749464*se; math.Abs(hi-want) > 1e-12 {
		t.Errorf("hi = %v, want %v", hi, want)
	}
	// t = 3.4641 on 2 degrees of freedom: p = 1 - 3.4641/sqrt(2 + 3.4641^2) = 0.074180.
	if p := s.pValue(); math.Abs(p-0.0741799) > 1e-6 {
		t.Errorf("p = %v, want 0.0741799", p)
	}
}

// The interval excludes zero exactly when the p-value is at most the level,
// so a row's verdict and its interval always agree.
func TestLayoutShiftIntervalMatchesTest(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 7))
	for range 2000 {
		k := 2 + rng.IntN(8)
		ys := make([]float64, k)
		sq := make([]float64, k)
		for i := range ys {
			ys[i] = 0.02*rng.NormFloat64() + 0.01
			sq[i] = math.Pow(0.01*rng.Float64(), 2)
		}
		s := newLayoutShift(ys, sq)
		mult := float64(1 + rng.IntN(4))
		lo, hi := s.interval(mult, 0.05)
		excludes := lo > 0 || hi < 0
		if p := s.pValue(); excludes != (p <= 0.05/mult) && math.Abs(p-0.05/mult) > 1e-9 {
			t.Fatalf("ys %v: interval [%v, %v] and p %v at level %v disagree", ys, lo, hi, p, 0.05/mult)
		}
	}
}

// Layouts that agree by chance do not narrow the interval below what the
// sessions' own noise allows.
func TestLayoutShiftFloor(t *testing.T) {
	t.Parallel()
	s := newLayoutShift([]float64{0.030, 0.031, 0.030}, []float64{0.02 * 0.02, 0.02 * 0.02, math.NaN()})
	if want := 0.02 / math.Sqrt(3); math.Abs(s.se-want) > 1e-12 {
		t.Errorf("se = %v, want the sessions' %v", s.se, want)
	}
	wide := newLayoutShift([]float64{-0.05, 0.05, 0}, []float64{1e-8, 1e-8, 1e-8})
	if want := 0.05 / math.Sqrt(3); math.Abs(wide.se-want) > 1e-12 {
		t.Errorf("se = %v, want the layouts' spread %v", wide.se, want)
	}
}

// layoutSessions simulates one A/B session per layout of a change that
// multiplies the time by 1+change: each layout's pair of builds is off by
// its own factor (normal, sd tau, in log), and each run by uniform noise of
// ±noise; runs are paired by index.
func layoutSessions(rng *rand.Rand, k, runs int, change, tau, noise float64) []LayoutSession {
	var out []LayoutSession
	for l := range k {
		effect := math.Log1p(change) + tau*rng.NormFloat64()
		var bs, hs []float64
		for range runs {
			drift := 1 + 0.05*rng.Float64() // the machine, common to a pair
			bs = append(bs, drift*(1+noise*(2*rng.Float64()-1)))
			hs = append(hs, drift*math.Exp(effect)*(1+noise*(2*rng.Float64()-1)))
		}
		out = append(out, LayoutSession{
			Layout: string(rune('a' + l)),
			Base:   fixture(spec{Label: "x", Samples: bs}),
			Head:   fixture(spec{Label: "x", Samples: hs}),
		})
	}
	return out
}

// On simulated layouts the combined test keeps its false-alarm rate (no
// change, a layout spread three times the runs' noise) and finds a planted
// slowdown of three times the spread.
func TestLayoutShiftCalibrated(t *testing.T) {
	t.Parallel()
	skipCalibrationInShort(t, "1500 simulated sets of layouts")
	rng := rand.New(rand.NewPCG(1, 2))
	const trials = 1500
	var alarms, passes, found int
	for range trials {
		c, err := CompareLayouts(layoutSessions(rng, 4, 8, 0, 0.03, 0.01), Options{Threshold: 0.05})
		if err != nil {
			t.Fatal(err)
		}
		if c.Rows[0].Verdict != Same {
			alarms++
		}
		if c.Rows[0].Gate == Pass {
			passes++
		}
		c, err = CompareLayouts(layoutSessions(rng, 6, 8, 0.15, 0.03, 0.01), Options{Threshold: 0.05})
		if err != nil {
			t.Fatal(err)
		}
		if c.Rows[0].Gate == Regression {
			found++
		}
	}
	// alpha 0.05: the binomial's sd over 1500 trials is 0.0056.
	if rate := float64(alarms) / trials; rate > 0.05+3*0.0056 {
		t.Errorf("false alarms in %d of %d A/A comparisons (%.3f), beyond alpha 0.05", alarms, trials, rate)
	}
	if rate := float64(found) / trials; rate < 0.9 {
		t.Errorf("a 15%% slowdown found in %d of %d (%.3f)", found, trials, rate)
	}
	t.Logf("A/A: %d false alarms, %d passes of %d; 15%% slowdown found %d times", alarms, passes, trials, found)
}

func TestCompareLayoutsRows(t *testing.T) {
	t.Parallel()
	same := noisy(3, 8, 1, 0.01)
	mk := func(layout string, head []float64) LayoutSession {
		return LayoutSession{Layout: layout,
			Base: fixture(spec{Label: "a", Samples: same}, spec{Label: "b", Samples: same}),
			Head: fixture(spec{Label: "a", Samples: head}, spec{Label: "b", Samples: head})}
	}
	ss := []LayoutSession{mk("0", scaled(same, 1.30)), mk("5", scaled(same, 1.32)), mk("9", scaled(same, 1.31))}
	ss[2].Head.Results = ss[2].Head.Results[:1] // b is missing in layout 9
	c, err := CompareLayouts(ss, Options{Threshold: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	if c.Mode != ModeLayouts || strings.Join(c.Layouts, ",") != "0,5,9" {
		t.Errorf("mode %q, layouts %v", c.Mode, c.Layouts)
	}
	if len(c.Rows) != 2 {
		t.Fatalf("%d rows, want 2", len(c.Rows))
	}
	a, b := c.Rows[0], c.Rows[1]
	if a.Layouts != 3 || b.Layouts != 2 || a.Pairs != 24 {
		t.Errorf("layouts %d and %d, pairs %d", a.Layouts, b.Layouts, a.Pairs)
	}
	if math.Abs(a.Delta-0.31) > 0.005 || a.Gate != Regression || a.MoreRuns != 0 {
		t.Errorf("row a: delta %v, gate %s, more runs %d", a.Delta, a.Gate, a.MoreRuns)
	}
	if !strings.Contains(strings.Join(b.Warnings, ";"), "measured in 2 of 3 layouts (0, 5)") {
		t.Errorf("row b's warnings: %q", b.Warnings)
	}
	if _, err := CompareLayouts(ss[:1], Options{}); err == nil || !strings.Contains(err.Error(), "at least two layouts") {
		t.Errorf("one session: %v", err)
	}
	only := []LayoutSession{mk("0", same), {Layout: "5", Base: fixture(spec{Label: "z", Samples: same}), Head: fixture(spec{Label: "z", Samples: same})}}
	if _, err := CompareLayouts(only, Options{}); err == nil || !strings.Contains(err.Error(), "no benchmark measured in two layouts") {
		t.Errorf("no common row: %v", err)
	}
	var nilHead = []LayoutSession{mk("0", same), {Layout: "5", Base: &harness.File{}}}
	if _, err := CompareLayouts(nilHead, Options{}); err == nil || !strings.Contains(err.Error(), "layout 5") {
		t.Errorf("a session without head: %v", err)
	}
}
