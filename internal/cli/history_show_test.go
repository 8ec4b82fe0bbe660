package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/rootbench/rootbench/history"
	"github.com/rootbench/rootbench/history/series"
	"github.com/rootbench/rootbench/internal/harnesstest"
	"github.com/rootbench/rootbench/report/historyreport"
)

// commitDates is a history.CommitLookup from a map of hashes to times, on
// branch main.
type commitDates map[string]time.Time

func (c commitDates) LookupCommit(_ context.Context, hash string) (series.Commit, bool, error) {
	t, ok := c[hash]
	return series.Commit{Hash: hash, Time: t, Branch: "main"}, ok, nil
}

// fakeHash is commit i's hash (i below 255): i+1 in two hex digits,
// repeated, so that short hashes differ.
func fakeHash(i int) string { return strings.Repeat(fmt.Sprintf("%02x", i+1), 20) }

// seriesStore adds to a new store in dir one results file per commit, n
// commits an hour apart, each holding runs of every cell (normal noise of 3% around
// 10 ns/cell, every parameter of harnesstest's file); from commit step
// on, each cell's level is multiplied by its factor (1: flat). It returns
// the store's path and the commits' times.
func seriesStore(t testing.TB, dir string, n, step, runs int, cells map[string]float64) (string, commitDates) {
	t.Helper()
	path := filepath.Join(dir, "h.db")
	s, err := history.Open(context.Background(), path, history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	dates := commitDates{}
	names := slices.Sorted(maps.Keys(cells))
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range n {
		f := harnesstest.File()
		f.Tool.Revision = fakeHash(i)
		dates[f.Tool.Revision] = historyStart.Add(time.Duration(i) * time.Hour)
		for _, cell := range names {
			level := 0.01 // seconds per run of harnesstest.SpecCells: 10 ns/cell
			if i >= step {
				level *= cells[cell]
			}
			samples := make([]float64, runs)
			for k := range samples {
				samples[k] = level * (1 + 0.03*rng.NormFloat64())
			}
			harnesstest.Add(f, harnesstest.Spec{Label: cell, Params: f.Params, Samples: samples})
		}
		src, err := history.FromFile(fmt.Sprintf("run-%d.json", i), f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Add(context.Background(), src, history.AddOptions{Commits: dates}); err != nil {
			t.Fatal(err)
		}
	}
	return path, dates
}

// history show prints each series with its change point marked on the
// first bad commit's row and listed after it, in 80 columns; markdown and
// JSON carry the same; --since starts the series later.
func TestHistoryShow(t *testing.T) {
	t.Parallel()
	store, _ := seriesStore(t, t.TempDir(), 40, 25, 10, map[string]float64{"boxroot-handle": 1.7, "boxroot": 1})

	r := inProcess(t, "history", "show", "--history", store)
	r.Must(t, 0)
	for i, line := range strings.Split(r.Stdout, "\n") {
		if n := utf8.RuneCountInString(line); n > 80 {
			t.Errorf("line %d has %d columns: %s", i+1, n, line)
		}
	}
	first := fakeHash(25)[:7]
	for _, want := range []string{
		"boxroot, wall (ns/cell), series ", ": 40 commits, 0 change points",
		"boxroot-handle, wall (ns/cell), series ", ": 40 commits, 1 change point",
		"↑1  " + first + "  2026-03-02",
		".." + first + ": +",
		"bisect: rootbench history bisect --series ",
		"machine ", "Test CPU, 2 CPUs, GOMAXPROCS 2, linux/amd64",
		"change points: E-divisive means",
	} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("history show lacks %q:\n%s", want, r.Stdout)
		}
	}

	// The store's commits are on no line of this repository, so the
	// commands below read every commit (--all-commits) and show what the
	// first one did, without asking git for HEAD's line.
	r = inProcess(t, "history", "show", "--history", store, "--all-commits", "--cell", "boxroot-handle", "--format", "json")
	r.Must(t, 0)
	doc, err := historyreport.Decode([]byte(r.Stdout), "stdout")
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Series) != 1 || len(doc.Series[0].Points) != 40 || len(doc.Series[0].ChangePoints) != 1 {
		t.Fatalf("JSON: %d series; want boxroot-handle's 40 commits with one change point", len(doc.Series))
	}
	c := doc.Series[0].ChangePoints[0]
	if c.FirstBad.Hash != fakeHash(25) || c.Ratio < 1.6 || c.Ratio > 1.8 || !(c.Lo < c.Ratio && c.Ratio < c.Hi) || c.P > 0.003 {
		t.Errorf("change point %+v: want a rise of about 70%% first bad at %s", c, first)
	}
	if p := doc.Series[0].Points[0]; p.Median == nil || p.Lo == nil || p.Runs != 10 || p.Time == nil {
		t.Errorf("a point lacks its median, interval, runs or time: %+v", p)
	}

	r = inProcess(t, "history", "show", "--history", store, "--all-commits", "--format", "markdown", "--cell", "boxroot-handle")
	r.Must(t, 0)
	if !strings.Contains(r.Stdout, "### boxroot-handle, wall (ns/cell)") || !strings.Contains(r.Stdout, "| ↑1 ") {
		t.Errorf("markdown:\n%s", r.Stdout)
	}

	// A metric with values of zero (no GC in these runs) gets a note, not
	// change points.
	r = inProcess(t, "history", "show", "--history", store, "--all-commits", "--cell", "boxroot", "--metric", "gc-cpu")
	r.Must(t, 0)
	if !strings.Contains(r.Stdout, "No change point sought: "+fakeHash(0)[:7]+" has a value of zero") {
		t.Errorf("gc-cpu of zero:\n%s", r.Stdout)
	}

	// From the step on, the series has no change point left.
	r = inProcess(t, "history", "show", "--history", store, "--all-commits", "--since", fakeHash(25)[:8], "--cell", "boxroot-handle", "--format", "json")
	r.Must(t, 0)
	var since historyreport.Document
	if err := json.Unmarshal([]byte(r.Stdout), &since); err != nil {
		t.Fatal(err)
	}
	if len(since.Series) != 1 || len(since.Series[0].Points) != 15 || len(since.Series[0].ChangePoints) != 0 || since.Since.Hash != fakeHash(25) {
		t.Errorf("--since %s: %+v; want 15 points and no change point", fakeHash(25)[:8], since)
	}
}

