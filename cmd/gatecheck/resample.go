package main

import "fmt"

// The resamplings of the replay: how the recorded pairs a synthetic
// session's benchmark is made of are drawn. analysis.BlockBootstrapIndexes
// draws them, each synthetic position from recorded pairs of its own
// parity, so that the ABBA order of the pairs is kept.

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

// resampling is a way of drawing the synthetic pairs (-resample, -block).
type resampling struct {
	method string
	block  int
}

// resamplings are those the report compares with the chosen one.
var resamplings = []resampling{{resampleBlock, 2}, {resampleBlock, 4}, {resampleBlock, 8}, {resamplePooled, 1}}

func (m resampling) String() string {
	if m.method == resamplePooled {
		return "single pairs pooled over the sessions"
	}
	return fmt.Sprintf("blocks of %d pairs within each session", m.block)
}
