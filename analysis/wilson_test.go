package analysis

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
	"pgregory.net/rapid"
)

func TestWilsonInterval(t *testing.T) {
	t.Parallel()
	// Known values: 0 of 100 -> [0, 3.70%]; 50 of 100 -> [40.4%, 59.6%].
	for _, c := range []struct {
		k, n   int
		lo, hi float64
	}{{0, 100, 0, 0.0370}, {50, 100, 0.4038, 0.5962}, {100, 100, 0.9630, 1}} {
		lo, hi := WilsonInterval(c.k, c.n)
		if math.Abs(lo-c.lo) > 5e-4 || math.Abs(hi-c.hi) > 5e-4 {
			t.Errorf("WilsonInterval(%d, %d) = [%.4f, %.4f], want [%.4f, %.4f]", c.k, c.n, lo, hi, c.lo, c.hi)
		}
	}
	if lo, hi := WilsonInterval(0, 0); lo != 0 || hi != 1 {
		t.Errorf("WilsonInterval(0, 0) = [%v, %v], want [0, 1]", lo, hi)
	}
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 10_000).Draw(t, "n")
		k := rapid.IntRange(0, n).Draw(t, "k")
		lo, hi := WilsonInterval(k, n)
		p := float64(k) / float64(n)
		if !(0 <= lo && lo <= p+1e-12 && p-1e-12 <= hi && hi <= 1) {
			t.Fatalf("WilsonInterval(%d, %d) = [%v, %v] does not hold %v within [0, 1]", k, n, lo, hi, p)
		}
	})
}

func TestWilsonZIsTheNormalQuantile(t *testing.T) {
	t.Parallel()
	want := distuv.UnitNormal.Quantile(1 - (1-WilsonConfidence)/2)
	if math.Abs(wilsonZ-want) > 1e-12 {
		t.Errorf("wilsonZ = %v, the normal quantile at %v is %v", wilsonZ, 1-(1-WilsonConfidence)/2, want)
	}
}
