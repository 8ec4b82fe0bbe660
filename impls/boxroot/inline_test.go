package boxroot

import (
	"os/exec"
	"regexp"
	"testing"
)

// TestIntendedInlining checks that the fast paths still inline: the local
// create+delete figure depends on it, and an edit that adds a node or two
// would lose it silently (compare the Go project's own
// TestIntendedInlining). Create and Delete are at the budget (80) with
// their fast paths (create, delete) inlined into them, so both are listed.
// It asks the compiler, as go build -gcflags=-m=2.
func TestIntendedInlining(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the compiler with -m=2: skipped in -short (the full suite runs it)")
	}
	t.Parallel()
	out, err := exec.Command("go", "build", "-gcflags=-m=2", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m=2: %v\n%s", err, out)
	}
	for _, fn := range []string{"(*Domain).create", "(*Domain).Create", "(*Domain).delete", "(*Domain).Delete", "(*Domain).Get", "(*Impl).Get", "Handle.Value"} {
		q := regexp.QuoteMeta(fn)
		if !regexp.MustCompile(`can inline ` + q + ` with cost`).Match(out) {
			t.Errorf("%s no longer inlines; the compiler says %q", fn,
				regexp.MustCompile(`cannot inline `+q+`: [^\n]*`).Find(out))
		}
	}
}
