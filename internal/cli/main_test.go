package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/internal/cli/clitest"
	"github.com/rootbench/rootbench/workload/callback"
)

// The test binary doubles as the rootbench binary (package clitest): with
// clitest.AsCLI set it runs Main, and a worker it starts records its start
// in the file workerLogEnv names, if any.
func TestMain(m *testing.M) {
	if clitest.IsCLI() {
		if log := os.Getenv(workerLogEnv); log != "" && len(os.Args) > 1 && os.Args[1] == "worker" {
			markWorkerStarted(log)
		}
		Main()
		os.Exit(0)
	}
	clitest.Isolate()
	os.Exit(m.Run())
}

// workerLogEnv names a file every worker process started by the CLI under
// test appends a line to: the proof that a refusal came before any worker.
const workerLogEnv = "ROOTBENCH_TEST_WORKER_LOG"

func markWorkerStarted(path string) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		fmt.Fprintf(os.Stderr, "test worker log %s: %v\n", path, err)
		os.Exit(99)
	}
	fmt.Fprintln(f, strings.Join(os.Args, " "))
	f.Close()
}

// fullSuiteOnly skips t in -short, the fast tier, which leaves out what
// t does (why: it runs workers, builds a git history, ...).
func fullSuiteOnly(t *testing.T, why string) {
	t.Helper()
	if testing.Short() {
		t.Skip(why + ": skipped in -short (the full suite runs it)")
	}
}

// result is what a command of the CLI did.
type result = clitest.Result

// rootbench runs the CLI with args and extra environment.
func rootbench(t *testing.T, env []string, args ...string) result {
	t.Helper()
	return clitest.Run(t, nil, env, args...)
}

// rootbenchStdin is rootbench with stdin as the CLI's standard input.
func rootbenchStdin(t *testing.T, stdin io.Reader, env []string, args ...string) result {
	t.Helper()
	return clitest.Run(t, stdin, env, args...)
}

// inProcess runs the CLI with args in this process, as Main does in its
// own: the result's standard output is what the command wrote to its
// output (cmd.OutOrStdout), its standard error the line Main prints for an
// error (whole, as on a pipe) after anything cobra wrote there, and its code
// the exit status Main exits with. Only for commands that write nothing to
// os.Stdout or os.Stderr themselves: refusals of flags and input made
// before anything runs, compare, report, list, version and help.
func inProcess(t testing.TB, args ...string) result {
	t.Helper()
	root := newRootCmd()
	var out, errb bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errb)
	r := result{}
	if err := execute(root, args); err != nil {
		r.Code = exitCode(err)
		fmt.Fprintln(&errb, "rootbench: "+err.Error())
	}
	r.Stdout, r.Stderr = out.String(), errb.String()
	return r
}

// refuse runs a command the CLI must refuse before it runs anything: in
// this process (inProcess), or in a process of its own when it needs an
// environment of its own (env not nil).
func refuse(t *testing.T, env []string, args ...string) result {
	t.Helper()
	if env != nil {
		return rootbench(t, env, args...)
	}
	return inProcess(t, args...)
}

