package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/rootbench/rootbench/harness/procgroup"
)

// Capture limits for a worker's output. A failed run's log holds what was
// captured: all of it unless a stream outgrew these bounds, in which case the
// log says how many bytes in the middle were dropped.
const (
	stdoutHeadMax = 64 << 10
	stdoutTailMax = 1 << 20 // the report is the last line: keep the last MiB
	stderrHeadMax = 256 << 10
	stderrTailMax = 1 << 20
	stderrLines   = 20
	waitDelay     = 2 * time.Second
)

// workerCmd is how to start one worker process.
type workerCmd struct {
	exe     string
	args    []string
	env     []string
	timeout time.Duration
	show    io.Writer // when not nil, receives the worker's output too
	// log is where a failed run's full output is saved ("" saves none);
	// its directory is created when needed.
	log string
}

// execWorker runs one worker process to completion and returns its run: the
// worker's report plus the parent's figures (StartedAt, process wall, user,
// sys, peak RSS, and the load around the run, Env, where it can be read),
// or a failed run with its reason. interrupted is true when
// ctx was cancelled while the worker ran: the worker has been killed and the
// run means nothing.
//
// A failed run's Error is one line: the cause ("killed by signal 9 (SIGKILL;
// likely the OOM killer)", "exit status 2: fatal error: out of memory", "timed
// out after 30s") and, when w.log is set, where the worker's full stdout and
// stderr were saved. Its StderrTail holds the last lines the worker wrote to
// stderr before any Go crash report: never a goroutine dump, which stays in
// the log.
func execWorker(ctx context.Context, w workerCmd) (run Run, interrupted bool) {
	runCtx := ctx
	if w.timeout > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, w.timeout)
		defer cancel()
	}
	var stdout, stderr capture
	stdout.headMax, stdout.tailMax = stdoutHeadMax, stdoutTailMax
	stderr.headMax, stderr.tailMax = stderrHeadMax, stderrTailMax

	cmd := exec.CommandContext(runCtx, w.exe, w.args...)
	cmd.Env = append(os.Environ(), w.env...)
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if w.show != nil {
		cmd.Stdout = io.MultiWriter(&stdout, w.show)
		cmd.Stderr = io.MultiWriter(&stderr, w.show)
	}
	// The worker leads its own process group, so that a timeout or an
	// interruption kills it and anything it started, and so that a terminal's
	// SIGINT reaches only the parent, which decides what to do.
	procgroup.Own(cmd, waitDelay)

	env := startEnv()
	run.StartedAt = time.Now()
	if err := cmd.Start(); err != nil {
		switch {
		case ctx.Err() != nil:
			return run, true
		case runCtx.Err() == context.DeadlineExceeded:
			run.Error = fmt.Sprintf("timed out after %s before the worker started (raise --timeout)", w.timeout)
		default:
			run.Error = fmt.Sprintf("start worker %s: %v", w.exe, err)
		}
		run.Failed = true
		return run, false
	}
	err := cmd.Wait()
	run.ProcessWallNs = time.Since(run.StartedAt).Nanoseconds()
	run.Env = env.finish()
	if ps := cmd.ProcessState; ps != nil {
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
			run.UserNs = ru.Utime.Nano()
			run.SysNs = ru.Stime.Nano()
			run.PeakRSSBytes = ru.Maxrss * maxrssUnit
		}
	}

	if err != nil && ctx.Err() != nil {
		return run, true
	}
	fail := func(reason string) (Run, bool) {
		run.Failed = true
		run.Error = reason
		run.StderrTail = beforeCrash(stderr.String(), stderrLines)
		if w.log != "" {
			if err := saveLog(w, reason, stdout.String(), stderr.String()); err != nil {
				run.Error += fmt.Sprintf("; full output not saved: %v", err)
			} else {
				run.Error += "; full output in " + w.log
			}
		}
		return run, false
	}
	if err != nil {
		if runCtx.Err() == context.DeadlineExceeded {
			return fail(fmt.Sprintf("timed out after %v", w.timeout))
		}
		reason := stderr.reason()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				return fail(join(killedBy(ws.Signal()), reason))
			}
			return fail(join(fmt.Sprintf("exit status %d", ee.ExitCode()), reason))
		}
		return fail(join(fmt.Sprintf("worker: %v", err), reason))
	}
	rep, perr := ParseWorkerOutput(stdout.tail)
	if perr != nil {
		return fail(perr.Error())
	}
	if rep.Failed {
		msg := rep.Error
		if msg == "" {
			msg = "no reason given"
		}
		return fail("worker reported an error: " + msg)
	}
	run.WallNs, run.Cells, run.PassNs, run.GC, run.Stats = rep.WallNs, rep.Cells, rep.PassNs, rep.GC, rep.Stats
	run.CPUUserNs, run.CPUSysNs = rep.CPUUserNs, rep.CPUSysNs
	return run, false
}

