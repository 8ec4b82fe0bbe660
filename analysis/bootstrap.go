package analysis

// This file resamples paired runs: a circular moving-block bootstrap that
// keeps each pair's place in ab's ABBA order, and the standard error of a
// median it gives.
//
// What it assumes: the series resampled is stationary (its distribution
// does not change along it, within one recorded session), and the
// dependence between its values fades within a block's length, so that
// blocks of consecutive values drawn at random carry the dependence that
// matters and independent draws of single values (a block of 1) are right
// only for independent values.
//
// ab runs a benchmark's pairs in ABBA order (pair 1 base first, pair 2 head
// first, ...), so a drift of the machine within a pair pushes its log ratio
// one way in odd pairs and the other way in even ones. Every draw here
// gives synthetic position j (0-based) a recorded value of the same parity
// as j, so that a resampled series has as many base-first as head-first
// pairs as a real one, and the drift cancels, or fails to, as it does in
// ab.

import (
	"fmt"
	"math/rand/v2"

	"github.com/rootbench/rootbench/harness/stats"
	"gonum.org/v1/gonum/stat"
)

// BlockBootstrapIndexes returns n indexes into m recorded values
// (0 ≤ index < m) for the positions 0..n-1 of a resampled series, drawn
// from rng. block is 1 or even. With block 1 each index is drawn on its
// own, uniformly among the indexes of its position's parity. With an even
// block the indexes come in circular blocks: each block starts at an even
// index s chosen uniformly and runs s, s+1, ..., wrapping round from the
// last even-numbered count of values to 0 (an odd m leaves its last value
// out), so that every value is as likely to be drawn as any other and the
// parity holds across the wrap; the last block is cut at n. Every index
// has the parity of its position when m ≥ 2; with m = 1 every index is 0.
// The draws from rng, and so the indexes for a given seed, are part of
// the contract: replays made with one seed stay reproducible.
func BlockBootstrapIndexes(rng *rand.Rand, m, n, block int) ([]int, error) {
	switch {
	case m < 1:
		return nil, fmt.Errorf("no recorded pair to draw from")
	case n < 0:
		return nil, fmt.Errorf("%d pairs asked for", n)
	case block < 1 || (block > 1 && block%2 != 0):
		return nil, fmt.Errorf("block %d: must be 1 or even", block)
	}
	out := make([]int, n)
	if m == 1 {
		return out, nil
	}
	if block == 1 {
		for j := range out {
			p := j % 2
			// The indexes of parity p below m: p, p+2, ...
			out[j] = p + 2*rng.IntN((m-p+1)/2)
		}
		return out, nil
	}
	even := m - m%2
	for j := 0; j < n; j += block {
		s := 2 * rng.IntN(even/2)
		for k := 0; k < block && j+k < n; k++ {
			out[j+k] = (s + k) % even
		}
	}
	return out, nil
}

// medianResamples is how many block resamples MedianBootstrapError takes.
const medianResamples = 200

// MedianBootstrapError is the standard error of the median of d (the
// median as harness/stats computes it): the standard deviation of the
// median over 200 circular block resamples of d (BlockBootstrapIndexes,
// blocks of block values), seeded by len(d) so that the figure is
// reproducible. It is 0 when d has fewer than 2 values or block is not
// 1 or even.
func MedianBootstrapError(d []float64, block int) float64 {
	if len(d) < 2 {
		return 0
	}
	rng := rand.New(rand.NewPCG(uint64(len(d)), 1))
	meds := make([]float64, medianResamples)
	x := make([]float64, len(d))
	for k := range meds {
		idx, err := BlockBootstrapIndexes(rng, len(d), len(d), block)
		if err != nil {
			return 0
		}
		for j, i := range idx {
			x[j] = d[i]
		}
		meds[k] = stats.Median(x)
	}
	return stat.StdDev(meds, nil)
}
