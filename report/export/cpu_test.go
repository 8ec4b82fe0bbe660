package export

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/harness"
)

// withCPU is the fixture with the CPU time of the measured passes on the
// first result's runs: 2 ns per cell of CPU for each ns of wall time.
func withCPU() *harness.File {
	f := fixture()
	r := &f.Results[0]
	for k := range r.Runs {
		r.Runs[k].CPUUserNs, r.Runs[k].CPUSysNs = r.Runs[k].WallNs*3/2, r.Runs[k].WallNs/2
	}
	return f
}

// The CPU time per unit of work reaches every export that carries a
// summary, as analysis computes it, and only files that have it get a
// column for it.
func TestExportsCarryCPU(t *testing.T) {
	t.Parallel()
	f := withCPU()
	r := &f.Results[0]
	var cells, cpu int64
	for _, run := range r.Runs {
		cells += run.Cells
		cpu += run.CPUNs()
	}
	want := num(float64(cpu) / float64(cells))

	var b bytes.Buffer
	if err := CSV(&b, f); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := -1
	for i, h := range rows[0] {
		if h == "cpu_ns_per_cell" {
			col = i
		}
	}
	if col < 0 || rows[1][col] != want || rows[2][col] != "" || rows[0][col-1] != "ns_per_cell" {
		t.Errorf("CSV: cpu_ns_per_cell column %d in %v; rows %v, %v; want %s after ns_per_cell, then empty", col, rows[0], rows[1], rows[2], want)
	}

	b.Reset()
	if err := Markdown(&b, f); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "| CPU ns/cell |") {
		t.Errorf("Markdown lacks the CPU column:\n%s", b.String())
	}

	b.Reset()
	if err := JSON(&b, f); err != nil {
		t.Fatal(err)
	}
	back, err := harness.Decode(&b, "export")
	if err != nil {
		t.Fatal(err)
	}
	got := back.Results[0]
	if num(got.CPUNsPerCell) != want || got.Runs[0].CPUUserNs != r.Runs[0].CPUUserNs || got.Runs[0].CPUSysNs != r.Runs[0].CPUSysNs {
		t.Errorf("JSON: cpu_ns_per_cell %v, run 0 CPU %d+%d; want %s and the runs' own", got.CPUNsPerCell, got.Runs[0].CPUUserNs, got.Runs[0].CPUSysNs, want)
	}

	// A file without CPU time (schema v1, or builds before it) has no
	// such column.
	b.Reset()
	if err := CSV(&b, fixture()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "cpu_ns_per_cell") {
		t.Errorf("CSV of a file without CPU time has its column:\n%s", b.String())
	}
	b.Reset()
	if err := Markdown(&b, fixture()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "CPU") {
		t.Errorf("Markdown of a file without CPU time has its column:\n%s", b.String())
	}
}
