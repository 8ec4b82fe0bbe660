package cli

import (
	"strings"
	"testing"
)

func TestListShowsEveryCell(t *testing.T) {
	t.Parallel()
	r := inProcess(t, "list")
	r.Must(t, 0)
	for _, want := range []string{"ocaml", "direct", "ref", "ocaml-ref", "generational", "cgo-handle", "boxroot", "bxboxed", "bx-boxed", "boxroot-boxed", "boxroot:force-remote", "boxroot:no-reuse", "boxroot:eager-remote", "boxroot:locked-remote", "boxroot-handle"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("list lacks %q", want)
		}
	}
	if strings.Contains(r.Stdout, "faulty:") {
		t.Errorf("list shows test-only cells:\n%s", r.Stdout)
	}
}

func TestListFitsEightyColumns(t *testing.T) {
	t.Parallel()
	r := inProcess(t, "list")
	r.Must(t, 0)
	for i, l := range strings.Split(r.Stdout, "\n") {
		if len(l) > 80 { // bytes, as awk 'length > 80' counts them
			t.Errorf("line %d is %d bytes wide: %q", i+1, len(l), l)
		}
	}
}
