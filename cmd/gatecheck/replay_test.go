package main

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
)

// fakeSession is an A/A session as the A/B engine records it: rounds
// rounds, benchmark i making one pair in each of the first two rounds and
// reps[i] after; run times noise-distributed around cost[i] seconds;
// stopped at the budget look.
func fakeSession(t *testing.T, rounds int, cells []string, reps []int, cost []float64, noise float64) *harness.ABFile {
	t.Helper()
	return fakeSessionSeeded(t, 3, rounds, cells, reps, cost, noise)
}

// fakeSessionSeeded is fakeSession with the noise drawn from seed.
func fakeSessionSeeded(t *testing.T, seed uint64, rounds int, cells []string, reps []int, cost []float64, noise float64) *harness.ABFile {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 4))
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	f := &harness.ABFile{Schema: harness.ABSchema, MaxTimeNs: int64(3 * time.Minute), Stopped: harness.StopBudget,
		StartedAt: start, PlannedLooks: []int{6, 12, 24}}
	sides := [2]*harness.File{{Schema: harness.Schema, Workload: "msgpass", Unit: "cell"}, {Schema: harness.Schema, Workload: "msgpass", Unit: "cell"}}
	for _, c := range cells {
		for _, s := range sides {
			s.Results = append(s.Results, harness.Result{Cell: c, Label: c, Params: map[string]string{}})
		}
	}
	clock, index := time.Duration(0), 0
	pairs := make([]int, len(cells))
	for r := range rounds {
		for i := range cells {
			n := 1
			if r >= autoPlanRounds {
				n = reps[i]
			}
			for range n {
				pairs[i]++
				order := [2]int{0, 1}
				if pairs[i]%2 == 0 {
					order = [2]int{1, 0}
				}
				for _, side := range order {
					wall := time.Duration(cost[i] * (1 + noise*rng.NormFloat64()) * 1e9)
					sides[side].Results[i].Runs = append(sides[side].Results[i].Runs, harness.Run{
						Index: index, StartedAt: start.Add(clock), WallNs: int64(wall), Cells: 1000,
						ProcessWallNs: int64(wall) + 1e6, Pair: pairs[i]})
					index++
					clock += wall + time.Millisecond
				}
			}
		}
	}
	f.Looks = []harness.ABLog{
		{Look: harness.Look{Number: 1, Of: 3, Runs: 6}, ElapsedNs: 1},
		{Look: harness.Look{Number: 2, Of: 3, Runs: rounds, Final: true, Budget: true}, ElapsedNs: clock.Nanoseconds()},
	}
	f.Base, f.Head = sides[0], sides[1]
	harness.Summarize(f.Base)
	harness.Summarize(f.Head)
	return f
}

func TestTemplateOfARecordedSession(t *testing.T) {
	f := fakeSession(t, 10, []string{"ocaml", "boxroot", "cgo-handle"}, []int{8, 4, 1}, []float64{0.01, 0.02, 0.08}, 0.02)
	tp, err := newTemplate("fake", f)
	if err != nil {
		t.Fatal(err)
	}
	if tp.rounds != 10 || tp.estimated {
		t.Errorf("rounds %d (estimated %v), want the recorded 10", tp.rounds, tp.estimated)
	}
	for i, want := range []int{8, 4, 1} {
		b := tp.benches[i]
		if b.reps != want || b.pairsAt(10) != len(b.pairs) || b.pairsAt(2) != 2 || b.pairsAt(1) != 1 {
			t.Errorf("%s: reps %d, pairs at 10 rounds %d (recorded %d), want reps %d", b.label, b.reps, b.pairsAt(10), len(b.pairs), want)
		}
	}
	looks := tp.looks()
	want := []harness.Look{{Number: 1, Of: 3, Runs: 6}, {Number: 2, Of: 3, Runs: 10, Final: true, Budget: true}}
	if len(looks) != len(want) || looks[0] != want[0] || looks[1] != want[1] {
		t.Errorf("looks %+v, want %+v", looks, want)
	}
	// A session whose counts are not the engine's rounds is refused.
	f.Base.Results[0].Runs = f.Base.Results[0].Runs[:len(f.Base.Results[0].Runs)-1]
	if _, err := newTemplate("fake", f); err == nil {
		t.Error("a session with a pair missing was accepted")
	}
	f.Stopped = harness.StopInterrupted
	if _, err := newTemplate("fake", f); err == nil {
		t.Error("an interrupted session was accepted")
	}
}

