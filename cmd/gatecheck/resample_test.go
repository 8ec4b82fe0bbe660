package main

import (
	"testing"

	"github.com/rootbench/rootbench/analysis"
)

// The default number of synthetic sessions bounds a 1% rate (per session,
// and so per row too) at 1.5% (the 95% Wilson upper bound).
func TestDefaultSessionsBoundOnePercent(t *testing.T) {
	n := defaultReplaySessions
	if _, hi := analysis.WilsonInterval(n/100, n); hi > 0.015 {
		t.Errorf("%d sessions: 1%% has the upper bound %.4f, want at most 0.015", n, hi)
	}
}
