package analysis

// This file finds candidate change points the way E-divisive means does
// (Matteson and James, "A Nonparametric Approach for Multiple Change Point
// Analysis of Multivariate Data", JASA 2014), in the form Hunter and
// Apache Otava use: inside one window of the series, the split that makes
// the two sides most different by the energy distance is tested with
// ChangePoints' t-test; if it passes the level, the window is split there
// and the search goes on in the pieces, most divergent candidate first,
// until the best remaining candidate fails (changepoint.go runs the windows
// and the merge).
//
// The divergence, with exponent 1 on one-dimensional values: for a left
// piece X = z[σ:τ] (n points) and a right piece Y = z[τ:κ] (m points),
//
//	Ê(X, Y) = 2/(n·m)·Σ|x − y| − Σ_{pairs in X}|x − x'|/C(n,2) − Σ_{pairs in Y}|y − y'|/C(m,2)
//	Q(σ, τ, κ) = n·m/(n+m) · Ê(X, Y)
//
// (a within term with fewer than two points is 0). Matteson and James fix
// the left piece at the start of the interval and let the right piece end
// anywhere (κ), so that a later change does not blur the one at τ. Here
// τ's score is the larger of that and its mirror, the right piece fixed at
// the end of the interval and the left one starting anywhere (σ), so that
// an earlier change does not blur it either, and so that the search reads
// the series the same forwards and backwards: a series and its reverse
// give mirrored candidates. The candidate is the τ of the largest score
// (the first on a tie). Pieces of one point are allowed on both sides, so
// a step right after the first point or right before the last is a
// candidate too.
//
// What it assumes: nothing about the values' distribution (the energy
// distance compares whole distributions); the t-test that accepts or
// rejects a candidate is what assumes normal noise (changepoint.go).
//
// Cost: every sum of pairwise distances comes from one table W of the
// window's within-range sums (W[a][b] = Σ_{a ≤ i < j < b}|z_i − z_j|,
// filled in O(w²)), so each (σ, τ, κ) costs O(1) and an interval of L
// points O(L²).

import (
	"math"
	"slices"
)

// pairSums is the table W of one window's values z: at(a, b) is the sum
// of |z_i − z_j| over a ≤ i < j < b (local indices, 0 ≤ a ≤ b ≤ len(z)).
type pairSums struct {
	n int
	w []float64 // (n+1)×(n+1), row a, column b
}

// newPairSums fills the table: W[a][b] = W[a][b−1] + Σ_{a ≤ i < b−1}|z_i − z_{b−1}|,
// the inner sum built from i = b−2 down to a.
func newPairSums(z []float64) pairSums {
	n := len(z)
	p := pairSums{n: n, w: make([]float64, (n+1)*(n+1))}
	for b := 1; b <= n; b++ {
		c := b - 1
		col := 0.0
		for a := c; a >= 0; a-- {
			if a < c {
				col += math.Abs(z[a] - z[c])
			}
			p.w[a*(n+1)+b] = p.w[a*(n+1)+b-1] + col
		}
	}
	return p
}

func (p pairSums) at(a, b int) float64 { return p.w[a*(p.n+1)+b] }

// divergence is Q(σ, τ, κ) for the pieces z[σ:τ] and z[τ:κ], both non-empty.
func (p pairSums) divergence(sigma, tau, kappa int) float64 {
	n, m := float64(tau-sigma), float64(kappa-tau)
	left, right := p.at(sigma, tau), p.at(tau, kappa)
	between := p.at(sigma, kappa) - left - right
	e := 2 * between / (n * m)
	if n > 1 {
		e -= left / (n * (n - 1) / 2)
	}
	if m > 1 {
		e -= right / (m * (m - 1) / 2)
	}
	return n * m / (n + m) * e
}

// candidate is the best split of z[a:b] (local indices, b − a ≥ 2): the
// first point of the right piece, and its score.
type candidate struct {
	tau   int
	score float64
}

