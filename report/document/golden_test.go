package document

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the current output")

// TestGolden pins REPORT.md (without drawing its charts) and the README's
// results block of the results files in ../testdata/results (copies of
// results/*.json), as `make report` writes them, byte for byte. go test
// -run TestGolden -update rewrites the golden files after a change meant
// to move the output.
func TestGolden(t *testing.T) {
	t.Parallel()
	paths, err := filepath.Glob("../testdata/results/*.json.gz")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no results files in ../testdata/results: %v", err)
	}
	var files, headed []*harness.File
	var names, headedNames []string
	for _, path := range paths {
		f, err := harness.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		analysis.Annotate(f) // as `rootbench report` does
		name := strings.TrimSuffix(filepath.Base(path), ".gz")
		files, names = append(files, f), append(names, name)
		if rel := analysis.Relate(f); f.Workload == "msgpass" && rel.Basis == analysis.BasisTime && rel.Incumbent != "" {
			headed, headedNames = append(headed, f), append(headedNames, "results/"+name)
		}
	}
	dir := t.TempDir()
	if err := write(dir, files, names, false); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, ReportName))
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, ReportName, string(got))
	block, err := Headline(headed, headedNames)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "headline.md", block)
}

// checkGolden compares got with testdata/golden/name, or writes it there
// under -update.
func checkGolden(t *testing.T, name, got string) {
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
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("%s differs from %s at line %d:\n got: %q\nwant: %q", name, path, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s differs from %s in length: %d lines, want %d", name, path, len(gl), len(wl))
	}
}
