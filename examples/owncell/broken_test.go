package main

import (
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"

	"example.com/owncell/mytable"
	"github.com/rootbench/rootbench"
	"github.com/rootbench/rootbench/cell"
	"github.com/rootbench/rootbench/cell/celltest"
)

// What a new user sees when their table is wrong: two bugs planted in
// mytable, each caught by the conformance kit and by a benchmark run, each
// with one line that says what went wrong.

// bug is a planted bug, one operation in a thousand.
type bug int

const (
	wrongValue bug = iota + 1 // Get returns a value nobody rooted
	leak                      // Delete forgets the cell: it stays live and rooted
)

// broken is mytable with a bug.
type broken struct {
	*mytable.Table // Live comes from the table: it counts the forgotten cells
	bug            bug
	ops            atomic.Int64
}

func newBroken(b bug) func() cell.Impl[mytable.Handle] {
	return func() cell.Impl[mytable.Handle] { return &broken{Table: &mytable.Table{}, bug: b} }
}

func (b *broken) NewDomain() cell.Domain[mytable.Handle] {
	return brokenDomain{b.Table.NewDomain(), b}
}

type brokenDomain struct {
	cell.Domain[mytable.Handle]
	b *broken
}

func (d brokenDomain) Get(h mytable.Handle) any {
	v := d.Domain.Get(h)
	if d.b.bug == wrongValue && d.b.ops.Add(1)%1000 == 0 {
		return new(int)
	}
	return v
}

func (d brokenDomain) Delete(h mytable.Handle) {
	if d.b.bug == leak && d.b.ops.Add(1)%1000 == 0 {
		return
	}
	d.Domain.Delete(h)
}

var brokenTables = map[string]bug{"mytable-wrong-value": wrongValue, "mytable-leak": leak}

// TestMain makes the test binary this program with the broken tables as
// extra cells when OWNCELL_AS_CLI is set (the benchmark's workers re-execute
// it, so they have them too).
func TestMain(m *testing.M) {
	if os.Getenv("OWNCELL_AS_CLI") == "1" {
		opts := []rootbench.Option{rootbench.WithCell("mytable", "the table", mytable.New)}
		for name, b := range brokenTables {
			opts = append(opts, rootbench.WithCell(name, "mytable with a planted bug", newBroken(b)))
		}
		rootbench.Main(opts...)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestBrokenConformance is the conformance test a user would write, run on
// the broken table OWNCELL_BROKEN names; TestConformanceCatchesBugs runs it
// in a child process and reads its failure. Without the variable it checks
// nothing: it exists to be run that way.
func TestBrokenConformance(t *testing.T) {
	name := os.Getenv("OWNCELL_BROKEN")
	if name == "" {
		return
	}
	celltest.Run(t, "mytable", newBroken(brokenTables[name]), celltest.Detects(celltest.AllMisuse))
}

// child runs this test binary with args and env, and returns its output
// and exit status.
func child(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	// Failed runs keep their logs in the temporary directory: the test's own.
	cmd.Env = append(append(os.Environ(), "TMPDIR="+t.TempDir()), env...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil && cmd.ProcessState == nil {
		t.Fatalf("%v: %v", args, err) // it did not start
	}
	return out.String(), errb.String(), cmd.ProcessState.ExitCode()
}

// linesWith returns the lines of s that contain every one of words.
func linesWith(s string, words ...string) []string {
	var out []string
	for l := range strings.Lines(s) {
		all := true
		for _, w := range words {
			all = all && strings.Contains(l, w)
		}
		if all {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return out
}

func TestConformanceCatchesBugs(t *testing.T) {
	for name, want := range map[string]string{
		"mytable-wrong-value": "Get returned",
		"mytable-leak":        "cells created and not deleted",
	} {
		stdout, stderr, code := child(t, []string{"OWNCELL_BROKEN=" + name}, "-test.run=^TestBrokenConformance$")
		lines := linesWith(stdout, "mytable: ", want)
		if code != 1 || len(lines) == 0 {
			t.Errorf("%s: exit status %d; want 1 and a line naming it and saying %q:\n%s%s", name, code, want, stdout, stderr)
			continue
		}
		t.Logf("%s: celltest says: %s", name, lines[0])
	}
}

func TestRunCatchesBugs(t *testing.T) {
	for name, want := range map[string]string{
		"mytable-wrong-value": "wrong value",
		"mytable-leak":        "cells still live after the run (leak)",
	} {
		stdout, stderr, code := child(t, []string{"OWNCELL_AS_CLI=1", "CELL=" + name, "NITERS=50"}, "run", "--runs", "1", "--style", "basic")
		lines := linesWith(stderr, name, want)
		if code != 1 || len(lines) != 1 {
			t.Errorf("%s: exit status %d; want 1 and one line on stderr naming it and saying %q:\n%s%s", name, code, want, stdout, stderr)
			continue
		}
		t.Logf("%s: the run says: %s", name, lines[0])
	}
}
