package cgohandle_test

import (
	"strings"
	"testing"

	"github.com/rootbench/rootbench/impls/cgohandle"
)

// TestAvailability holds in both builds: the cell is available exactly when
// there is no reason it is not, and the reason names cgo.
func TestAvailability(t *testing.T) {
	t.Parallel()
	if cgohandle.Available != (cgohandle.Unavailable == "") {
		t.Fatalf("Available = %v but Unavailable = %q", cgohandle.Available, cgohandle.Unavailable)
	}
	if !cgohandle.Available && !strings.Contains(cgohandle.Unavailable, "CGO_ENABLED=0") {
		t.Errorf("Unavailable = %q, want it to say the build lacks cgo (CGO_ENABLED=0)", cgohandle.Unavailable)
	}
}
