package rootbench_test

import (
	"os"
	"strings"
	"testing"

	"github.com/rootbench/rootbench"
	"github.com/rootbench/rootbench/impls/boxroot"
	"github.com/rootbench/rootbench/impls/ref"
	"github.com/rootbench/rootbench/internal/cli/clitest"
	"github.com/rootbench/rootbench/workload/callback"
)

// The test binary doubles as a program built on rootbench (package
// clitest): with clitest.AsCLI set it runs Main with a cell and a handle of
// its own, so the workers the harness starts (re-executing os.Executable())
// are this program too. ROOTBENCH_TEST_COLLIDE adds a cell named after a
// built-in.
func TestMain(m *testing.M) {
	if clitest.IsCLI() {
		opts := []rootbench.Option{
			rootbench.WithCell("test-own", "a ref cell registered by a program", ref.New),
			rootbench.WithHandle("test-own", "boxroot's drop-in handles, registered by a program", boxrootHandle{}),
		}
		if name := os.Getenv("ROOTBENCH_TEST_COLLIDE"); name != "" {
			opts = append(opts, rootbench.WithCell(name, "a cell whose name is taken", ref.New))
		}
		rootbench.Main(opts...)
		os.Exit(0)
	}
	clitest.Isolate()
	os.Exit(m.Run())
}

// boxrootHandle is boxroot's drop-in API as a RootHandle.
type boxrootHandle struct{}

func (boxrootHandle) New(v any) uintptr   { return uintptr(boxroot.NewHandle(v)) }
func (boxrootHandle) Value(h uintptr) any { return boxroot.Handle(h).Value() }
func (boxrootHandle) Delete(h uintptr)    { boxroot.Handle(h).Delete() }

// program runs this test binary as the program, with args.
func program(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	r := clitest.Run(t, nil, env, args...)
	return r.Stdout, r.Stderr, r.Code
}

func TestProgramRunsItsOwnCellInItsWorkers(t *testing.T) {
	t.Parallel()
	stdout, stderr, code := program(t, nil, "run", "--cell", "test-own,ocaml", "--runs", "1", "--niters", "20", "--style", "basic")
	if code != 0 {
		t.Fatalf("exit status %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"Benchmark 1: test-own", "Summary", "test-own"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	stdout, _, code = program(t, nil, "list")
	if code != 0 || !strings.Contains(stdout, "test-own") || !strings.Contains(stdout, "a ref cell registered by a") {
		t.Errorf("list (exit %d) does not show the program's cell:\n%s", code, stdout)
	}
}

func TestProgramRunsItsOwnHandle(t *testing.T) {
	t.Parallel()
	if !callback.Available {
		t.Log("not exercised: the callback workload needs cgo")
		return
	}
	stdout, stderr, code := program(t, nil, "callback", "--variant", "plain", "--handle", "test-own,none", "--calls", "2000", "--runs", "1", "--style", "basic")
	if code != 0 || !strings.Contains(stdout, "handle=test-own") {
		t.Fatalf("exit status %d, want 0 and a handle=test-own row\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// A cell whose name is taken stops the program with one line and exit 2,
// whoever holds the name. The holders' descriptions are package impls'
// (its tests check each kind); -short runs a built-in and the program's
// own cell, a process each.
func TestNameCollisionIsOneLineAndExit2(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"BoxRoot":  "the built-in cell boxroot",
		"cgo":      `the built-in cell cgo-handle (alias "cgo")`,
		"test-own": "cell test-own",
		"all":      `reserved word "all"`,
	}
	if testing.Short() {
		delete(cases, "cgo")
		delete(cases, "all")
	}
	for name, holder := range cases {
		stdout, stderr, code := program(t, []string{"ROOTBENCH_TEST_COLLIDE=" + name}, "list")
		if code != 2 || stdout != "" {
			t.Errorf("%s: exit status %d with stdout %q; want 2 and nothing run", name, code, stdout)
		}
		if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, holder) || !strings.Contains(stderr, `"`+name+`"`) {
			t.Errorf("%s: stderr %q; want one line naming %q and %s", name, stderr, name, holder)
		}
	}
}