// bestSplit is the candidate of z[a:b]: the τ in (a, b) whose score is
// largest, the first such τ on a tie. τ's score is the largest divergence
// with the left piece from a and the right piece ending anywhere (κ in
// (τ, b]), or with the right piece to b and the left starting anywhere (σ
// in [a, τ)).
func (p pairSums) bestSplit(a, b int) candidate {
	best := candidate{tau: -1, score: math.Inf(-1)}
	for tau := a + 1; tau < b; tau++ {
		score := math.Inf(-1)
		for kappa := tau + 1; kappa <= b; kappa++ {
			score = math.Max(score, p.divergence(a, tau, kappa))
		}
		for sigma := a; sigma < tau; sigma++ {
			score = math.Max(score, p.divergence(sigma, tau, b))
		}
		if score > best.score {
			best = candidate{tau: tau, score: score}
		}
	}
	return best
}

// minSplitPoints is the shortest piece that is searched for a split: the
// t-test of a split of three points has one degree of freedom, of two
// none, so a piece of two would always fail and end the search early.
const minSplitPoints = 3

// span is the half-open range [from, to) of series points.
type span struct{ from, to int }

// splitWindow runs the divisive search on the window win of the series
// (global indices) and returns the first points of the splits it
// accepted, in increasing order. accept tests the split of the piece
// [from, to) at tau (global indices), cuts being the window's accepted
// splits and tau in increasing order, and says whether it passes the
// relaxed level.
func splitWindow(z []float64, win span, accept func(cuts []int, from, tau, to int) bool) []int {
	sums := newPairSums(z[win.from:win.to])
	type piece struct {
		span
		cand candidate
	}
	mk := func(from, to int) piece {
		pc := piece{span: span{from, to}, cand: candidate{tau: -1, score: math.Inf(-1)}}
		if to-from >= minSplitPoints {
			pc.cand = sums.bestSplit(from-win.from, to-win.from)
			pc.cand.tau += win.from
		}
		return pc
	}
	pieces := []piece{mk(win.from, win.to)}
	var taus []int
	for {
		best := -1
		for i, pc := range pieces {
			if pc.cand.tau >= 0 && (best < 0 || pc.cand.score > pieces[best].cand.score) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		pc := pieces[best]
		at, _ := slices.BinarySearch(taus, pc.cand.tau)
		cuts := slices.Insert(slices.Clone(taus), at, pc.cand.tau)
		if !accept(cuts, pc.from, pc.cand.tau, pc.to) {
			break
		}
		taus = cuts
		left, right := mk(pc.from, pc.cand.tau), mk(pc.cand.tau, pc.to)
		pieces = append(pieces[:best], append([]piece{left, right}, pieces[best+1:]...)...)
	}
	return taus
}

// windows are the windows the split step searches: the whole series when
// it has at most length points, else windows of length points whose starts
// are at most half a window apart from 0 to n − length, spread evenly and
// placed symmetrically (the k-th from the end mirrors the k-th from the
// start), so that every pair of points closer than half a window shares a
// window and the reversed series gets the mirrored windows.
func windows(n, length int) []span {
	if n <= length {
		return []span{{0, n}}
	}
	last := n - length
	// k windows, their starts last/(k−1) ≤ step − 1 apart before rounding:
	// the left half rounds down and the right half, as its mirror, up, so
	// neighbouring starts end at most step apart.
	step := length / 2
	k := (last+step-2)/(step-1) + 1
	if k%2 == 1 && last%2 == 1 {
		k++ // a middle window mirrors itself only when last is even
	}
	starts := make([]int, k)
	for j := 0; j <= (k-1)/2; j++ {
		starts[j] = j * last / (k - 1)
		starts[k-1-j] = last - starts[j]
	}
	out := make([]span, k)
	for j, s := range starts {
		out[j] = span{s, s + length}
	}
	return out
}
