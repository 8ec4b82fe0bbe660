package analysis

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/harness"
)

func TestParseMetrics(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in, want string
	}{
		{DefaultMetrics, "wall cpu"},
		{"cpu", "cpu"},
		{" CPU , Wall ", "cpu wall"},
	} {
		ms, err := ParseMetrics(c.in)
		var names []string
		for _, m := range ms {
			names = append(names, m.Name)
		}
		if err != nil || strings.Join(names, " ") != c.want {
			t.Errorf("ParseMetrics(%q) = %v, %v; want %s", c.in, names, err, c.want)
		}
	}
	for _, in := range []string{"", " ", "nosuch", "wall,", "wall,wall", "wall,,cpu"} {
		if ms, err := ParseMetrics(in); err == nil || !strings.Contains(err.Error(), "accepted: wall") {
			t.Errorf("ParseMetrics(%q) = %v, %v; want an error saying what is accepted", in, ms, err)
		}
	}
	us, err := ParseUnits("ns/op, MB/s,allocs/op")
	if err != nil || fmt.Sprint(us) != "[sec/op B/s allocs/op]" {
		t.Errorf("ParseUnits = %v, %v; want the units as benchfmt tidies them", us, err)
	}
	if _, err := ParseUnits(""); err == nil {
		t.Errorf("ParseUnits(\"\"): no error")
	}
	if _, err := (Options{Metrics: []Metric{Wall, Wall}}).resolve(); err == nil {
		t.Errorf("Options with wall twice: no error")
	}
}

// cpuFixture is two results, ocaml and boxroot, of n runs whose wall time
// is wall(label, i) and whose CPU time is cpu(label, i), in seconds, as
// the measured passes' (passes) or the whole process's (process).
func cpuFixture(wall, cpu func(label string, i int) float64, passes, process bool) *harness.File {
	const n = 12
	var specs []spec
	for _, label := range []string{"ocaml", "boxroot"} {
		s := spec{Label: label}
		for i := range n {
			s.Samples = append(s.Samples, wall(label, i))
		}
		specs = append(specs, s)
	}
	f := fixture(specs...)
	for ri := range f.Results {
		r := &f.Results[ri]
		for i := range r.Runs {
			ns := int64(cpu(r.Label, i) * 1e9)
			if passes {
				r.Runs[i].CPUUserNs, r.Runs[i].CPUSysNs = ns-ns/10, ns/10
			}
			if process {
				// The process adds a start-up that does not change.
				r.Runs[i].UserNs, r.Runs[i].SysNs = ns+1e8, 0
			}
			r.Runs[i].Pair = i + 1
		}
	}
	return f
}

// jitter is a fixed, centred noise of a few percent by run.
func jitter(i int) float64 { return 1 + 0.02*math.Sin(float64(7*i+1)) }

func flat(_ string, i int) float64 { return jitter(i) }

// slowerCPU is 20% more CPU time for boxroot on the head side.
func slowerCPU(head bool) func(string, int) float64 {
	return func(label string, i int) float64 {
		if head && label == "boxroot" {
			return 1.2 * jitter(i)
		}
		return jitter(i)
	}
}