func TestBuildNumbersCentresAndSlows(t *testing.T) {
	f := fakeSession(t, 6, []string{"ocaml", "boxroot"}, []int{3, 1}, []float64{0.01, 0.03}, 0.05)
	tp, err := newTemplate("fake", f)
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
			want := float64(drawn[i][j].head.WallNs) * math.Exp(-drawn[i][j].shift)
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

// A tiny replay through the decision code: with 2% noise, no A/A row
// regresses and a planted 50% is always detected, never on the other cell.
func TestReplaySmoke(t *testing.T) {
	f := fakeSession(t, 16, []string{"ocaml", "boxroot"}, []int{2, 1}, []float64{0.01, 0.02}, 0.02)
	dir := t.TempDir()
	path := filepath.Join(dir, "aa.json.gz")
	writeSession(t, path, f)
	live := filepath.Join(dir, "gate-check.md")
	if err := os.WriteFile(live, []byte("# live\n\nrates\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "gate-replay")
	_, c, err := parseFlags([]string{"-replay", "-sessions", "6", "-planted-sessions", "6", "-pcts", "50", "-out", out, "-live", live, path})
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
	var rep ReplayReport
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	rates := map[string]Rate{}
	for _, r := range rep.Rates {
		rates[r.Name] = r
	}
	for name, want := range map[string][2]int{
		"A/A: false alarms per row (rows reported as regressions)":    {0, 12},
		"planted 50% on boxroot: detected (reported as a regression)": {6, 6},
		"planted 50%: false alarms per row on the other cells":        {0, 6},
	} {
		if r, ok := rates[name]; !ok || r.Hits != want[0] || r.Of != want[1] {
			t.Errorf("%s: %+v, want %d of %d", name, r, want[0], want[1])
		}
	}
	md, err := os.ReadFile(live)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(md), "# live\n\nrates\n") || sectionOf(string(md)) == "" {
		t.Errorf("live report:\n%s", md)
	}
	// The live check rewrites its report and keeps the replay's section.
	sec := sectionOf(string(md))
	rep2 := &Report{Slow: "boxroot"}
	if err := rep2.write(strings.TrimSuffix(live, ".md")); err != nil {
		t.Fatal(err)
	}
	md, _ = os.ReadFile(live)
	if sectionOf(string(md)) != sec || !strings.HasPrefix(string(md), "# The gate's measured error rates") {
		t.Errorf("the live report lost the replay's section:\n%s", md)
	}
}

func TestWithSection(t *testing.T) {
	doc := withSection("# x\n", replayBegin+"\none\n"+replayEnd)
	if sectionOf(doc) != replayBegin+"\none\n"+replayEnd {
		t.Fatalf("appended: %q", doc)
	}
	doc = withSection(doc+"\ntail\n", replayBegin+"\ntwo\n"+replayEnd)
	if strings.Contains(doc, "one") || !strings.Contains(doc, "two") || !strings.HasSuffix(doc, "tail\n") {
		t.Errorf("replaced: %q", doc)
	}
}

// Modelling another budget or cell set: the pace model gives back the
// recorded rounds, twice the budget about twice the rounds, and dropping
// the slowest cell rebalances the others (the slowest kept makes one pair
// per round) and speeds the rounds up.
func TestScaledTemplate(t *testing.T) {
	f := fakeSession(t, 12, []string{"ocaml", "boxroot", "cgo-handle"}, []int{8, 4, 1}, []float64{0.01, 0.02, 0.08}, 0.02)
	f.MaxTimeNs = f.Looks[len(f.Looks)-1].ElapsedNs + int64(time.Millisecond)
	tp, err := newTemplate("fake", f)
	if err != nil {
		t.Fatal(err)
	}
	rule := (&replayer{alpha: 0.05, threshold: 0.05}).rule()
	if got := tp.pace.roundsWithin(tp.maxTime); got < 11 || got > 13 {
		t.Errorf("the pace model gives %d rounds for the recorded budget, recorded 12", got)
	}
	if same, err := tp.scaled(tp.maxTime, nil, rule); err != nil || same != tp {
		t.Errorf("the recorded budget and every cell: %v, %v, want the template itself", same, err)
	}
	long, err := tp.scaled(2*tp.maxTime, nil, rule)
	if err != nil {
		t.Fatal(err)
	}
	if long.rounds < 2*12-4 || long.rounds > 2*12+2 || !long.estimated {
		t.Errorf("twice the budget: %d rounds, want about %d", long.rounds, 2*12-2)
	}
	if n := len(long.plan); n == 0 || n > analysis.DefaultAutoLooks || long.plan[n-1]%2 != 0 {
		t.Errorf("twice the budget: looks planned %v", long.plan)
	}
	fast, err := tp.scaled(0, map[string]bool{"ocaml": true, "boxroot": true}, rule)
	if err != nil {
		t.Fatal(err)
	}
	if len(fast.benches) != 2 || fast.benches[0].reps != 2 || fast.benches[1].reps != 1 {
		t.Errorf("ocaml and boxroot kept: %+v, want reps 2 and 1", fast.benches)
	}
	if fast.rounds <= 2*tp.rounds {
		t.Errorf("without the slowest cell: %d rounds in the budget, recorded %d with it", fast.rounds, tp.rounds)
	}
	if _, err := tp.scaled(0, map[string]bool{"nosuch": true}, rule); err == nil {
		t.Error("a cell set with none of the session's cells was accepted")
	}
}

func TestTargets(t *testing.T) {
	rep := &ReplayReport{Slow: "boxroot", Rates: []Rate{
		newRate("A/A: false alarms per row (rows reported as regressions)", 40, 8000, ""),
		newRate("A/A: rows left inconclusive", 4000, 8000, ""),
		newRate("planted 10% on boxroot: passed (slowdown ruled out beyond the gate)", 0, 1000, ""),
		newRate("planted 10% on boxroot: detected (reported as a regression)", 500, 1000, ""),
	}, Variants: []VariantReport{
		{Name: "budget 12m0s, every cell", Rates: []Rate{
			newRate("A/A: false alarms per row (rows reported as regressions)", 10, 4000, ""),
			newRate("planted 10% on boxroot: detected (reported as a regression)", 970, 1000, "")}},
		{Name: "budget 6m0s, every cell", Rates: []Rate{
			newRate("A/A: false alarms per row (rows reported as regressions)", 100, 4000, ""),
			newRate("planted 10% on boxroot: detected (reported as a regression)", 990, 1000, "")}},
	}}
	got := rep.targets()
	if missing := slices.DeleteFunc([]string{
		"A/A false alarms at most 1% of rows, upper bound at most 1.5%: 0.50% (",
		"): met.",
		"Planted 10% on boxroot detected at least 95%: 50.00% (",
		"): **not met**.",
		"A/A rows left inconclusive: 50.00%",
		"meet both: budget 12m0s, every cell (",
	}, func(want string) bool { return strings.Contains(got, want) }); len(missing) > 0 {
		t.Errorf("targets lack %q:\n%s", missing, got)
	}
	if strings.Contains(got, "6m0s") {
		t.Errorf("a variant with 2.5%% false alarms is said to meet the targets:\n%s", got)
	}
}

func TestShortCommand(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"gatecheck -replay r/s/aa-1.json.gz r/s/aa-2.json.gz r/s/aa-3.json.gz", "gatecheck -replay r/s/aa-*.json.gz (3 files)"},
		{"gatecheck -replay a.json b.json", "gatecheck -replay a.json b.json"},
		{"gatecheck -replay x/a.json y/b.json z/c.json", "gatecheck -replay x/a.json y/b.json z/c.json"},
	} {
		if got := shortCommand(c.in); got != c.want {
			t.Errorf("shortCommand(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestParseReplayFlags(t *testing.T) {
	f := filepath.Join(t.TempDir(), "aa.json")
	if err := os.WriteFile(f, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, c, err := parseFlags([]string{"-replay", "-variant", "45m", "-variant", "20m:ocaml,boxroot", "-variant", ":boxroot", f})
	if err != nil || c == nil {
		t.Fatalf("parseFlags: %v", err)
	}
	if len(c.files) != 1 || len(c.pcts) != 4 || c.out != "results/gate-replay" || len(c.variants) != 3 ||
		c.variants[0].budget != 45*time.Minute || !c.variants[1].cells["ocaml"] || c.variants[2].budget != 0 || c.gate != 0.05 {
		t.Errorf("config %+v", c)
	}
	for _, bad := range [][]string{
		{"-replay"},
		{"-replay", "-block", "3", f},
		{"-replay", "-resample", "nope", f},
		{"-replay", "-variant", "soon", f},
		{"-replay", "-variant", "6m:ocaml", f},
		{"-replay", "-cells", "ocaml,ref", f},
		{"-replay", "-gate", "0", f},
		{"-replay", "-sessions", "0", f},
		{"-replay", filepath.Join(t.TempDir(), "missing.json")},
	} {
		if _, _, err := parseFlags(bad); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}
