package cli

import (
	"strings"
	"testing"
)

func TestWrapWriter(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	w := newWrapWriter(&b, 20)
	if _, err := w.Write([]byte("ab: one two three four five six\n    head seven\n")); err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if len(l) > 20 {
			t.Errorf("line %q is wider than 20 columns:\n%s", l, b.String())
		}
	}
	if !strings.Contains(b.String(), "\n    ") || !strings.HasSuffix(b.String(), "\n    head seven\n") {
		t.Errorf("continuations not indented, or a line lost:\n%s", b.String())
	}
	if newWrapWriter(&b, 0) != &b {
		t.Error("with no terminal width, the writer should be the one given")
	}
}

// TestWrapMessage: an error wraps line by line on a terminal and stays
// whole elsewhere.
func TestWrapMessage(t *testing.T) {
	t.Parallel()
	msg := "rootbench: inconclusive after 109 runs per side in 14.9 s (budget): undecided: ocaml, boxroot-handle\nsecond line"
	if got := wrapMessage(msg, 0); got != msg {
		t.Errorf("no terminal: %q", got)
	}
	want := "rootbench: inconclusive after 109 runs per side in 14.9 s\n  (budget): undecided: ocaml, boxroot-handle\nsecond line"
	if got := wrapMessage(msg, 60); got != want {
		t.Errorf("60 columns:\n%s\nwant\n%s", got, want)
	}
}