// Bad input: one line, exit 2, nothing written.
func TestHistoryShowRefusals(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	store, _ := seriesStore(t, dir, 3, 0, 2, map[string]float64{"ocaml": 1})
	missing := filepath.Join(dir, "none.db")
	mustRefuse(t, []refusal{
		{args: []string{"history", "show", "--history", store, "--since", "nosuchrev"}, want: []string{"--since nosuchrev: unknown revision"}},
		{args: []string{"history", "show", "--history", store, "--since", "fffffff"}, want: []string{"--since fffffff: unknown revision"}},
		{args: []string{"history", "show", "--history", store, "--metric", "speed"}, want: []string{"--metric speed: unknown metric", "wall, cpu"}},
		{args: []string{"history", "show", "--history", store, "--cell", "a,,b"}, want: []string{"--cell"}},
		{args: []string{"history", "show", "--history", store, "--format", "yaml"}, want: []string{"--format", "text, markdown, json"}},
		{args: []string{"history", "show", "--history", missing}, want: []string{"no history store at " + missing}},
		{args: []string{"history", "show", "--history", store, "extra"}, want: []string{"extra"}},
	})
	r := inProcess(t, "history", "show", "--history", store, "--cell", "nosuch")
	r.Must(t, 0)
	if !strings.Contains(r.Stdout, "no series in "+store+" matches") {
		t.Errorf("no series selected: %q", r.Stdout)
	}
}

