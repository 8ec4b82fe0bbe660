// Package golden serves the tests that pin report's output byte for byte:
// it loads the results files they render and compares what they render with
// golden files, which `go test -run TestGolden -update` rewrites after a
// change meant to move the output.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/harness"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden from the current output")

// Results loads every dir/*.json.gz (copies of the committed results
// files) and returns them with their names, "msgpass.json" for
// dir/msgpass.json.gz, in name order.
func Results(t testing.TB, dir string) (names []string, files []*harness.File) {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.json.gz"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no results files in %s: %v", dir, err)
	}
	for _, path := range paths {
		f, err := harness.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		names, files = append(names, strings.TrimSuffix(filepath.Base(path), ".gz")), append(files, f)
	}
	return names, files
}

// Check compares got with testdata/golden/name, or writes it there under
// -update. A difference names the first line that differs.
func Check(t testing.TB, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run TestGolden -update writes it)", err)
	}
	if got == string(want) {
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := range min(len(gl), len(wl)) {
		if gl[i] != wl[i] {
			t.Errorf("%s differs from %s at line %d:\n got: %q\nwant: %q", name, path, i+1, gl[i], wl[i])
			return
		}
	}
	t.Errorf("%s differs from %s in length: %d lines, want %d", name, path, len(gl), len(wl))
}
