//go:build rootbench_faulty

package impls

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rootbench/rootbench/workload/msgpass"
)

func TestTestBuildHasHiddenFaultyCells(t *testing.T) {
	e, err := Lookup("faulty:leak")
	if err != nil || e.Name != "faulty:leak" || !e.Hidden {
		t.Fatalf("Lookup(faulty:leak) = %+v, %v; want the hidden cell", e, err)
	}
	for _, e := range All() {
		if strings.HasPrefix(e.Name, "faulty:") {
			t.Errorf("All() lists test-only cell %s", e.Name)
		}
	}
}

func TestParseSlowdowns(t *testing.T) {
	m, err := parseSlowdowns(" Boxroot=20%, cgo=2.5 ")
	if err != nil {
		t.Fatal(err)
	}
	if len(m) != 2 || m["boxroot"] != 0.2 || m["cgo-handle"] != 0.025 {
		t.Errorf("parseSlowdowns = %v; want boxroot 0.2, cgo-handle 0.025", m)
	}
	if m, err := parseSlowdowns("  "); err != nil || len(m) != 0 {
		t.Errorf("parseSlowdowns(spaces) = %v, %v; want nothing planted", m, err)
	}
	for in, want := range map[string]string{
		"boxroot":              "no '='",
		"nosuch=10%":           "nosuch",
		"boxroot=0%":           "bad percentage",
		"boxroot=-5%":          "bad percentage",
		"boxroot=1001%":        "bad percentage",
		"boxroot=ten":          "bad percentage",
		"boxroot=NaN":          "bad percentage",
		"boxroot=5,boxroot=10": "twice",
	} {
		_, err := parseSlowdowns(in)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), SlowEnv) {
			t.Errorf("parseSlowdowns(%q) error = %v; want one naming %s and %q", in, err, SlowEnv, want)
		}
	}
}

// TestSlowedAddsItsShareOfTheRunsOwnWallTime checks the arithmetic on a
// fake run of known wall time: the slowed run reports at least (1+frac)
// times it, and the spin is real time (it took at least that long).
func TestSlowedAddsItsShareOfTheRunsOwnWallTime(t *testing.T) {
	const inner = 20 * time.Millisecond
	orig := map[string]int64{"pools": 3}
	run := func(context.Context, msgpass.Params) (msgpass.Result, error) {
		return msgpass.Result{Wall: inner, Cells: 7, Stats: orig}, nil
	}
	start := time.Now()
	res, err := slowed(run, 0.25)(context.Background(), msgpass.DefaultParams())
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	want := inner + inner/4
	if res.Wall < want || took < inner/4 {
		t.Errorf("slowed wall %v (spun for %v); want at least %v, having spun at least %v", res.Wall, took, want, inner/4)
	}
	if res.Cells != 7 || res.Stats["pools"] != 3 || res.Stats[SlowStat] != 250 {
		t.Errorf("slowed result %+v; want cells 7 and stats pools=3 %s=250", res, SlowStat)
	}
	if _, ok := orig[SlowStat]; ok {
		t.Error("slowed wrote into the wrapped run's stats map")
	}
}

// TestPlantedSlowdownOnARealCell runs the control cell with a 50% slowdown
// planted: its reported wall time is at least 1.5 times the wall time the
// workload itself measured, and not far above (the spin overshoots only by
// scheduling delays; the bound is loose so a loaded machine passes).
func TestPlantedSlowdownOnARealCell(t *testing.T) {
	base, err := lookup("direct")
	if err != nil {
		t.Fatal(err)
	}
	var inner time.Duration
	recordInner := base.run
	base.run = func(ctx context.Context, p msgpass.Params) (msgpass.Result, error) {
		res, err := recordInner(ctx, p)
		inner = res.Wall
		return res, err
	}
	e := plantFrom(map[string]float64{"ocaml": 0.5}, base)
	other := plantFrom(map[string]float64{"ref": 0.5}, base)
	p := msgpass.DefaultParams()
	p.NIters = 200
	res, err := e.RunMsgPass(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if lo, hi := inner+inner/2, inner+inner/2+time.Second; res.Wall < lo || res.Wall > hi {
		t.Errorf("slowed wall %v for a workload wall of %v; want within [%v, %v]", res.Wall, inner, lo, hi)
	}
	res, err = other.RunMsgPass(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if res.Wall != inner || res.Stats[SlowStat] != 0 {
		t.Errorf("a slowdown planted on ref changed ocaml: wall %v (workload %v), stats %v", res.Wall, inner, res.Stats)
	}
}

// BenchmarkPlantedSlowdown reports the ratio of the control cell's mean
// wall time with a 20% slowdown planted to its mean wall time without
// (slowed/plain, about 1.20), both measured by the workload, interleaved.
func BenchmarkPlantedSlowdown(b *testing.B) {
	plain, err := lookup("ocaml")
	if err != nil {
		b.Fatal(err)
	}
	slow := plantFrom(map[string]float64{"ocaml": 0.2}, plain)
	p := msgpass.DefaultParams()
	p.NIters = 500
	var sumPlain, sumSlow time.Duration
	for b.Loop() {
		for _, x := range []struct {
			e   Entry
			sum *time.Duration
		}{{plain, &sumPlain}, {slow, &sumSlow}} {
			res, err := x.e.RunMsgPass(context.Background(), p)
			if err != nil {
				b.Fatal(err)
			}
			*x.sum += res.Wall
		}
	}
	b.ReportMetric(float64(sumSlow)/float64(sumPlain), "slowed/plain")
}
