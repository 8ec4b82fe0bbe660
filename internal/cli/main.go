// Package cli is rootbench's command line (cobra): run, callback, ab,
// bisect, compare, report, list, version and the hidden worker. It parses
// and checks input, builds a plan, calls the harness, hands results to
// analysis and report, and maps outcomes to exit statuses. An A/B session
// (ab, and each step of bisect) runs through package absession.
//
// Main runs it on the cells and handles registered in package impls: the
// built-in ones, and any a program registered first (the root package
// rootbench's Main does that, then calls Main). Worker processes re-execute
// the running binary, so a program's own cells run in its workers too.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/rootbench/rootbench/exitstatus"
	"github.com/rootbench/rootbench/report"
)

// The exit statuses are package exitstatus's; a gate's outcome (compare,
// run --baseline, ab, bisect) maps onto them through analysis.Outcome.ExitCode.
const (
	exitFailed      = exitstatus.Failed
	exitUsage       = exitstatus.Usage
	exitInterrupted = exitstatus.Interrupted
	exitTerminated  = exitstatus.Terminated
)

// exitError carries an exit status up to main.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageErrorf reports bad input: exit status 2.
func usageErrorf(format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...)}
}

// exitWith is the error of a command that ends with status code (nil for
// 0), saying why.
func exitWith(code int, why error) error {
	if code == 0 {
		return nil
	}
	return &exitError{code: code, err: why}
}

func usageError(err error) error {
	if err == nil {
		return nil
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return err
	}
	return &exitError{code: exitUsage, err: err}
}

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "rootbench",
		Short: "Benchmark root-handle implementations (cgo.Handle, boxroot, heap boxes, ...)",
		Long: `rootbench compares root handles: the ways a Go program keeps a value alive
behind a small token that can cross into C or sit in another goroutine's queue
(runtime/cgo.Handle, handle tables, heap boxes, a Go port of OCaml's boxroot).

Every measured run is a fresh worker process; runs of different cells are
interleaved; every sample is kept and can be exported, compared and reported.

Exit status:
` + exitstatus.Text() + `

Shell completion: 'rootbench completion bash|zsh|fish|powershell --help' says
how to load it, e.g. source <(rootbench completion bash).`,
		// Version makes cobra answer --version; the template prints it all.
		Version:       "version",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.Flags().BoolP("version", "V", false, "print the version, VCS revision, Go version and build features")
	root.SetVersionTemplate(versionText())
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		if near := suggestFlag(c, err); near != "" {
			return usageErrorf("%v: did you mean --%s? (see '%s --help')", err, near, c.CommandPath())
		}
		return usageErrorf("%v (see '%s --help')", err, c.CommandPath())
	})
	root.AddCommand(newRunCmd(), newListCmd(), withUsageOnMissingArgs(newCompareCmd()), newReportCmd(),
		newCallbackCmd(), newVersionCmd(), newWorkerCmd(), newABCmd(), newBisectCmd(), newHistoryCmd())
	return root
}

// withUsageOnMissingArgs makes a command that takes files answer a bare
// invocation with its usage line, not a count of missing arguments.
func withUsageOnMissingArgs(cmd *cobra.Command) *cobra.Command {
	check := cmd.Args
	cmd.Args = func(c *cobra.Command, args []string) error {
		if len(args) == 0 {
			return usageErrorf("%s needs results files: usage: %s", c.Name(), c.UseLine())
		}
		if check != nil {
			return check(c, args)
		}
		return nil
	}
	return cmd
}

// Main runs the command line with os.Args and exits with its status: it
// returns only when the command succeeded.
func Main() {
	if err := execute(newRootCmd(), os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, wrapMessage("rootbench: "+err.Error(), terminalColumns(os.Stderr)))
		os.Exit(exitCode(err))
	}
}

// execute runs the command line args with root.
func execute(root *cobra.Command, args []string) error {
	root.SetArgs(expandMultiArgFlags(root, args))
	return root.Execute()
}

// exitCode is the exit status of a command that failed with err.
func exitCode(err error) int {
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	// Cobra's own errors (unknown command, bad arguments) are usage errors.
	return exitUsage
}

// wrapMessage wraps each line of msg at word boundaries for a terminal
// cols wide, continuation lines indented two spaces; cols <= 0 (a log, a
// pipe) leaves it as it is.
func wrapMessage(msg string, cols int) string {
	lines := strings.Split(msg, "\n")
	for i, l := range lines {
		lines[i] = report.WrapWords(l, cols, 0, "  ")
	}
	return strings.Join(lines, "\n")
}

// terminalColumns is the width output to f must fit: the COLUMNS
// environment variable when it is a positive number (as git and Python's
// shutil honour it, so that COLUMNS=80 fits a pipe read in an 80-column
// pane), else the width of the terminal f writes to, else 0 (f nil or not
// a terminal: a pipe, a file, a CI log), where tables are left whole.
func terminalColumns(f *os.File) int {
	if cols, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && cols > 0 {
		return cols
	}
	if f == nil || !term.IsTerminal(int(f.Fd())) {
		return 0
	}
	cols, _, err := term.GetSize(int(f.Fd()))
	if err != nil || cols <= 0 {
		return 0
	}
	return cols
}

// progressOut is where a progress bar goes in the given style: stderr when
// it is a terminal, the style shows progress and this is not CI; nil (no
// bar) in CI logs and pipes.
func progressOut(style report.Style) io.Writer {
	if style.Progress() && term.IsTerminal(int(os.Stderr.Fd())) && os.Getenv("CI") == "" {
		return os.Stderr
	}
	return nil
}
