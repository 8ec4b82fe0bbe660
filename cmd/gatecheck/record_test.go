package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/rootbench/rootbench/harness"
)

// TestMain lets the test binary be a noise process, as gatecheck is when
// started with -spin (startNoise re-executes the running program).
func TestMain(m *testing.M) {
	if len(os.Args) == 2 && os.Args[1] == spinFlag {
		spinForever()
	}
	os.Exit(m.Run())
}

// alive reports whether a process exists (signal 0 reaches it).
func alive(pid int) bool { return syscall.Kill(pid, 0) == nil }

// Noise processes run until stop, which leaves none behind.
func TestNoiseStartsAndStops(t *testing.T) {
	t.Parallel()
	nz, err := startNoise(2)
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, cmd := range nz.cmds {
		pids = append(pids, cmd.Process.Pid)
	}
	if len(pids) != 2 || !alive(pids[0]) || !alive(pids[1]) {
		t.Fatalf("noise processes %v: want 2 running", pids)
	}
	nz.stop()
	nz.stop() // again: nothing to do
	for _, pid := range pids {
		if alive(pid) {
			t.Errorf("noise process %d still runs after stop", pid)
		}
	}
	if quiet, err := startNoise(0); err != nil || len(quiet.cmds) != 0 {
		t.Errorf("quiet condition: %v, %v; want no process", quiet, err)
	}
}

// fakeAB is a rootbench whose ab writes a file where --export-json says
// and exits with the status its call number's line of the file codes
// holds (3, the last one, for calls past the end).
const fakeAB = `#!/bin/sh
out=
while [ $# -gt 0 ]; do [ "$1" = --export-json ] && out=$2; shift; done
n=$(cat "$0.calls" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > "$0.calls"
echo '{}' > "$out"
code=$(sed -n "${n}p" "$0.codes"); exit ${code:-3}
`

// record runs the sessions with the noise running, keeps each export
// (gzipped; a session without a verdict as failed-*), appends one line per
// session to the condition's record log and fails when a session gave no
// verdict; the replay groups the sessions by that directory.
func TestRecordLogsEverySession(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := filepath.Join(dir, "rootbench")
	if err := os.WriteFile(bin, []byte(fakeAB), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin+".codes", []byte("0\n5\n3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, _, err := parseFlags([]string{"-record", "-rootbench", bin, "-noise", "1", "-count", "3", "-dir", filepath.Join(dir, "sessions"), "--", "--max-time", "15s"})
	if err != nil {
		t.Fatal(err)
	}
	err = record(c.record)
	if err == nil || !strings.Contains(err.Error(), "1 of 3 sessions ended without a verdict") {
		t.Errorf("record: %v; want one session said to have no verdict", err)
	}
	cond := filepath.Join(dir, "sessions", "noise1")
	log, err := readLog(filepath.Join(cond, recordLogName))
	if err != nil {
		t.Fatal(err)
	}
	if len(log) != 3 || log[0].ExitCode != 0 || log[1].ExitCode != 5 || log[2].ExitCode != 3 {
		t.Fatalf("record log %+v: want exits 0, 5, 3", log)
	}
	for i, e := range log {
		failed := i == 1
		if e.Condition != "noise1" || e.Noise != 1 || strings.HasPrefix(e.File, failedPrefix) != failed ||
			!strings.HasSuffix(e.File, ".json.gz") || !exists(filepath.Join(cond, e.File)) {
			t.Errorf("session %d: %+v", i+1, e)
		}
		if args := strings.Join(e.Command, " "); !strings.Contains(args, "--fail-on-regression 0.01%") || !strings.HasSuffix(args, "--max-time 15s") {
			t.Errorf("session %d ran %s", i+1, args)
		}
	}
	groups, err := groupSessions([]string{filepath.Join(cond, log[2].File), filepath.Join(cond, log[0].File), filepath.Join(dir, "aa-old.json.gz")})
	if err != nil {
		t.Fatal(err)
	}
	if len(groups) != 2 || groups[0].cond != "noise1" || len(groups[0].files) != 2 || len(groups[0].log) != 3 || groups[1].cond != unrecordedName {
		t.Errorf("groups %+v: want noise1 (2 files, its log) then the session of no recorded condition", groups)
	}
}

// A record log cut short by a kill keeps its whole lines.
func TestReadLogLeavesOutACutLine(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), recordLogName)
	if err := appendLog(path, RecordEntry{File: "aa-1.json.gz", ExitCode: 3}); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"file":"aa-2.js`)
	f.Close()
	log, err := readLog(path)
	if err != nil || len(log) != 1 || log[0].File != "aa-1.json.gz" {
		t.Errorf("readLog = %+v, %v; want the whole first line only", log, err)
	}
}

// flaggedAt finds the first look at which the slowed cell is a
// regression: with 30% planted on boxroot's head runs, the budget look
// (the first, at 6 rounds, has too few pairs at its level); never in an
// A/A session.
func TestFlaggedAtTheLookThatFindsTheSlowdown(t *testing.T) {
	t.Parallel()
	f := fakeSession(t, 16, []string{"ocaml", "boxroot"}, []int{2, 1}, []float64{0.01, 0.02}, 0.02)
	f.Gate = &harness.ABGate{Alpha: 0.05, Threshold: 0.05}
	if at := flaggedAt(f, "boxroot"); at != 0 {
		t.Errorf("A/A session flagged at %d ns", at)
	}
	for i := range f.Head.Results[1].Runs {
		r := &f.Head.Results[1].Runs[i]
		r.WallNs = r.WallNs * 13 / 10
	}
	if at, want := flaggedAt(f, "boxroot"), f.Looks[1].ElapsedNs; at != want {
		t.Errorf("30%% on boxroot flagged at %d ns, want the budget look's %d", at, want)
	}
	if at := flaggedAt(f, "ocaml"); at != 0 {
		t.Errorf("ocaml, not slowed, flagged at %d ns", at)
	}
}
