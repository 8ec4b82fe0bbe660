package main

// The record mode (-record, `make gate-record`): A/A sessions for the
// replay, recorded under a condition (noise processes running or not) into
// the condition's directory, each session's exit written to the
// condition's record log.

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/rootbench/rootbench/exitstatus"
	"github.com/rootbench/rootbench/harness"
)

// recordConfig is what the flags of `gatecheck -record` say.
type recordConfig struct {
	rootbench string
	cells     string
	cond      condition
	count     int      // sessions to record
	dir       string   // the sessions directory; each condition has its own under it
	abFlags   []string // extra ab flags
}

// recordGate is the gate sessions are recorded with: so small that no row
// passes, so that every session runs to its budget look. The gate does not
// change what a session measures before it stops (its looks are planned
// from the pace of the first rounds), and the replay, which applies the
// real gate itself, needs the pairs up to the budget look.
const recordGate = "0.01%"

// recordLogName is the record log in each condition's directory: one JSON
// line per session (RecordEntry), appended as each session ends.
const recordLogName = "record.jsonl"

// failedPrefix starts the name of the file of a session that did not end
// with a verdict (its partial export), so that the sessions' pattern
// (aa-*.json.gz) leaves it out.
const failedPrefix = "failed-"

// RecordEntry is one recorded session, as the record log holds it.
type RecordEntry struct {
	// File is the session's file in the condition's directory ("" when
	// ab wrote none).
	File      string `json:"file,omitempty"`
	Condition string `json:"condition"`
	Noise     int    `json:"noise"`
	// ExitCode is ab's exit status (-1 when a signal killed it; Signal
	// then names it).
	ExitCode   int       `json:"exit_code"`
	Signal     string    `json:"signal,omitempty"`
	StartedAt  time.Time `json:"started_at"`
	FinishedAt time.Time `json:"finished_at"`
	// LoadAvg is the load average (1, 5, 15 minutes) when it started.
	LoadAvg []float64 `json:"load_avg,omitempty"`
	Command []string  `json:"command"`
	// StderrTail is the end of ab's standard error when it exited with
	// anything but a verdict (0, 1, 3).
	StderrTail string `json:"stderr_tail,omitempty"`
}

// verdictExit reports whether ab's exit status is a verdict: pass,
// regression or inconclusive.
func verdictExit(code int) bool {
	return code == exitstatus.Success || code == exitstatus.Failed || code == exitstatus.Inconclusive
}

// errInterrupted is record's error when a signal stopped it; its status
// is the signal's.
type errInterrupted struct{ sig os.Signal }

func (e errInterrupted) Error() string {
	return fmt.Sprintf("interrupted (%v): the sessions recorded so far are kept", e.sig)
}

// exitCode is the signal's exit status (128 + its number).
func (e errInterrupted) exitCode() int {
	if e.sig == syscall.SIGTERM {
		return exitstatus.Terminated
	}
	return exitstatus.Interrupted
}

// record records c.count A/A sessions with c.cond's noise running, and
// stops the noise on every way out.
func record(c *recordConfig) (err error) {
	dir := filepath.Join(c.dir, c.cond.name())
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("sessions directory: %w", err)
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	nz, err := startNoise(c.cond.noise)
	if err != nil {
		return err
	}
	defer nz.stop()
	failed := 0
	for i := range c.count {
		select {
		case s := <-sigs:
			return errInterrupted{s}
		default:
		}
		fmt.Fprintf(os.Stderr, "gatecheck: %s: session %d of %d (%d noise processes; load %s)\n",
			c.cond.name(), i+1, c.count, c.cond.noise, loadNow())
		e, sig, err := c.session(dir, sigs)
		if err != nil {
			return err
		}
		if err := appendLog(filepath.Join(dir, recordLogName), e); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "gatecheck: %s: session %d of %d: exit %d, %s\n", c.cond.name(), i+1, c.count, e.ExitCode, orNone(e.File))
		switch {
		case sig != nil:
			return errInterrupted{sig}
		case e.ExitCode == exitstatus.Usage:
			return fmt.Errorf("ab refused its input (exit 2): %s", strings.TrimSpace(e.StderrTail))
		case !verdictExit(e.ExitCode):
			failed++
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d sessions ended without a verdict (see %s)", failed, c.count, filepath.Join(dir, recordLogName))
	}
	return nil
}

