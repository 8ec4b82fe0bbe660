package analysis

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/internal/harnesstest"
)

// spec is one result of a fixture: a label and its samples in seconds.
type spec = harnesstest.Spec

// fixture builds a results file holding the given samples as runs, with
// the harness's statistics.
func fixture(specs ...spec) *harness.File {
	f := harnesstest.Add(harnesstest.File(), specs...)
	harness.Summarize(f)
	return f
}

// noisy and scaled draw and scale samples (see harnesstest).
var noisy, scaled = harnesstest.Noisy, harnesstest.Scaled

func writeJSON(t testing.TB, path string, f *harness.File) {
	t.Helper()
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// lacking is those of wants that text does not contain.
func lacking(text string, wants ...string) []string {
	return slices.DeleteFunc(wants, func(w string) bool { return strings.Contains(text, w) })
}
