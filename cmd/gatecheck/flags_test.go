package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rootbench/rootbench/analysis"
)

func TestParseFlags(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "rootbench")
	if err := os.WriteFile(bin, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	c, _, err := parseFlags([]string{"-rootbench", bin, "-aa", "3", "-pcts", "5%,10,10%cpu", "-noise", "0,4", "--", "--max-time", "30s"})
	if err != nil {
		t.Fatal(err)
	}
	ks := c.kinds()
	if len(c.pcts) != 3 || c.pcts[0].pct != "5" || len(c.abFlags) != 2 || len(ks) != 4 || c.record != nil ||
		len(c.conditions) != 2 || c.conditions[1].name() != "noise4" {
		t.Errorf("config %+v", c)
	}
	if ks[1].slowValue() != "5%" || ks[3].slowValue() != "10%cpu" || ks[3].name != "planted 10% in CPU time" || ks[3].metric != "cpu" {
		t.Errorf("kinds %+v", ks)
	}
	c, _, err = parseFlags([]string{"-rootbench", bin, "-record", "-noise", "4", "-count", "2", "-dir", "d", "--", "--max-time", "15s"})
	if err != nil || c.record == nil || c.record.cond.noise != 4 || c.record.count != 2 || c.record.dir != "d" || len(c.record.abFlags) != 2 {
		t.Fatalf("-record: %+v, %v", c, err)
	}
	for _, bad := range [][]string{
		{"-rootbench", bin, "-pcts", "x"},
		{"-rootbench", bin, "-aa", "0", "-planted", "0"},
		{"-rootbench", bin, "-slow", "nosuch"},
		{"-rootbench", bin, "-pcts", "10%:cpu"},
		{"-rootbench", bin, "-pcts", "10cpu"},
		{"-rootbench", bin, "-noise", "-1"},
		{"-rootbench", bin, "-noise", "four"},
		{"-rootbench", bin, "-noise", "0,0"},
		{"-rootbench", bin, "-record", "-noise", "0,4"},
		{"-rootbench", bin, "-record", "-count", "0"},
		{"-rootbench", filepath.Join(t.TempDir(), "missing")},
	} {
		if _, _, err := parseFlags(bad); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}

func TestParseReplayFlags(t *testing.T) {
	t.Parallel()
	f := filepath.Join(t.TempDir(), "aa.json")
	if err := os.WriteFile(f, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, c, err := parseFlags([]string{"-replay", "-variant", "45m", "-variant", "20m:ocaml,boxroot", "-variant", ":boxroot", f})
	if err != nil || c == nil {
		t.Fatalf("parseFlags: %v", err)
	}
	if len(c.files) != 1 || len(c.pcts) != 4 || c.out != "results/gate-replay" || len(c.variants) != 3 ||
		c.variants[0].budget != 45*time.Minute || !c.variants[1].cells["ocaml"] || c.variants[2].budget != 0 || c.gate != 0.05 ||
		metricNames(c.metrics) != "wall,cpu" || len(c.search) == 0 {
		t.Errorf("config %+v", c)
	}
	_, c, err = parseFlags([]string{"-replay", "-metrics", "cpu", "-search", "none", f})
	if err != nil || metricNames(c.metrics) != "cpu" || c.search != nil {
		t.Errorf("-metrics cpu -search none: %+v, %v", c, err)
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
		{"-replay", "-metrics", "nosuch", f},
		{"-replay", "-metrics", "wall,wall", f},
		{"-replay", "-metrics", "", f},
		{"-replay", "-search", "6m,3m", f},
		{"-replay", "-search", "soon", f},
		{"-replay", filepath.Join(t.TempDir(), "missing.json")},
	} {
		if _, _, err := parseFlags(bad); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}

// The default number of synthetic sessions bounds a 1% rate (per session,
// and so per row too) at 1.5% (the 95% Wilson upper bound).
func TestDefaultSessionsBoundOnePercent(t *testing.T) {
	t.Parallel()
	n := defaultReplaySessions
	if _, hi := analysis.WilsonInterval(n/100, n); hi > 0.015 {
		t.Errorf("%d sessions: 1%% has the upper bound %.4f, want at most 0.015", n, hi)
	}
}
