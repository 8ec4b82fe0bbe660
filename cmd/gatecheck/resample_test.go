package main

import (
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"
)

func TestDrawIndexesProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := rapid.IntRange(1, 60).Draw(t, "m")
		n := rapid.IntRange(0, 300).Draw(t, "n")
		block := rapid.SampledFrom([]int{1, 2, 4, 6, 8}).Draw(t, "block")
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 0))
		idx, err := drawIndexes(rng, m, n, block)
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
func TestDrawIndexesUniform(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, c := range []struct{ m, block, reach int }{{10, 1, 10}, {11, 1, 11}, {10, 4, 10}, {11, 4, 10}, {12, 6, 12}} {
		const n = 60_000
		idx, err := drawIndexes(rng, c.m, n, c.block)
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

func TestDrawIndexesRefuses(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, c := range []struct{ m, n, block int }{{0, 4, 2}, {4, -1, 2}, {4, 4, 3}, {4, 4, 0}} {
		if _, err := drawIndexes(rng, c.m, c.n, c.block); err == nil {
			t.Errorf("drawIndexes(m %d, n %d, block %d) accepted", c.m, c.n, c.block)
		}
	}
	idx, err := drawIndexes(rng, 1, 5, 4)
	if err != nil || len(idx) != 5 {
		t.Fatalf("one recorded pair: %v, %v", idx, err)
	}
	for _, x := range idx {
		if x != 0 {
			t.Fatalf("one recorded pair: drew %v", idx)
		}
	}
}

// The default number of synthetic sessions bounds a 1% rate (per session,
// and so per row too) at 1.5% (the 95% Wilson upper bound).
func TestDefaultSessionsBoundOnePercent(t *testing.T) {
	n := defaultReplaySessions
	if _, hi := wilson(n/100, n); hi > 0.015 {
		t.Errorf("%d sessions: 1%% has the upper bound %.4f, want at most 0.015", n, hi)
	}
}
