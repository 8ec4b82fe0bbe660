package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBuildNumbersCentresAndSlows(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
