// Package clitest runs the rootbench command line as a subprocess in
// tests: the test binary itself, which doubles as the CLI when started
// with AsCLI set (its TestMain checks IsCLI and runs the CLI instead of
// the tests), so that the workers the harness starts (re-executing
// os.Executable()) are that binary too, race detector included.
//
// The CLI runs in the environment of the tests less the variables it
// reads as defaults (the OCaml benchmark's, CELL, ROOTBENCH_SLOW, COLUMNS
// and ROOTBENCH_HISTORY, so that no test adds to a user's store), so
// that every test sees the defaults unless it sets them.
package clitest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// AsCLI is the environment variable that makes a test binary run as the
// CLI: AsCLI=1.
const AsCLI = "ROOTBENCH_AS_CLI"

// IsCLI reports whether this process was started as the CLI (Run, or a
// worker the CLI started).
func IsCLI() bool { return os.Getenv(AsCLI) == "1" }

// timeout bounds one command: the longest sessions of the full suite take
// about a minute on a loaded machine.
const timeout = 4 * time.Minute

// Result is what a command did.
type Result struct {
	Stdout, Stderr string
	// Code is the exit status; 128+N when signal N ended the process.
	Code int
}

// Must fails t unless the command exited with code, showing its output.
func (r Result) Must(t testing.TB, code int) {
	t.Helper()
	if r.Code != code {
		t.Fatalf("exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", r.Code, code, r.Stdout, r.Stderr)
	}
}

// Run runs this test binary as the CLI with args, stdin as its standard
// input (nil: none) and env added to Env.
func Run(t testing.TB, stdin io.Reader, env []string, args ...string) Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := Command(ctx, env, args...)
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code = 128 + int(ws.Signal())
		}
	} else if err != nil {
		t.Fatalf("rootbench %v: %v", args, err)
	}
	return Result{out.String(), errb.String(), code}
}

// Command is the command Run runs, for a test that starts and signals it
// itself.
func Command(ctx context.Context, env []string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(Env(), env...)
	return cmd
}

// defaults are the variables the CLI reads as defaults.
var defaults = []string{"SCHEDULER", "MAX_DELAY", "NITERS", "BATCH_SIZE", "CELL", "PRODUCERS", "CONSUMERS", "PAYLOAD", "QUEUE",
	"MAX_OUTSTANDING", "PASSES", "ROOTBENCH_SLOW", "COLUMNS", "ROOTBENCH_HISTORY"}

// cliEnv is what Env adds: the CLI mode, plain output (NO_COLOR) and a
// race detector that does not wait at exit.
var cliEnv = []string{AsCLI + "=1", "NO_COLOR=1", "GORACE=atexit_sleep_ms=0"}

// Env is the CLI's environment: the tests' own without the variables the
// CLI reads as defaults, then AsCLI=1, NO_COLOR=1 (plain output) and a race
// detector that does not wait at exit.
func Env() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(defaults, name) {
			env = append(env, kv)
		}
	}
	return append(env, cliEnv...)
}

// Isolate gives this process the environment Env gives the CLI, for
// tests that run the CLI's commands in this process (TestMain calls it
// when the binary runs its tests): the defaults it reads are unset, and a
// worker such a command starts runs as the CLI.
func Isolate() {
	for _, name := range defaults {
		os.Unsetenv(name)
	}
	for _, kv := range cliEnv {
		name, value, _ := strings.Cut(kv, "=")
		os.Setenv(name, value)
	}
}
