package report

import (
	"bytes"
	"strings"
	"testing"
)

// rowCells returns the cells of the table row whose label is name.
func rowCells(t *testing.T, out, name string) []string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		parts := strings.Split(l, "│")
		if len(parts) > 2 && strings.TrimSpace(parts[1]) == name {
			var cells []string
			for _, p := range parts[2 : len(parts)-1] {
				cells = append(cells, strings.TrimSpace(p))
			}
			return cells
		}
	}
	t.Fatalf("no row %q in\n%s", name, out)
	return nil
}

func TestGCTable(t *testing.T) {
	t.Parallel()
	r := result("boxroot batch-size=16", 1.2, 0.158, 1.0, 1.4, 1.0, 1.2, 1.1, 1.4, 1.3, 9.9)
	r.Runs[5].Failed = true // its 9.9 s must not count
	got := render(t, func(b *bytes.Buffer, o Options) { GCTable(b, &r, o) }, Options{})

	lines := strings.Split(got, "\n")
	if lines[0] != "GC: boxroot batch-size=16 (5 successful runs)" {
		t.Errorf("title = %q", lines[0])
	}
	if !strings.HasPrefix(lines[1], "┌") || !strings.HasPrefix(lines[4], "├") || !strings.HasPrefix(lines[9], "└") {
		t.Errorf("not a box table with a two-line header:\n%s", got)
	}
	names, units := strings.Fields(strings.NewReplacer("│", " ").Replace(lines[2])), strings.Fields(strings.NewReplacer("│", " ").Replace(lines[3]))
	if strings.Join(names, " ") != "total time gc cycles gc time gc cpu total pause max pause stopping time peak heap peak RSS" {
		t.Errorf("header names = %q", names)
	}
	if strings.Join(units, " ") != "ms ms % ms ms µs MB MB" {
		t.Errorf("header units = %q", units)
	}
	// Runs 0-4 of the fixture: walls 1.0 1.2 1.1 1.4 1.3 s; cycles 10+i;
	// GC CPU 100+10i ms; total pause 0 (not set);
	// gc cpu 5+i %; max pause 0.25+0.01i ms; stopping 1+0.1i µs; peak heap
	// 4+0.5i MB; peak RSS 20+i MB.
	want := map[string]string{
		"minimum": "1000 10 100 5.0 0.00 0.25 1.0 4.0 20.0",
		"median":  "1200 12 120 7.0 0.00 0.27 1.2 5.0 22.0",
		"maximum": "1400 14 140 9.0 0.00 0.29 1.4 6.0 24.0",
		"stdev":   "158 1.6 16 1.6 0.00 0.02 0.2 0.8 1.6",
	}
	for _, name := range []string{"minimum", "median", "maximum", "stdev"} {
		if cells := strings.Join(rowCells(t, got, name), " "); cells != want[name] {
			t.Errorf("%s row = %q, want %q", name, cells, want[name])
		}
	}
	if i, j := lineIndex(got, "│ minimum"), lineIndex(got, "│   stdev"); !(i == 5 && j == 8) {
		t.Errorf("rows out of place or labels not right-aligned:\n%s", got)
	}
}

func TestGCTableEdgeCases(t *testing.T) {
	t.Parallel()
	one := result("once", 1, 0, 1, 1, 1)
	got := render(t, func(b *bytes.Buffer, o Options) { GCTable(b, &one, o) }, Options{})
	if cells := rowCells(t, got, "stdev"); strings.Join(cells, "") != strings.Repeat(Missing, len(GCColumns)) {
		t.Errorf("a single run has no standard deviation: %q", cells)
	}
	none := result("broken", 0, 0, 0, 0, 1)
	none.Runs[0].Failed = true
	got = render(t, func(b *bytes.Buffer, o Options) { GCTable(b, &none, o) }, Options{})
	if !strings.Contains(got, "(0 successful runs)") || !strings.Contains(got, "no successful runs") || strings.Contains(got, "┌") {
		t.Errorf("GC table of failures only:\n%s", got)
	}
}

func TestGCSideBySide(t *testing.T) {
	t.Parallel()
	base := result("boxroot", 1, 0.01, 0.99, 1.01, 0.99, 1, 1.01)
	head := result("boxroot", 1, 0.01, 0.99, 1.01, 0.99, 1, 1.01)
	for i := range head.Runs {
		head.Runs[i].GC.Cycles *= 2
	}
	got := render(t, func(b *bytes.Buffer, o Options) { GCSideBySide(b, "boxroot", &base, &head, o) }, Options{})
	if !strings.Contains(got, "GC: boxroot (base 3 runs, head 3 runs)") {
		t.Errorf("title missing:\n%s", got)
	}
	cells := rowCells(t, got, "gc cycles")
	// base min/median/max/stdev, head min/median/max/stdev, change.
	if len(cells) != 9 || cells[0] != "10" || cells[1] != "11" || cells[4] != "20" || cells[5] != "22" || cells[8] != "+100.0%" {
		t.Errorf("gc cycles row = %q, want base 10 11 12 1, head 20 22 24 2, +100%%", cells)
	}
	got = render(t, func(b *bytes.Buffer, o Options) { GCSideBySide(b, "x", &base, nil, o) }, Options{})
	if cells := rowCells(t, got, "peak heap [MB]"); cells[0] == Missing || cells[4] != Missing || cells[8] != Missing {
		t.Errorf("a missing head shows %q", cells)
	}
	// On an 80-column terminal: the medians and their change.
	got = render(t, func(b *bytes.Buffer, o Options) { GCSideBySide(b, "boxroot", &base, &head, o) }, Options{Width: 80})
	if TextWidth(got) > 80 {
		t.Errorf("narrow GC table is %d wide:\n%s", TextWidth(got), got)
	}
	if cells := rowCells(t, got, "gc cycles"); len(cells) != 3 || cells[0] != "11" || cells[1] != "22" || cells[2] != "+100.0%" {
		t.Errorf("narrow gc cycles row = %q, want 11 22 +100%%", cells)
	}
}
