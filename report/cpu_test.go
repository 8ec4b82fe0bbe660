package report

import (
	"bytes"
	"strings"
	"testing"
)

// --cpu's column: shown when asked, beside ns/cell, in every narrowing
// (the table still fits 80 columns with the incumbent's); a result whose
// runs did not measure CPU time reads Missing; each benchmark's block gets
// its line.
func TestSummaryCPUColumn(t *testing.T) {
	t.Parallel()
	f := wideFile()
	for i := range f.Results[:4] { // cgo-handle's runs did not measure it
		for k := range f.Results[i].Runs {
			run := &f.Results[i].Runs[k]
			run.CPUUserNs, run.CPUSysNs = 2*run.WallNs, run.WallNs/4
		}
	}
	without := render(t, func(b *bytes.Buffer, o Options) { Summary(b, f, o) }, Options{})
	if strings.Contains(without, "cpu-ns") {
		t.Errorf("the CPU column without --cpu:\n%s", without)
	}
	for _, cols := range []int{0, 100, 80} {
		got := render(t, func(b *bytes.Buffer, o Options) { Summary(b, f, o) }, Options{Width: cols, CPU: true})
		table := got[:strings.Index(got, "└")]
		if !strings.Contains(table, "cpu-ns") || (cols > 0 && TextWidth(table) > cols) {
			t.Errorf("width %d: want the CPU column in a table that fits:\n%s", cols, got)
		}
		row := strings.Split(table, "\n")[lineIndex(table, "│ cgo-handle")]
		if !strings.Contains(row, " "+Missing+" │") { // the only figure cgo-handle lacks
			t.Errorf("width %d: cgo-handle's row does not read %s for its CPU time: %q", cols, Missing, row)
		}
	}
	// ocaml's runs: 2.25 ns of CPU per ns of wall time.
	ocaml := &f.Results[1]
	var b bytes.Buffer
	Benchmark(&b, f, 2, ocaml, Options{CPU: true})
	if want := "CPU per cell:"; !strings.Contains(b.String(), want) {
		t.Errorf("the benchmark's block lacks %q:\n%s", want, b.String())
	}
	b.Reset()
	Benchmark(&b, f, 2, ocaml, Options{})
	if strings.Contains(b.String(), "CPU per") {
		t.Errorf("the benchmark's block has the CPU line without --cpu:\n%s", b.String())
	}
}
