package analysis

import (
	"math"
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"
)

func TestBlockBootstrapIndexesProperties(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		m := rapid.IntRange(1, 60).Draw(t, "m")
		n := rapid.IntRange(0, 300).Draw(t, "n")
		block := rapid.SampledFrom([]int{1, 2, 4, 6, 8}).Draw(t, "block")
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 0))
		idx, err := BlockBootstrapIndexes(rng, m, n, block)
		if err != nil {
			t.Fatal(err)
		}
		if len(idx) != n {
			t.Fatalf("%d indexes, want %d", len(idx), n)
		}
		even := m - m%2
		for j, x := range idx {
			switch {
			case x < 0 || x >= m:
				t.Fatalf("index %d at %d: out of [0, %d)", x, j, m)
			case m >= 2 && x%2 != j%2:
				t.Fatalf("index %d at position %d: the pair's order (parity) is not kept", x, j)
			case m >= 2 && block > 1 && x >= even:
				t.Fatalf("index %d at %d: beyond the even count %d the circular blocks use", x, j, even)
			case m >= 2 && block > 1 && j%block != 0 && x != (idx[j-1]+1)%even:
				t.Fatalf("indexes %v: %d follows %d inside a block of %d", idx, x, idx[j-1], block)
			}
		}
	})
}

// Every recorded pair the resampler can draw is drawn about equally often:
// 1/m of the draws (single draws), 1/even (circular blocks).
func TestBlockBootstrapIndexesUniform(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 7))
	for _, c := range []struct{ m, block, reach int }{{10, 1, 10}, {11, 1, 11}, {10, 4, 10}, {11, 4, 10}, {12, 6, 12}} {
		const n = 60_000
		idx, err := BlockBootstrapIndexes(rng, c.m, n, c.block)
		if err != nil {
			t.Fatal(err)
		}
		count := make([]int, c.m)
		for _, x := range idx {
			count[x]++
		}
		for x := range c.m {
			want := 0.0
			if x < c.reach {
				want = float64(n) / float64(c.reach)
				if c.block == 1 && c.m%2 == 1 { // parity classes of unequal size
					want = float64(n) / 2 / float64((c.m-x%2+1)/2)
				}
			}
			if got := float64(count[x]); got < 0.9*want || got > 1.1*want || (want == 0 && got > 0) {
				t.Errorf("m %d block %d: index %d drawn %v times, want about %.0f", c.m, c.block, x, got, want)
			}
		}
	}
}

func TestBlockBootstrapIndexesRefuses(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 1))
	for _, c := range []struct{ m, n, block int }{{0, 4, 2}, {4, -1, 2}, {4, 4, 3}, {4, 4, 0}} {
		if _, err := BlockBootstrapIndexes(rng, c.m, c.n, c.block); err == nil {
			t.Errorf("BlockBootstrapIndexes(m %d, n %d, block %d) accepted", c.m, c.n, c.block)
		}
	}
	idx, err := BlockBootstrapIndexes(rng, 1, 5, 4)
	if err != nil || len(idx) != 5 {
		t.Fatalf("one recorded pair: %v, %v", idx, err)
	}
	for _, x := range idx {
		if x != 0 {
			t.Fatalf("one recorded pair: drew %v", idx)
		}
	}
}

// The median's bootstrap error of independent normal values is close to
// the asymptotic sqrt(π/2)·σ/sqrt(n); it is 0 for constant values, fewer
// than two values or a block that is not 1 or even.
func TestMedianBootstrapError(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 5))
	const n, sigma = 400, 0.02
	d := make([]float64, n)
	for i := range d {
		d[i] = sigma * rng.NormFloat64()
	}
	want := math.Sqrt(math.Pi/2) * sigma / math.Sqrt(n)
	for _, block := range []int{1, 4} {
		if got := MedianBootstrapError(d, block); got < 0.7*want || got > 1.3*want {
			t.Errorf("block %d: %v, want about %v", block, got, want)
		}
	}
	if got := MedianBootstrapError(d, 4); got != MedianBootstrapError(d, 4) {
		t.Errorf("two calls on the same values differ: the resamples are not seeded")
	}
	for _, c := range []struct {
		d     []float64
		block int
	}{{[]float64{1, 1, 1, 1}, 2}, {[]float64{1}, 1}, {d, 3}} {
		if got := MedianBootstrapError(c.d, c.block); got != 0 {
			t.Errorf("MedianBootstrapError(%v, %d) = %v, want 0", c.d[:min(len(c.d), 4)], c.block, got)
		}
	}
}
