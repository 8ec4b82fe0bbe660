package document

import (
	"testing"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/report/internal/golden"
)

// TestGolden pins REPORT.md (without drawing its charts) and the README's
// results block of the results files in ../testdata/results (copies of
// results/*.json), as `make report` writes them, byte for byte. go test
// -run TestGolden -update rewrites the golden files after a change meant
// to move the output.
func TestGolden(t *testing.T) {
	t.Parallel()
	names, files := golden.Results(t, "../testdata/results")
	var headed []*harness.File
	var headedNames []string
	for i, f := range files {
		analysis.Annotate(f) // as `rootbench report` does
		if rel := analysis.Relate(f); f.Workload == "msgpass" && rel.Basis == analysis.BasisTime && rel.Incumbent != "" {
			headed, headedNames = append(headed, f), append(headedNames, "results/"+names[i])
		}
	}
	dir := t.TempDir()
	if err := write(dir, files, names, false); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, ReportName, readReport(t, dir))
	block, err := Headline(headed, headedNames)
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "headline.md", block)
}
