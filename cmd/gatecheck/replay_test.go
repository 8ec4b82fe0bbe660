package main

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rootbench/rootbench/harness"
)

// beyondBudgets is why no budget meets the target measured as measure (on
// boxroot) at the default gate, "" when a budget may.
func beyondBudgets(measure string) string {
	for _, s := range replayTargets {
		if strings.ReplaceAll(s.measure, cellMark, "boxroot") == measure {
			return s.beyondBudgets(0.05)
		}
	}
	return ""
}

func TestBuildNumbersCentresAndSlows(t *testing.T) {
	t.Parallel()
	f := fakeSession(t, 6, []string{"ocaml", "boxroot"}, []int{3, 1}, []float64{0.01, 0.03}, 0.05)
	tp, err := newTemplate("fake", f, []metric{wallMetric})
	if err != nil {
		t.Fatal(err)
	}
	r := &replayer{templates: []*template{tp}, resample: resampleBlock, block: 2, seed: 9, slow: "boxroot"}
	drawn, err := r.draw(tp, 0)
	if err != nil {
		t.Fatal(err)
	}
	aa := build(tp, drawn, "boxroot", scenario{name: "A/A", raw: true})
	slowed := build(tp, drawn, "boxroot", scenario{name: "planted 10%", pct: 10})
	seen := map[int]bool{}
	for i, b := range tp.benches {
		for j := range drawn[i] {
			base, head := aa[0][i][j], aa[1][i][j]
			if base.Pair != j+1 || head.Pair != j+1 {
				t.Fatalf("%s pair %d numbered %d, %d", b.label, j+1, base.Pair, head.Pair)
			}
			if (base.Index < head.Index) != (j%2 == 0) {
				t.Errorf("%s pair %d: base index %d, head %d: not ABBA", b.label, j+1, base.Index, head.Index)
			}
			seen[base.Index], seen[head.Index] = true, true
			if base.WallNs != drawn[i][j].base.WallNs || head.WallNs != drawn[i][j].head.WallNs {
				t.Errorf("%s pair %d: raw A/A changed the runs", b.label, j+1)
			}
			want := float64(drawn[i][j].head.WallNs) * math.Exp(-drawn[i][j].shifts[0])
			if b.cell == "boxroot" {
				want *= 1.1
			}
			if got := float64(slowed[1][i][j].WallNs); math.Abs(got-want) > 1 {
				t.Errorf("%s pair %d: head %v ns, want %v", b.label, j+1, got, want)
			}
			if slowed[0][i][j].WallNs != base.WallNs {
				t.Errorf("%s pair %d: a base run was changed", b.label, j+1)
			}
		}
	}
	if len(seen) != 2*(tp.benches[0].pairsAt(6)+tp.benches[1].pairsAt(6)) || !seen[0] || !seen[len(seen)-1] {
		t.Errorf("run indexes %v: want each of 0..n-1 once", seen)
	}
}

// withCPU gives every run of f a CPU time: 1.5 times its wall time, with
// noise of its own (seeded).
func withCPU(f *harness.ABFile, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	for _, side := range []*harness.File{f.Base, f.Head} {
		for i := range side.Results {
			for j := range side.Results[i].Runs {
				r := &side.Results[i].Runs[j]
				r.CPUUserNs = int64(1.5 * float64(r.WallNs) * (1 + 0.01*rng.NormFloat64()))
				r.CPUSysNs = r.CPUUserNs / 10
			}
		}
	}
}