// TestMetricRows: a row per benchmark and metric, the benchmark's rows
// together, wall first; every row in one Holm family; the comparison
// regresses when one metric does, and says which.
func TestMetricRows(t *testing.T) {
	t.Parallel()
	base := cpuFixture(flat, slowerCPU(false), true, true)
	head := cpuFixture(flat, slowerCPU(true), true, true)
	both := []Metric{Wall, CPU}
	c, err := CompareFiles(base, head, Options{Threshold: 0.05, Metrics: both})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range c.Rows {
		got = append(got, r.Label+" "+r.Metric.Name+" "+string(r.Gate))
	}
	want := "[ocaml wall pass ocaml cpu pass boxroot wall pass boxroot cpu regression]"
	if fmt.Sprint(got) != want {
		t.Fatalf("rows %v, want %s", got, want)
	}
	if !c.NamesMetrics() || c.Outcome() != Regression || c.Outcome().ExitCode() != 1 {
		t.Errorf("names metrics %v, outcome %s: want a regression (exit 1) named by metric", c.NamesMetrics(), c.Outcome())
	}
	if r := c.OutcomeReason(); r != "regression beyond the gate in: boxroot CPU time" {
		t.Errorf("reason %q", r)
	}
	// Holm over the four rows: the one rejected row is tested at α/4, the
	// others (not rejected) at the next step's level, α/3.
	cpu := c.Rows[3]
	if math.Abs(cpu.Level-(1-0.05/4)) > 1e-12 || math.Abs(c.Rows[0].Level-(1-0.05/3)) > 1e-12 {
		t.Errorf("levels %v and %v: want 1-α/4 for the rejected row, 1-α/3 for the rest (Holm over 4 rows)", cpu.Level, c.Rows[0].Level)
	}
	if len(c.Geomeans) != 2 || c.Geomean.Metric != Wall || c.Geomeans[1].Metric != CPU {
		t.Errorf("geomeans %+v: want one per metric, wall's first", c.Geomeans)
	}
	// Wall time alone: the rows, figures and outcome of before.
	w, err := CompareFiles(base, head, Options{Threshold: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Rows) != 2 || w.NamesMetrics() || w.Outcome() != Pass || w.Rows[0].Level != 1-0.05/2 {
		t.Errorf("wall alone: %d rows, names metrics %v, outcome %s, level %v", len(w.Rows), w.NamesMetrics(), w.Outcome(), w.Rows[0].Level)
	}
	// Paired, as a session's look judges it: the same rows.
	s := Sequential{Alpha: 0.05, Threshold: 0.05, Metrics: both}
	p, err := s.Judge(base, head, 1)
	if err != nil || len(p.Rows) != 4 || p.Rows[3].Gate != Regression || !p.Paired {
		t.Fatalf("Judge: %v, %+v", err, p)
	}
	g := s.gateRecord(p, 1)
	if g.Rows[0].Metric != "" || g.Rows[1].Metric != "cpu" || g.Outcome != string(Regression) {
		t.Errorf("gate record %+v: want wall rows without a metric, CPU rows with cpu", g)
	}
}

// TestCPUFallback: the measured passes' CPU time when every run has it;
// else the whole process's for both sides, with a warning; else no CPU
// row, with a warning.
func TestCPUFallback(t *testing.T) {
	t.Parallel()
	both := []Metric{Wall, CPU}
	base := cpuFixture(flat, slowerCPU(false), true, true)
	old := cpuFixture(flat, slowerCPU(true), false, true) // a worker that predates the passes' CPU time
	c, err := CompareFiles(base, old, Options{Threshold: 0.05, Metrics: both})
	if err != nil {
		t.Fatal(err)
	}
	if r := c.Rows[1]; r.Metric != ProcessCPU || math.Abs(r.Base.Median-(1.1)) > 0.03 {
		t.Errorf("row %s %s, base median %v: want process CPU time (the start-up included) on both sides", r.Label, r.Metric.Label, r.Base.Median)
	}
	if w := strings.Join(c.Warnings, "\n"); !strings.Contains(w, "ocaml, boxroot compared on process CPU time") || !strings.Contains(w, "predates") {
		t.Errorf("warnings lack the process CPU note:\n%s", w)
	}
	if c.RowName(c.Rows[1]) != "ocaml process CPU time" {
		t.Errorf("row name %q", c.RowName(c.Rows[1]))
	}
	none := cpuFixture(flat, flat, false, false)
	c, err = CompareFiles(none, none, Options{Metrics: both})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Rows) != 2 || c.NamesMetrics() || !strings.Contains(strings.Join(c.Warnings, "\n"), "ocaml, boxroot: no CPU time row") {
		t.Errorf("no CPU time: %d rows (names metrics %v), warnings %q", len(c.Rows), c.NamesMetrics(), c.Warnings)
	}
	if _, err := CompareFiles(none, none, Options{Metrics: []Metric{CPU}}); err == nil {
		t.Errorf("CPU time alone of files without it: no error")
	}
	// Across layouts, the choice is made over every session.
	l, err := CompareLayouts([]LayoutSession{{"0", base, base}, {"5", base, old}}, Options{Metrics: both})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Rows) != 4 || l.Rows[1].Metric != ProcessCPU {
		t.Errorf("layouts: %d rows, second %s", len(l.Rows), l.Rows[1].Metric.Label)
	}
}

// TestHigherIsBetterAndExact: a throughput (B/s) that falls regresses and
// one that rises passes; a unit declared exact is decided by one run a
// side.
func TestHigherIsBetterAndExact(t *testing.T) {
	t.Parallel()
	text := func(mbs, size float64) *harness.File {
		var b strings.Builder
		b.WriteString("Unit text-bytes assume=exact\n")
		for i := range 8 {
			fmt.Fprintf(&b, "BenchmarkX 1 %v MB/s\n", mbs*jitter(i))
		}
		fmt.Fprintf(&b, "BenchmarkSize 1 %v text-bytes\n", size)
		f, err := harness.DecodeGoBench(strings.NewReader(b.String()), "x.txt")
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	gates := func(base, head *harness.File, threshold float64) string {
		c, err := CompareFiles(base, head, Options{Threshold: threshold})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range c.Rows {
			out = append(out, fmt.Sprintf("%s %s %s %s", r.Label, r.Metric.Name, r.Verdict, r.Gate))
		}
		return strings.Join(out, "; ")
	}
	if got, want := gates(text(100, 100), text(80, 105), 0.03), "X B/s slower regression; Size text-bytes slower regression"; got != want {
		t.Errorf("a fall of B/s and a 5%% rise of an exact size at a 3%% gate: %s; want %s", got, want)
	}
	if got, want := gates(text(100, 100), text(120, 105), 0.10), "X B/s faster pass; Size text-bytes slower pass"; got != want {
		t.Errorf("a rise of B/s and a 5%% rise of an exact size at a 10%% gate: %s; want %s", got, want)
	}
}
