package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Capture limits for a worker's output.
const (
	stdoutTailMax = 1 << 20 // the report is the last line: keep the last MiB
	stderrHeadMax = 16 << 10
	stderrTailMax = 4 << 10
	stderrLines   = 20
	waitDelay     = 2 * time.Second
)

// workerCmd is how to start one worker process.
type workerCmd struct {
	exe     string
	args    []string
	env     []string
	timeout time.Duration
}

// execWorker runs one worker process to completion and returns its run: the
// worker's report plus the parent's figures (StartedAt, process wall, user,
// sys, peak RSS), or a failed run with its reason. interrupted is true when
// ctx was cancelled while the worker ran: the worker has been killed and the
// run means nothing.
func execWorker(ctx context.Context, w workerCmd) (run Run, interrupted bool) {
	runCtx := ctx
	if w.timeout > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, w.timeout)
		defer cancel()
	}
	var stdout, stderr capture
	stdout.tailMax = stdoutTailMax
	stderr.headMax, stderr.tailMax = stderrHeadMax, stderrTailMax

	cmd := exec.CommandContext(runCtx, w.exe, w.args...)
	cmd.Env = append(os.Environ(), w.env...)
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	// The worker leads its own process group, so that a timeout or an
	// interruption kills it and anything it started, and so that a terminal's
	// SIGINT reaches only the parent, which decides what to do.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		// os/exec calls Cancel only while Wait has not returned, so the
		// group still exists unless the worker exited this very moment.
		err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		if errors.Is(err, syscall.ESRCH) {
			return os.ErrProcessDone
		}
		return err
	}
	cmd.WaitDelay = waitDelay

	run.StartedAt = time.Now()
	if err := cmd.Start(); err != nil {
		run.Failed = true
		run.Error = fmt.Sprintf("start worker %s: %v", w.exe, err)
		return run, false
	}
	err := cmd.Wait()
	run.ProcessWallNs = time.Since(run.StartedAt).Nanoseconds()
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
		run.StderrTail = stderr.tailLines(stderrLines)
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
				return fail(join(fmt.Sprintf("killed by signal %s", signalName(ws.Signal())), reason))
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
	return run, false
}

// join appends a reason to a status: "exit status 2: panic: ...".
func join(status, reason string) string {
	if reason == "" {
		return status
	}
	return status + ": " + reason
}

// signalName names a signal as "SIGKILL".
func signalName(s syscall.Signal) string {
	if n := unix.SignalName(s); n != "" {
		return n
	}
	return fmt.Sprintf("signal %d (%v)", int(s), s)
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

// tailLines returns the last n lines of the tail (a partial first line of a
// truncated tail is dropped).
func (c *capture) tailLines(n int) string {
	t := c.tail
	if c.truncated() {
		if i := bytes.IndexByte(t, '\n'); i >= 0 {
			t = t[i+1:]
		}
	}
	lines := strings.Split(strings.TrimRight(string(t), "\n\r\t "), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// reason picks the line of stderr that best explains a failure: the first
// "panic: " or "fatal error: " line (a Go crash prints its cause there, then
// stack traces), else the last non-empty line.
func (c *capture) reason() string {
	for _, part := range [][]byte{c.head, c.tail} {
		for _, l := range strings.Split(string(part), "\n") {
			l = strings.TrimSpace(l)
			if strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "fatal error: ") {
				return shorten(l)
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
