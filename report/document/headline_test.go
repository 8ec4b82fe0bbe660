package document

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/harness"
)

// TestHeadline checks the README block on a message-passing file holding
// cgo-handle: every configuration has a row, the control is the
// reference, cgo-handle's own speed-up is 1.0 and boxroot's is its time
// ratio (the fixture makes cell i cost i+1 times the control).
func TestHeadline(t *testing.T) {
	t.Parallel()
	f := shapedFile(5, "msgpass", "cell", []string{"ocaml", "boxroot", "ref", "cgo-handle"}, nil, false)
	f.Reference = ""
	block, err := Headline([]*harness.File{f}, []string{"results/msgpass.json"})
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(block, "\n") {
		if !strings.HasPrefix(line, "|") {
			continue
		}
		var cells []string
		for _, c := range strings.Split(strings.Trim(line, "|"), "|") {
			cells = append(cells, strings.TrimSpace(c))
		}
		rows[cells[0]] = cells
	}
	if h := strings.Join(rows["Configuration"], " | "); h != "Configuration | Mean ns/cell | CV | Relative | × faster than cgo-handle" {
		t.Errorf("header %q", h)
	}
	for cell, want := range map[string][2]string{"ocaml": {"1.00 (reference)", "4.0"}, "boxroot": {"", "2.0"}, "cgo-handle": {"", "1.0"}} {
		r := rows[cell]
		if len(r) != 5 {
			t.Fatalf("no row for %s:\n%s", cell, block)
		}
		if want[0] != "" && r[3] != want[0] {
			t.Errorf("%s relative %q, want %q", cell, r[3], want[0])
		}
		if r[4] != want[1] {
			t.Errorf("%s against cgo-handle %q, want %q", cell, r[4], want[1])
		}
	}
}

// TestUpdateHeadline checks that only the text between the markers
// changes, and that a file without them is refused untouched.
func TestUpdateHeadline(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "README.md")
	before := "# title\n\nintro\n" + HeadlineBegin + "\nold figures\n" + HeadlineEnd + "\n\nafter\n"
	if err := os.WriteFile(path, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := UpdateHeadline(path, "new figures\n"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	want := "# title\n\nintro\n" + HeadlineBegin + "\nnew figures\n" + HeadlineEnd + "\n\nafter\n"
	if string(got) != want {
		t.Errorf("updated file:\n%s\nwant:\n%s", got, want)
	}
	bare := filepath.Join(dir, "bare.md")
	os.WriteFile(bare, []byte("no markers\n"), 0o644)
	if err := UpdateHeadline(bare, "x"); err == nil || !strings.Contains(err.Error(), "markers") {
		t.Errorf("a file without markers: err = %v, want one naming the markers", err)
	}
	if got, _ := os.ReadFile(bare); string(got) != "no markers\n" {
		t.Errorf("a refused file was changed: %q", got)
	}
}