// BenchmarkHistoryShow times history show (text) over a store of 10,000
// runs: 200 commits of two cells, 25 runs each. Goal: under 1 s.
func BenchmarkHistoryShow(b *testing.B) {
	store, _ := seriesStore(b, b.TempDir(), 200, 120, 25, map[string]float64{"boxroot-handle": 1.7, "boxroot": 1})
	var runs int
	s, err := history.Open(context.Background(), store, history.Options{})
	if err != nil {
		b.Fatal(err)
	}
	files, err := s.Files(context.Background())
	s.Close()
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range files {
		runs += f.Runs
	}
	if runs != 10_000 {
		b.Fatalf("%d runs stored, want 10,000", runs)
	}
	b.ResetTimer()
	for b.Loop() {
		r := inProcess(b, "history", "show", "--history", store)
		if r.Code != 0 || !strings.Contains(r.Stdout, "1 change point") {
			b.Fatalf("history show: %d\n%s", r.Code, r.Stderr)
		}
	}
}

// report --history=PATH writes HISTORY.md with a chart per series (both
// formats) and its change points; results files are not needed.
func TestReportHistory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	store, _ := seriesStore(t, dir, 40, 25, 10, map[string]float64{"boxroot-handle": 1.7, "boxroot": 1})
	out := filepath.Join(dir, "report")
	r := inProcess(t, "report", "--history="+store, "-o", out)
	r.Must(t, 0)
	md, err := os.ReadFile(filepath.Join(out, "HISTORY.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(md)), " ")
	for _, want := range []string{"# History", "## boxroot-handle, wall (ns/cell), series ", "1 change point", "![boxroot-handle, wall (ns/cell), series ",
		"| ↑1 | `" + fakeHash(24)[:7] + ".." + fakeHash(25)[:7] + "` |", "No change point in 40 commits."} {
		if !strings.Contains(text, want) {
			t.Errorf("HISTORY.md lacks %q:\n%s", want, text)
		}
	}
	pngs, _ := filepath.Glob(filepath.Join(out, "history-*.png"))
	svgs, _ := filepath.Glob(filepath.Join(out, "history-*.svg"))
	if len(pngs) != 2 || len(svgs) != 2 {
		t.Errorf("charts: %v %v; want one PNG and one SVG per series", pngs, svgs)
	}
	refusedInOneLine(t, inProcess(t, "report", "-o", out), "report needs results files, or --history", "usage: rootbench report")
}

// TestHistoryViewOnLine: along a first-parent line, a series keeps the
// commits on it in its order and leaves out the others; a series with no
// commit on it, or a view without a line, is read as stored.
func TestHistoryViewOnLine(t *testing.T) {
	pts := func(hashes ...string) []series.Point {
		var out []series.Point
		for _, h := range hashes {
			out = append(out, series.Point{Commit: series.Commit{Hash: h}, Values: []float64{1}})
		}
		return out
	}
	hashes := func(ps []series.Point) string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Commit.Hash)
		}
		return strings.Join(out, " ")
	}
	// Stored in commit-time order: the side branch's s1 and s2 interleave
	// with main's c2 and c3; m merged them.
	stored := "c1 s1 c2 s2 c3 m c4"
	line := &historyView{line: map[string]int{"c1": 0, "c2": 1, "c3": 2, "m": 3, "c4": 4}}
	for _, tc := range []struct {
		v        *historyView
		in, want string
	}{
		{line, stored, "c1 c2 c3 m c4"},
		{line, "c4 m c3 c1", "c1 c3 m c4"},
		{line, "x1 x2 x3", "x1 x2 x3"},
		{&historyView{}, stored, stored},
	} {
		if got := hashes(tc.v.onLine(pts(strings.Fields(tc.in)...))); got != tc.want {
			t.Errorf("onLine(%s) = %s; want %s", tc.in, got, tc.want)
		}
	}
}
