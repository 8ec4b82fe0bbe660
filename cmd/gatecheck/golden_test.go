package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rootbench/rootbench/harness"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from gatecheck's output")

// writeSession writes f as a recorded session, gzip-compressed JSON, as
// ab --export-json and gzip leave it.
func writeSession(t *testing.T, path string, f *harness.ABFile) {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if err := json.NewEncoder(zw).Encode(f); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run %s -update writes it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s changed: every figure and line of gatecheck's output is pinned (go test -run %s -update rewrites it once the change is meant):\n%s",
			path, t.Name(), firstDiff(string(want), string(got)))
	}
}

// firstDiff shows the first line where want and got differ.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range min(len(w), len(g)) {
		if w[i] != g[i] {
			return fmt.Sprintf("line %d:\n  want %s\n  got  %s", i+1, w[i], g[i])
		}
	}
	return fmt.Sprintf("want %d lines, got %d", len(w), len(g))
}

// TestReplayReportPinned pins the replay's report on two small recorded
// sessions of wall time only, every figure and line of it: the JSON of
// its one section (full precision), the Markdown and the live report's
// section. Resampling, centring, the
// Wilson intervals, the dependence between pairs and the spread of the
// sessions' shifts all feed it, so a change of seed, of the order of the
// random draws or of the arithmetic shows here. Only what depends on the
// machine and the clock (machine, load, elapsed time, the temporary
// directory) is blanked.
func TestReplayReportPinned(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	args := []string{"-replay", "-sessions", "24", "-planted-sessions", "12", "-pcts", "5,50", "-variant", "8s:ocaml,boxroot",
		"-variant-sessions", "8", "-jobs", "2", "-out", filepath.Join(dir, "gate-replay"), "-live", ""}
	cells, reps, cost := []string{"ocaml", "boxroot", "cgo-handle"}, []int{4, 2, 1}, []float64{0.01, 0.02, 0.04}
	for i, seed := range []uint64{3, 5} {
		path := filepath.Join(dir, fmt.Sprintf("aa-%d.json.gz", i+1))
		f := fakeSessionSeeded(t, seed, 16, cells, reps, cost, 0.03)
		f.MaxTimeNs = f.Looks[len(f.Looks)-1].ElapsedNs + int64(time.Millisecond)
		writeSession(t, path, f)
		args = append(args, path)
	}
	_, c, err := parseFlags(args)
	if err != nil || c == nil {
		t.Fatalf("parseFlags: %v", err)
	}
	if err := runReplay(c); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "gate-replay.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc ReplayDocument
	if err := json.Unmarshal([]byte(strings.ReplaceAll(string(data), dir, "DIR")), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Sections) != 1 || doc.Sections[0].Condition != unrecordedName || doc.Sections[0].Metric != "wall" {
		t.Fatalf("sections %+v: want one, of no recorded condition, on wall time (the sessions measured no CPU time)", doc.Sections)
	}
	doc.Machine, doc.LoadAvg, doc.ElapsedNs, doc.FinishedAt = "MACHINE", nil, 0, time.Time{}
	rep := doc.Sections[0].Report
	rep.Machine, rep.LoadAvg, rep.ElapsedNs, rep.FinishedAt = "MACHINE", nil, 0, time.Time{}
	out, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "replay.json.golden", append(out, '\n'))
	golden(t, "replay.md.golden", []byte(doc.markdown()+"\n"+doc.section("gate-replay.md")+"\n"))
}

// TestLiveReportPinned pins the live check's report on fixed trials in
// two conditions: the rates, their Wilson intervals, the notes, the times
// to flag and every line of OUT.json and of the live report, made with a
// replay's figures beside the live ones and its targets.
func TestLiveReportPinned(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	rep := &Report{Command: "gatecheck -aa 3 -planted 2 -noise 0,4", Rootbench: harness.Tool{Name: "rootbench", Version: "v0", Revision: "abc123", GoVersion: "go1.26.0"},
		Machine: harness.Machine{CPUModel: "Test CPU", LogicalCPUs: 2, LoadAvg: []float64{1, 2, 3}}, Cells: "ocaml,boxroot", Slow: "boxroot",
		ABFlags: []string{"--max-time", "30s"}, StartedAt: start, FinishedAt: start.Add(95 * time.Minute)}
	outcomes := [][2]string{{"pass", "pass"}, {"regression", "inconclusive"}, {"pass", "regression"}}
	rows := func(ocaml, boxroot string) []TrialRow {
		return []TrialRow{{Label: "ocaml", Cell: "ocaml", Metric: "wall", Outcome: ocaml}, {Label: "boxroot", Cell: "boxroot", Metric: "wall", Outcome: boxroot}}
	}
	for _, cond := range []string{"quiet", "noise4"} {
		for i, r := range outcomes {
			rep.Trials = append(rep.Trials, Trial{Condition: cond, Kind: "A/A", Outcome: r[0], Stopped: "budget", Runs: 20 + i, DurationNs: int64(i+1) * 7e10,
				Load: []float64{0.5, 4.25}, Rows: rows(r[0], r[1])})
			rep.Trials = append(rep.Trials, Trial{Condition: cond, Kind: "planted 10%", Planted: "10%", Metric: "wall", ExitCode: 1, Outcome: "regression",
				Stopped: "decided", Runs: 12, DurationNs: int64(i+2) * 3e10, Rows: rows(r[1], "regression"), FlaggedNs: int64(i+1) * 25e9})
		}
	}
	rep.tally([]condition{{noise: 0}, {noise: 4}}, []kind{{name: "A/A", n: 3}, {name: "planted 10%", pct: "10", metric: "wall", n: 3}})
	dir := t.TempDir()
	replay := &ReplayDocument{Command: "gatecheck -replay s/quiet/aa-1.json.gz", Sections: []ReplaySection{{
		Condition: "quiet", Describe: "quiet (nothing else running)", Metric: "wall", MetricTitle: "wall time", JudgedWith: "wall",
		Report: &ReplayReport{Sessions: 4000, Planted: 1000, Resample: resampleBlock, Block: 4, Slow: "boxroot", Rates: []Rate{
			newRate("A/A: false alarms per row (rows reported as regressions)", 40, 8000, ""),
			newRate("planted 10% on boxroot: detected (reported as a regression)", 870, 1000, "")}}}},
		Targets: []TargetResult{{Condition: "quiet", Metric: "wall", Measure: "planted 5% on boxroot detected", Target: "≥ 90%",
			Rate: &Rate{Hits: 700, Of: 1000, Rate: 0.7, Lo: 0.67, Hi: 0.73}, BudgetNs: int64(6 * time.Minute), BudgetRate: &Rate{Rate: 0.93}}}}
	data, err := json.Marshal(replay)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "gate-replay.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := rep.write(filepath.Join(dir, "gate-check"), filepath.Join(dir, "gate-replay.json")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"gate-check.json", "gate-check.md"} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		golden(t, strings.Replace(name, "gate-check", "live", 1)+".golden", got)
	}
}