// mustLoad loads a results file the CLI wrote, failing t when it cannot.
func mustLoad(t *testing.T, path string) *harness.File {
	t.Helper()
	f, err := harness.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// withCgoHandle returns the cells, plus cgo-handle when this build has cgo
// (without it, naming cgo-handle is refused, as TestCellAllNamesWhatItLeavesOut checks).
func withCgoHandle(cells ...string) []string {
	if callback.Available {
		cells = append(cells, "cgo-handle")
	}
	return cells
}

// callbackRefusal is what a refused callback command must say: what was
// wrong with a cgo build, that the workload needs cgo without one.
func callbackRefusal(want ...string) []string {
	if callback.Available {
		return want
	}
	return []string{"needs cgo"}
}

// refusal is bad input and what its one-line message must contain.
type refusal struct {
	env  []string
	args []string
	want []string
}

// mustRefuse runs each refusal and checks it exits 2 with one line on
// stderr, nothing on stdout, and no worker process started. The full suite
// runs every refusal as a process of its own, with a log each worker it
// starts writes to; -short runs a refusal that needs no environment of its
// own in this process (inProcess), which checks all but the workers. A
// refusal with an environment of its own goes through mustRefuseEnv.
func mustRefuse(t *testing.T, cases []refusal) {
	t.Helper()
	for _, tc := range cases {
		if tc.env != nil && testing.Short() {
			t.Fatalf("refusal %q sets the environment: give it to mustRefuseEnv", tc.args)
		}
		t.Run(refusalName(tc), func(t *testing.T) {
			t.Parallel()
			log := filepath.Join(t.TempDir(), "workers.log")
			var r result
			if testing.Short() {
				r = inProcess(t, tc.args...)
			} else {
				r = rootbench(t, append([]string{workerLogEnv + "=" + log}, tc.env...), tc.args...)
			}
			checkRefused(t, r, log, tc.want)
		})
	}
}

// mustRefuseEnv is mustRefuse for refusals that need an environment of
// their own: the full suite runs each as a process of its own
// (mustRefuse); -short runs them in this process one after another, each
// with its variables set (t.Setenv), which checks all but the workers, so
// t must not be parallel.
func mustRefuseEnv(t *testing.T, cases []refusal) {
	t.Helper()
	if !testing.Short() {
		mustRefuse(t, cases)
		return
	}
	for _, tc := range cases {
		t.Run(refusalName(tc), func(t *testing.T) {
			for _, kv := range tc.env {
				name, value, _ := strings.Cut(kv, "=")
				t.Setenv(name, value)
			}
			checkRefused(t, inProcess(t, tc.args...), filepath.Join(t.TempDir(), "workers.log"), tc.want)
		})
	}
}

// refusalName names a refusal's subtest: its environment, then its
// arguments.
func refusalName(tc refusal) string {
	return strings.Join(append(append([]string(nil), tc.env...), tc.args...), " ")
}

// checkRefused checks that r is a refusal (exit 2, one line on stderr that
// holds every want and no stack trace, nothing on stdout) and that no
// worker wrote to log.
func checkRefused(t *testing.T, r result, log string, want []string) {
	t.Helper()
	r.Must(t, exitUsage)
	if lines := strings.Split(strings.TrimRight(r.Stderr, "\n"), "\n"); len(lines) != 1 {
		t.Errorf("stderr has %d lines, want one:\n%s", len(lines), r.Stderr)
	}
	if r.Stdout != "" {
		t.Errorf("stdout is not empty:\n%s", r.Stdout)
	}
	if started, err := os.ReadFile(log); err == nil {
		t.Errorf("workers started before the refusal:\n%s", started)
	}
	for _, w := range want {
		if !strings.Contains(r.Stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, r.Stderr)
		}
	}
	if strings.Contains(r.Stderr, "goroutine ") {
		t.Errorf("stderr holds a Go stack trace:\n%s", r.Stderr)
	}
}

func TestVersionFlagAndCompletion(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"--version"}, {"-V"}, {"version"}} {
		r := inProcess(t, args...)
		r.Must(t, 0)
		for _, want := range []string{"rootbench", "revision", "go1", "cgo"} {
			if !strings.Contains(r.Stdout, want) {
				t.Errorf("%v: output lacks %q:\n%s", args, want, r.Stdout)
			}
		}
	}
	r := inProcess(t, "completion", "bash")
	r.Must(t, 0)
	if !strings.Contains(r.Stdout, "__start_rootbench") {
		t.Errorf("completion bash is not a bash completion script:\n%.300s", r.Stdout)
	}
}

// refusedInOneLine fails t unless r exited 2 with one line on stderr holding every
// want.
func refusedInOneLine(t *testing.T, r result, want ...string) {
	t.Helper()
	r.Must(t, exitUsage)
	msg := strings.TrimSpace(r.Stderr)
	if strings.Contains(msg, "\n") {
		t.Errorf("stderr is not one line:\n%s", r.Stderr)
	}
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("stderr lacks %q:\n%s", w, r.Stderr)
		}
	}
}
