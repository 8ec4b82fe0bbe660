//go:build rootbench_faulty

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A planted slowdown on the head side of one cell (ROOTBENCH_SLOW, honoured
// by test builds only) is found and named; the cell left alone is not. The
// slowdown is large (3x) so that the check holds under -race on a loaded
// machine; make gate-check measures the detection rate of small ones.
//
// The cell left alone is an A/A row: the test fails if it raises a false
// alarm, which --alpha bounds. At 0.01 that was about one run of the suite
// in a hundred, and make test runs it twice; at 0.001 it is one in a
// thousand. A 3x slowdown over 24 pairs is still far beyond that level.
func TestABFindsAPlantedSlowdown(t *testing.T) {
	fullSuiteOnly(t, "plants a slowdown")
	t.Parallel()
	r := rootbench(t, nil, plantedSession("--base", os.Args[0], "--cell", "ocaml,boxroot")...)
	r.Must(t, exitFailed)
	var verdict string
	for _, l := range strings.Split(r.Stderr, "\n") {
		if strings.Contains(l, "regression beyond the gate in:") {
			verdict = l
		}
	}
	if !strings.Contains(verdict, "boxroot") || strings.Contains(verdict, "ocaml") {
		t.Errorf("the verdict line %q should name boxroot and only boxroot\nstderr:\n%s", verdict, r.Stderr)
	}
	// One binary on both sides: no two layouts to caution about.
	if strings.Contains(r.Stdout, "function layout") {
		t.Errorf("a session of one binary against itself printed the layout note:\n%s", r.Stdout)
	}
}

// plantedSession is the ab command line of the planted-slowdown tests: a
// 3x slowdown of boxroot on the head side, judged at 12 and 24 pairs
// against a 10% gate at alpha 0.001, then the test's own flags.
func plantedSession(flags ...string) []string {
	return append([]string{"ab", "--niters", "50", "--head-env", "ROOTBENCH_SLOW=boxroot=200%",
		"--looks", "12,24", "--max-time", "2m", "--fail-on-regression", "10%", "--alpha", "0.001"}, flags...)
}

// Under a significant row of two different builds, ab says that the verdict
// is about the builds as linked (layoutNote). The head here is the test
// binary with bytes appended: a different file that runs the same.
func TestABNotesLayoutOfTwoBuilds(t *testing.T) {
	fullSuiteOnly(t, "plants a slowdown")
	t.Parallel()
	self, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	head := filepath.Join(t.TempDir(), "rootbench-head")
	if err := os.WriteFile(head, append(self, "another build"...), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"text", "markdown"} {
		r := rootbench(t, nil, plantedSession("--base", os.Args[0], "--head", head, "--cell", "boxroot",
			"--format", format, "--no-gc-table")...)
		r.Must(t, exitFailed)
		if !strings.Contains(strings.Join(strings.Fields(r.Stdout), " "), "function layout alone has moved rows") {
			t.Errorf("%s: no layout note under a significant row of two builds:\n%s", format, r.Stdout)
		}
	}
}
