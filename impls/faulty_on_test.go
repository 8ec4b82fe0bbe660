//go:build rootbench_faulty

package impls

import (
	"context"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/rootbench/rootbench/cputime"
	"github.com/rootbench/rootbench/impls/faulty"
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
	m, err := parseSlowdowns(" Boxroot=20%, cgo=2.5 ,ref=10%cpu")
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]slowdown{"boxroot": {frac: 0.2}, "cgo-handle": {frac: 0.025}, "ref": {frac: 0.1, cpu: true}}; !maps.Equal(m, want) {
		t.Errorf("parseSlowdowns = %v; want %v", m, want)
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
		"boxroot=10%:cpu":      "bad percentage",
		"boxroot=10cpu":        "bad percentage",
		"boxroot=10%wall":      "bad percentage",
		"boxroot=10%CPU":       "bad percentage",
		"boxroot=%cpu":         "bad percentage",
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
	res, err := slowed(run, slowdown{frac: 0.25})(context.Background(), msgpass.DefaultParams())
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	want := inner + inner/4
	if res.Wall < want || took < inner/4 {
		t.Errorf("slowed wall %v (spun for %v); want at least %v, having spun at least %v", res.Wall, took, want, inner/4)
	}
	if res.Cells != 7 || res.Stats["pools"] != 3 || res.Stats[SlowStat] != 250 || res.Stats[SlowCPUStat] != 0 {
		t.Errorf("slowed result %+v; want cells 7 and stats pools=3 %s=250, no %s", res, SlowStat, SlowCPUStat)
	}
	if spun := time.Duration(res.Stats[PlantedWallStat]); spun != res.Wall-inner {
		t.Errorf("%s = %v; want the spin the wall time gained, %v", PlantedWallStat, spun, res.Wall-inner)
	}
	if _, ok := orig[SlowStat]; ok {
		t.Error("slowed wrote into the wrapped run's stats map")
	}
	if spun := time.Duration(res.Stats[PlantedCPUStat]); res.CPU.Total() < spun {
		t.Errorf("slowed pass's CPU time %v; want at least the spin's %v (%s)", res.CPU.Total(), spun, PlantedCPUStat)
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
	e := plantFrom(map[string]slowdown{"ocaml": {frac: 0.5}}, base)
	other := plantFrom(map[string]slowdown{"ref": {frac: 0.5}}, base)
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
	slow := plantFrom(map[string]slowdown{"ocaml": {frac: 0.2}}, plain)
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

// TestCPUSlowdownPlantsItsShareOfThePassCPU plants 25% in CPU time on a
// fake pass that burns CPU on one thread and reports it as its CPU time,
// as the workloads do, and checks what the slowed pass reports: the
// planted CPU time is at least 25% of the pass's (the target the spin
// reaches) and within a tolerance above it; the pass's CPU time has grown
// by the planted CPU time and next to nothing else; its wall time by the
// spin's. It asserts nothing about speed: whatever the machine's load, CPU
// clocks count only the work done.
func TestCPUSlowdownPlantsItsShareOfThePassCPU(t *testing.T) {
	const frac = 0.25
	if _, err := faulty.ThreadCPU(); err != nil {
		t.Skip(err) // no thread CPU clock here: the CPU mode refuses to run
	}
	var passCPU time.Duration
	run := func(context.Context, msgpass.Params) (msgpass.Result, error) {
		start := cputime.Self()
		for passCPU < 40*time.Millisecond {
			passCPU = cputime.Self().Sub(start).Total()
		}
		return msgpass.Result{Wall: 50 * time.Millisecond, CPU: cputime.Self().Sub(start), Cells: 1}, nil
	}
	res, err := slowed(run, slowdown{frac: frac, cpu: true})(context.Background(), msgpass.DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	planted := time.Duration(res.Stats[PlantedCPUStat])
	want := time.Duration(frac * float64(passCPU))
	// The pass's CPU as reported includes its last clock reading; the spin
	// overshoots by one burst.
	tol := want/10 + 2*time.Millisecond
	if planted < want || planted > want+tol {
		t.Errorf("planted %v of CPU time for a pass of %v; want %v (25%%) to %v", planted, passCPU, want, want+tol)
	}
	if grown := res.CPU.Total() - passCPU; grown < planted || grown > planted+tol {
		t.Errorf("the slowed pass reports %v of CPU time, %v more than the pass's %v; want the planted %v (to %v more)",
			res.CPU.Total(), grown, passCPU, planted, tol)
	}
	if res.Stats[SlowCPUStat] != 1 || res.Stats[SlowStat] != 250 {
		t.Errorf("stats %v; want %s=1 and %s=250", res.Stats, SlowCPUStat, SlowStat)
	}
	if spun := time.Duration(res.Stats[PlantedWallStat]); spun <= 0 || res.Wall != 50*time.Millisecond+spun {
		t.Errorf("wall %v with %s=%v; want the pass's 50ms plus the spin's wall time", res.Wall, PlantedWallStat, spun)
	}
}

// TestCPUSlowdownRefusesAPassWithoutCPUTime: a slowdown in CPU time is a
// share of the pass's CPU time, so a pass that reports none fails the run
// rather than running unslowed.
func TestCPUSlowdownRefusesAPassWithoutCPUTime(t *testing.T) {
	run := func(context.Context, msgpass.Params) (msgpass.Result, error) {
		return msgpass.Result{Wall: time.Millisecond, Cells: 1}, nil
	}
	_, err := slowed(run, slowdown{frac: 0.1, cpu: true})(context.Background(), msgpass.DefaultParams())
	if err == nil || !strings.Contains(err.Error(), "no CPU time") || !strings.Contains(err.Error(), SlowEnv) {
		t.Errorf("slowed pass without CPU time: error %v; want one naming %s and the missing CPU time", err, SlowEnv)
	}
}