// A tiny replay through the decision code, of sessions recorded quiet that
// measured wall and CPU time, judged together: with 2% noise, no A/A row
// regresses and a planted 50% is always detected in the metric it is
// planted in, never on the other cell; the quiet targets are checked, and
// each one missed is met by a budget of the search, or said to be met by
// none, or to need more synthetic sessions.
func TestReplaySmoke(t *testing.T) {
	t.Parallel()
	f := fakeSession(t, 16, []string{"ocaml", "boxroot"}, []int{2, 1}, []float64{0.01, 0.02}, 0.02)
	withCPU(f, 1)
	f.MaxTimeNs = f.Looks[len(f.Looks)-1].ElapsedNs + int64(time.Millisecond)
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "quiet"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "quiet", "aa.json.gz")
	writeSession(t, path, f)
	if err := appendLog(filepath.Join(dir, "quiet", recordLogName), RecordEntry{File: "aa.json.gz", Condition: "quiet", ExitCode: 3}); err != nil {
		t.Fatal(err)
	}
	live := filepath.Join(dir, "gate-check.md")
	out := filepath.Join(dir, "gate-replay")
	_, c, err := parseFlags([]string{"-replay", "-sessions", "6", "-planted-sessions", "6", "-pcts", "5,50", "-check-resampling=false",
		"-variant-sessions", "4", "-search", "8s", "-out", out, "-live", live, path})
	if err != nil || c == nil {
		t.Fatalf("parseFlags: %v", err)
	}
	if err := runReplay(c); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var doc ReplayDocument
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Sections) != 2 || doc.Sections[0].Metric != "wall" || doc.Sections[1].Metric != "cpu" ||
		doc.Sections[0].Condition != "quiet" || doc.Sections[1].JudgedWith != "wall,cpu" || len(doc.Sections[0].Log) != 1 {
		t.Fatalf("sections %+v: want quiet on wall and CPU time, judged together, with its record log", doc.Sections)
	}
	for _, s := range doc.Sections {
		rates := map[string]Rate{}
		for _, r := range s.Report.Rates {
			rates[r.Name] = r
		}
		for name, want := range map[string][2]int{
			"A/A: false alarms per row (rows reported as regressions)":    {0, 12},
			"planted 50% on boxroot: detected (reported as a regression)": {6, 6},
			"planted 50%: false alarms per row on the other cells":        {0, 6},
		} {
			if r, ok := rates[name]; !ok || r.Hits != want[0] || r.Of != want[1] {
				t.Errorf("%s: %s: %+v, want %d of %d", s.Metric, name, r, want[0], want[1])
			}
		}
	}
	if len(doc.Targets) != 8 {
		t.Errorf("%d targets, want the quiet condition's 4 in each metric: %+v", len(doc.Targets), doc.Targets)
	}
	for _, tr := range doc.Targets {
		switch {
		case tr.Rate == nil:
			t.Errorf("target %+v not replayed", tr)
		case tr.Met:
		case tr.BudgetNs > 0:
			if tr.BudgetRate == nil {
				t.Errorf("target %+v: a budget without its figure", tr)
			}
		case beyondBudgets(tr.Measure) != "":
			if tr.Note != beyondBudgets(tr.Measure) {
				t.Errorf("target %+v missed, without saying why no budget meets it", tr)
			}
		case !strings.Contains(tr.Note, "(8s)") && !strings.Contains(tr.Note, "replay more sessions"):
			t.Errorf("target %+v missed, with neither a budget, nor the budgets modelled, nor the sessions it needs", tr)
		}
	}
	md, err := os.ReadFile(live)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "## Replayed rates") || !strings.Contains(string(md), "No live check recorded") {
		t.Errorf("live report, made from the replay alone:\n%s", md)
	}
	// The live check rewrites the live report from both JSON files: the
	// replay's rates are still there.
	rep2 := &Report{Slow: "boxroot"}
	if err := rep2.write(strings.TrimSuffix(live, ".md"), out+".json"); err != nil {
		t.Fatal(err)
	}
	md, _ = os.ReadFile(live)
	if !strings.Contains(string(md), "## Replayed rates") || strings.Contains(string(md), "No live check recorded") {
		t.Errorf("the live report lost the replay's rates:\n%s", md)
	}
}

// The pair spread is each session's standard deviation of its pairs' log
// ratios, summarized over the sessions by median, least and greatest.
func TestDependencePairSD(t *testing.T) {
	t.Parallel()
	session := func(ratios ...float64) *template {
		b := benchSource{cell: "boxroot", label: "boxroot"}
		for _, r := range ratios {
			b.pairs = append(b.pairs, runPair{base: harness.Run{WallNs: 1000}, head: harness.Run{WallNs: int64(math.Round(1000 * math.Exp(r)))}})
		}
		return &template{benches: []benchSource{b}, metrics: []metric{wallMetric}}
	}
	// Log ratios ±0.1 (sd 0.1155 over 4), ±0.2 (0.2309) and ±0.3 (0.3464),
	// to the rounding of 1000·e^r to whole nanoseconds.
	ts := []*template{session(0.1, -0.1, 0.1, -0.1), session(0.2, -0.2, 0.2, -0.2), session(0.3, -0.3, 0.3, -0.3)}
	deps := dependence(ts, 1, 0)
	if len(deps) != 1 {
		t.Fatalf("%d benchmarks, want 1", len(deps))
	}
	got, want := deps[0].PairSD, Range{Median: 0.2309, Min: 0.1155, Max: 0.3464}
	for _, c := range [][2]float64{{got.Median, want.Median}, {got.Min, want.Min}, {got.Max, want.Max}} {
		if math.Abs(c[0]-c[1]) > 1e-3 {
			t.Errorf("pair sd %+v, want %+v", got, want)
			break
		}
	}
}
