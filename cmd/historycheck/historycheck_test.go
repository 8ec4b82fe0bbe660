package main

import (
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rootbench/rootbench/analysis"
	"pgregory.net/rapid"
)

func TestParseFlagsRefusesBadInput(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-series", "0"}, "-series 0"},
		{[]string{"-only-real"}, "-only-real needs -real"},
		{[]string{"-out", ""}, "-out is empty"},
		{[]string{"extra"}, `unexpected argument "extra"`},
		{[]string{"-bogus"}, "-bogus"},
	} {
		_, err := parseFlags(tc.args)
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want a usage error containing %q", tc.args, err, tc.want)
		}
	}
	if c, err := parseFlags(nil); err != nil || c.series != 2000 || c.out != "results/history.md" {
		t.Errorf("defaults %+v, %v", c, err)
	}
}

func TestJudge(t *testing.T) {
	t.Parallel()
	cps := []analysis.ChangePoint{{Index: 12, LastGood: 9, FirstBad: 13}, {Index: 30, LastGood: 29, FirstBad: 30}}
	for _, tc := range []struct {
		steps []int
		want  outcome
	}{
		{nil, outcome{changePoints: 2, found: true}},
		{[]int{10}, outcome{changePoints: 2, found: true, located: true, width: 4}},
		{[]int{30}, outcome{changePoints: 2, found: true, located: true, exact: true, width: 1}},
		{[]int{9, 31}, outcome{changePoints: 2, found: true}},
	} {
		if got := judge(cps, tc.steps); got != tc.want {
			t.Errorf("steps %v: %+v, want %+v", tc.steps, got, tc.want)
		}
	}
	if got := judge(nil, []int{3}); got != (outcome{}) {
		t.Errorf("no change points: %+v", got)
	}
}

func TestShapes(t *testing.T) {
	t.Parallel()
	c := creep.make(nil)
	if len(c.levels) != 100 || len(c.steps) != 10 || c.steps[0] != 10 || c.steps[9] != 82 || c.levels[9] != 1 ||
		c.levels[10] != 1.015 || c.levels[99] != pow(1.015, 10) {
		t.Errorf("creep: steps %v, levels %v", c.steps, c.levels)
	}
	if s := stepShape(40, 1.05, 1, 1).make(rand.New(rand.NewPCG(1, 1))); !slices.Equal(s.steps, []int{1}) || s.levels[0] != 1 || s.levels[1] != 1.05 {
		t.Errorf("step at 1: %+v", s)
	}
	if got := change(1.05) + " " + change(1.7) + " " + change(0.9) + " " + change(pow(1.015, 10)); got != "+5% +70% -10% +16.1%" {
		t.Errorf("change: %s", got)
	}
}

func TestThousands(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 400000: "400,000", 1234567: "1,234,567", -4000: "-4,000"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestNoiseDrawsRunsAroundTheLevel(t *testing.T) {
	t.Parallel()
	pts := noise{runs: 3, cv: 0.03, build: 0.02}.draw(source(1, step, base, 0), []float64{1, 2})
	if len(pts) != 2 || len(pts[0].Values) != 3 {
		t.Fatalf("points %+v", pts)
	}
	for i, p := range pts {
		for _, v := range p.Values {
			if v < 0.7*float64(i+1) || v > 1.3*float64(i+1) {
				t.Errorf("point %d: run %v far from its level %d", i, v, i+1)
			}
		}
	}
}

func TestRunExperimentsIsDeterministic(t *testing.T) {
	t.Parallel()
	exps := []experiment{{step, base, analysis.ChangePointOptions{}, 30}, {pure, base, analysis.ChangePointOptions{}, 10}}
	a, err := runExperiments(1, exps, func() {})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := runExperiments(1, exps, func() {})
	c, _ := runExperiments(2, exps, func() {})
	if !slices.Equal(a, b) || slices.Equal(a, c) {
		t.Errorf("seed 1 twice: %+v and %+v; seed 2: %+v", a, b, c)
	}
	if a[0].series != 30 || a[0].points != 1200 || a[1].points != 2000 {
		t.Errorf("counts %+v", a)
	}
}

// TestRunExperimentsIsTheSequentialModel: the parallel tallies are those
// of running the series one after another.
func TestRunExperimentsIsTheSequentialModel(t *testing.T) {
	t.Parallel()
	shapes := []shape{step, pure, creep, position{1.7, 1}.shape()}
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint64().Draw(t, "seed")
		var exps []experiment
		for range rapid.IntRange(1, 4).Draw(t, "experiments") {
			exps = append(exps, experiment{
				shape:  rapid.SampledFrom(shapes).Draw(t, "shape"),
				noise:  rapid.SampledFrom([]noise{base, {runs: 3, cv: 0.03, build: 0.02}}).Draw(t, "noise"),
				opts:   analysis.ChangePointOptions{StrictLevel: rapid.SampledFrom([]float64{0.003, 0.05}).Draw(t, "level")},
				series: rapid.IntRange(0, 12).Draw(t, "series"),
			})
		}
		var calls atomic.Int64
		got, err := runExperiments(seed, exps, func() { calls.Add(1) })
		if err != nil {
			t.Fatal(err)
		}
		total := 0
		for e, x := range exps {
			want := tally{series: x.series, points: x.series * x.shape.points}
			for i := range x.series {
				src := source(seed, x.shape, x.noise, i)
				tr := x.shape.make(rand.New(src))
				cps, _ := analysis.ChangePoints(x.noise.draw(src, tr.levels), x.opts)
				o := judge(cps, tr.steps)
				want.changePoints += o.changePoints
				want.width += o.width
				want.found += b2i(o.found)
				want.located += b2i(o.located)
				want.exact += b2i(o.exact)
			}
			if got[e] != want {
				t.Fatalf("experiment %d: %+v, one after another %+v", e, got[e], want)
			}
			total += x.series
		}
		if calls.Load() != int64(total) {
			t.Fatalf("done called %d times for %d series", calls.Load(), total)
		}
	})
}