// join appends a reason to a status: "exit status 2: panic: ...".
func join(status, reason string) string {
	if reason == "" {
		return status
	}
	return status + ": " + reason
}

// killedBy describes a death by signal: "killed by signal 9 (SIGKILL; likely
// the OOM killer)". The harness kills workers only on a timeout or an
// interruption, both handled before this, so a SIGKILL came from elsewhere:
// on Linux almost always the kernel's OOM killer.
func killedBy(s syscall.Signal) string {
	name := unix.SignalName(s)
	if name == "" {
		name = s.String()
	}
	if s == syscall.SIGKILL {
		name += "; likely the OOM killer"
	}
	return fmt.Sprintf("killed by signal %d (%s)", int(s), name)
}

// saveLog writes a failed run's output to w.log, creating its directory.
func saveLog(w workerCmd, reason, stdout, stderr string) error {
	if err := os.MkdirAll(filepath.Dir(w.log), 0o755); err != nil {
		return fmt.Errorf("create the log directory: %w", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "rootbench worker: %s\ncommand: %s\nfailure: %s\n", w.exe, strings.Join(w.args, " "), reason)
	if len(w.env) > 0 {
		fmt.Fprintf(&b, "extra environment: %s\n", strings.Join(w.env, " "))
	}
	fmt.Fprintf(&b, "\n===== stderr =====\n%s", stderr)
	if stderr != "" && !strings.HasSuffix(stderr, "\n") {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "\n===== stdout =====\n%s", stdout)
	if err := os.WriteFile(w.log, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("write the log: %w", err)
	}
	return nil
}

// crashHeader reports whether a stderr line starts a Go crash report (after
// which come the goroutine dumps).
func crashHeader(line string) bool {
	l := strings.TrimSpace(line)
	return strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "fatal error: ") ||
		strings.HasPrefix(l, "SIGSEGV: ") || strings.HasPrefix(l, "SIGBUS: ") || strings.HasPrefix(l, "unexpected fault address ")
}

// beforeCrash returns the last n lines of stderr text that precede a Go
// crash report (all of it when there is none), trimmed.
func beforeCrash(text string, n int) string {
	lines := strings.Split(strings.TrimRight(text, "\n\r\t "), "\n")
	for i, l := range lines {
		if crashHeader(l) {
			lines = lines[:i]
			break
		}
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// capture keeps the beginning and the end of a stream: the first headMax and
// the last tailMax bytes. os/exec copies a non-*os.File writer from one
// goroutine, so capture needs no lock; the caller reads it after Wait.
type capture struct {
	headMax, tailMax int
	head, tail       []byte
	total            int64
}

// Write implements io.Writer.
func (c *capture) Write(p []byte) (int, error) {
	c.total += int64(len(p))
	if room := c.headMax - len(c.head); room > 0 {
		c.head = append(c.head, p[:min(room, len(p))]...)
	}
	c.tail = append(c.tail, p...)
	if over := len(c.tail) - c.tailMax; over > 0 {
		c.tail = append(c.tail[:0], c.tail[over:]...)
	}
	return len(p), nil
}

// truncated reports whether the tail lost the stream's beginning.
func (c *capture) truncated() bool { return c.total > int64(len(c.tail)) }

// String returns the stream as captured: all of it when it fit in head and
// tail together, else the head, a line saying how many bytes were dropped,
// and the tail.
func (c *capture) String() string {
	if c.total <= int64(len(c.head)) {
		return string(c.head)
	}
	rest := c.total - int64(len(c.head)) // bytes after the head
	if rest <= int64(len(c.tail)) {
		return string(c.head) + string(c.tail[int64(len(c.tail))-rest:])
	}
	return fmt.Sprintf("%s\n[... %d bytes not kept ...]\n%s", c.head, rest-int64(len(c.tail)), c.tail)
}

// reason picks the line of stderr that best explains a failure: the first
// line of a Go crash report ("panic: ...", "fatal error: ..."; the stack
// traces follow it), else the last non-empty line.
func (c *capture) reason() string {
	for _, part := range [][]byte{c.head, c.tail} {
		for _, l := range strings.Split(string(part), "\n") {
			if crashHeader(l) {
				return shorten(strings.TrimSpace(l))
			}
		}
	}
	return shorten(string(lastLine(c.tail)))
}

// shorten bounds a reason line's length.
func shorten(s string) string {
	if len(s) > maxQuoted {
		return s[:maxQuoted] + "..."
	}
	return s
}