// session runs one ab session, forwarding SIGINT and SIGTERM to it, and
// keeps its export gzip-compressed; sig is the signal that came, if any.
func (c *recordConfig) session(dir string, sigs <-chan os.Signal) (RecordEntry, os.Signal, error) {
	start := time.Now().UTC()
	name := "aa-" + start.Format("20060102T150405Z")
	for n := 2; exists(filepath.Join(dir, name+".json.gz")) || exists(filepath.Join(dir, failedPrefix+name+".json.gz")); n++ {
		name = fmt.Sprintf("aa-%s-%d", start.Format("20060102T150405Z"), n)
	}
	out := filepath.Join(dir, name+".json")
	args := []string{"ab", "--base", c.rootbench, "--head", c.rootbench, "--cell", c.cells,
		"--fail-on-regression", recordGate, "--export-json", out, "--style", "none"}
	args = append(args, c.abFlags...)
	e := RecordEntry{Condition: c.cond.name(), Noise: c.cond.noise, StartedAt: start, LoadAvg: harness.CollectMachine().LoadAvg,
		Command: append([]string{c.rootbench}, args...)}
	cmd := exec.Command(c.rootbench, args...)
	cmd.Env = withoutSlow(os.Environ())
	// Its own process group: a terminal's SIGINT reaches gatecheck only,
	// which forwards it, so that ab writes what it measured.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(cmd.SysProcAttr)
	var tail tailBuffer
	cmd.Stderr = io.MultiWriter(os.Stderr, &tail)
	if err := cmd.Start(); err != nil {
		return e, nil, fmt.Errorf("start %s: %w", c.rootbench, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var sig os.Signal
	var werr error
wait:
	for {
		select {
		case s := <-sigs:
			sig = s
			_ = cmd.Process.Signal(s) // it may have just exited
		case werr = <-done:
			break wait
		}
	}
	e.FinishedAt = time.Now().UTC()
	var ee *exec.ExitError
	switch {
	case errors.As(werr, &ee):
		e.ExitCode = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			e.Signal = ws.Signal().String()
		}
	case werr != nil:
		return e, sig, fmt.Errorf("wait for %s: %w", c.rootbench, werr)
	}
	if !verdictExit(e.ExitCode) {
		e.StderrTail = tail.String()
	}
	if exists(out) {
		gz := name + ".json.gz"
		if !verdictExit(e.ExitCode) || sig != nil {
			gz = failedPrefix + gz
		}
		if err := gzipFile(out, filepath.Join(dir, gz)); err != nil {
			return e, sig, err
		}
		e.File = gz
	}
	return e, sig, nil
}

// gzipFile compresses src into dst (written atomically) and removes src.
func gzipFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return fmt.Errorf("read the session: %w", err)
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression) // a valid level: no error
	if _, err := zw.Write(data); err != nil {
		return fmt.Errorf("compress %s: %w", src, err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("compress %s: %w", src, err)
	}
	if err := writeAtomic(dst, buf.Bytes()); err != nil {
		return err
	}
	return os.Remove(src)
}

// appendLog appends e to the record log as one line, in one write.
func appendLog(path string, e RecordEntry) error {
	line, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("encode the record log's line: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("record log: %w", err)
	}
	_, werr := f.Write(append(line, '\n'))
	if err := errors.Join(werr, f.Sync(), f.Close()); err != nil {
		return fmt.Errorf("record log %s: %w", path, err)
	}
	return nil
}

// readLog reads a condition's record log; a missing log is empty, and a
// last line cut short (a kill while it was written) is left out.
func readLog(path string) ([]RecordEntry, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("record log: %w", err)
	}
	var out []RecordEntry
	lines := strings.Split(string(data), "\n")
	for i, line := range lines {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var e RecordEntry
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			if i == len(lines)-1 {
				break // no newline after it: cut short
			}
			return nil, fmt.Errorf("record log %s, line %d: %w", path, i+1, err)
		}
		out = append(out, e)
	}
	return out, nil
}

// tailBuffer keeps the last tailBytes bytes written to it.
type tailBuffer struct{ b []byte }

const tailBytes = 2000

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > tailBytes {
		t.b = t.b[len(t.b)-tailBytes:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string { return string(t.b) }

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func orNone(file string) string {
	if file == "" {
		return "no file written"
	}
	return file
}

// loadNow is the one-minute load average now, or "unknown".
func loadNow() string {
	if l := harness.CollectMachine().LoadAvg; len(l) > 0 {
		return fmt.Sprintf("%.2f", l[0])
	}
	return "unknown"
}