// TestTargetsOnFewSeries is a small run of make history-check's targets:
// loose bounds that a broken method misses by far.
func TestTargetsOnFewSeries(t *testing.T) {
	if testing.Short() {
		t.Skip("several seconds of series; make history-check runs the full set")
	}
	t.Parallel()
	ts, err := runExperiments(1, []experiment{
		{step, base, analysis.ChangePointOptions{}, 400},
		{pure, base, analysis.ChangePointOptions{}, 400},
		{creep, base, analysis.ChangePointOptions{}, 100},
	}, func() {})
	if err != nil {
		t.Fatal(err)
	}
	if r := frac(ts[0].found, ts[0].series); r < 0.9 {
		t.Errorf("step found in %v of series", r)
	}
	if r := frac(ts[0].located, ts[0].series); r < 0.85 {
		t.Errorf("step located in %v of series", r)
	}
	if r := frac(ts[1].changePoints, ts[1].points); r > 2e-3 {
		t.Errorf("%v false change points per point", r)
	}
	if ts[2].found < 95 {
		t.Errorf("creep found in %d of 100", ts[2].found)
	}
}

func TestRunKeepsOrReplacesTheRealSection(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out, realFile := filepath.Join(dir, "history.md"), filepath.Join(dir, "real.md")
	if err := run(config{out: out, series: 2, seed: 1, command: "historycheck"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	doc := read(t, out)
	if sec, ok := between(doc, realBegin, realEnd); !ok || sec != strings.Trim(realPlaceholder, "\n") {
		t.Fatalf("a new report's real section: %q", sec)
	}
	if _, ok := between(doc, syntheticBegin, syntheticEnd); !ok || !strings.Contains(doc, "| step: found | ") {
		t.Fatalf("no synthetic section:\n%s", doc)
	}
	if err := os.WriteFile(realFile, []byte("## Real history\n\nmeasured\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(config{out: out, real: realFile, onlyReal: true}, io.Discard); err != nil {
		t.Fatal(err)
	}
	replaced := read(t, out)
	if sec, _ := between(replaced, realBegin, realEnd); sec != "## Real history\n\nmeasured" {
		t.Errorf("-only-real: real section %q", sec)
	}
	if a, _ := between(doc, syntheticBegin, syntheticEnd); !strings.Contains(replaced, a) {
		t.Errorf("-only-real changed the synthetic section")
	}
	if err := run(config{out: out, series: 2, seed: 1, command: "historycheck"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	if sec, _ := between(read(t, out), realBegin, realEnd); sec != "## Real history\n\nmeasured" {
		t.Errorf("a new synthetic run lost the real section: %q", sec)
	}
	err := run(config{out: filepath.Join(dir, "none.md"), real: realFile, onlyReal: true}, io.Discard)
	if !errors.Is(err, errUsage) {
		t.Errorf("-only-real without a report: %v, want a usage error", err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
