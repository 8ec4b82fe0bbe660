package main

import (
	"fmt"
	"math/rand/v2"
)

// The resampler of the replay: it draws the sequence of recorded pairs a
// synthetic session's benchmark is made of.
//
// A pair's position keeps its order: ab runs a benchmark's pairs in ABBA
// order (pair 1 base first, pair 2 head first, ...), so a drift of the
// machine within a pair pushes its log ratio one way in odd pairs and the
// other way in even ones. Every resampling here draws, for synthetic
// position j (0-based), a recorded pair of the same parity as j, so that a
// synthetic session has as many base-first as head-first pairs as a real
// one and the drift cancels, or fails to, as it does in ab.

// Resampling methods (-resample).
const (
	// resampleBlock is the moving-block bootstrap within one recorded
	// session: blocks of -block consecutive pairs, each starting at an
	// even pair, so that a synthetic session keeps the recorded session's
	// noise level and the dependence between neighbouring pairs.
	resampleBlock = "block"
	// resamplePooled draws single pairs independently from the pairs of
	// one benchmark pooled over every recorded session: what the
	// Wilcoxon signed-rank test assumes (independent pairs), with the
	// noise of the sessions averaged.
	resamplePooled = "pooled"
)

// drawIndexes returns n indexes into m recorded pairs (0 ≤ index < m) for
// the positions 0..n-1 of a synthetic sequence. block is 1 or even. With
// block 1 each index is drawn on its own, uniformly among the indexes of
// its position's parity. With an even block the indexes come in circular
// blocks: each block starts at an even index s chosen uniformly and runs
// s, s+1, ..., wrapping round from the last even-numbered count of pairs
// to 0 (an odd m leaves its last pair out), so that every pair is as
// likely to be drawn as any other and the parity holds across the wrap;
// the last block is cut at n. Every index has the parity of its position
// when m ≥ 2; with m = 1 every index is 0.
func drawIndexes(rng *rand.Rand, m, n, block int) ([]int, error) {
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
