package compare

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/report"
)

// metricComparison compares ab's usual cells on wall and CPU time, CPU
// time 20% higher for boxroot on head, with the runs' load recorded.
func metricComparison(t *testing.T) *analysis.Comparison {
	t.Helper()
	side := func(head bool) *harness.File {
		var specs []spec
		for _, label := range []string{"ocaml", "boxroot", "cgo-handle", "boxroot-handle"} {
			specs = append(specs, spec{Label: label, Samples: noisy(uint64(len(label)), 12, 1, 0.3)})
		}
		f := fixture(specs...)
		for ri := range f.Results {
			r := &f.Results[ri]
			for i := range r.Runs {
				cpu := 1 + 0.01*math.Sin(float64(i))
				if head && r.Label == "boxroot" {
					cpu *= 1.2
				}
				r.Runs[i].CPUUserNs = int64(cpu * 1e9)
				r.Runs[i].Env = &harness.RunEnv{Load1: 6.1}
				r.Runs[i].Pair = i + 1
			}
		}
		return f
	}
	c, err := analysis.CompareFiles(side(false), side(true), analysis.Options{Threshold: 0.05, Paired: true,
		Metrics: []analysis.Metric{analysis.Wall, analysis.CPU}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestMetricsNamed: every row names its metric in each format; each
// benchmark has a verdict line with the load; the table fits 80 columns.
func TestMetricsNamed(t *testing.T) {
	t.Parallel()
	c := metricComparison(t)
	lines := VerdictLines(c)
	if len(lines) != 4 || !strings.HasPrefix(lines[1], "boxroot: wall time ") ||
		!strings.Contains(lines[1], "; CPU time +20.0% [") || !strings.HasSuffix(lines[1], "] REGRESSION (load 6.1)") {
		t.Fatalf("verdict lines:\n%s", strings.Join(lines, "\n"))
	}
	text := write(t, func(w io.Writer, c *analysis.Comparison) error { return TextWidth(w, c, 80) }, c)
	table, _, _ := strings.Cut(text, lines[0])
	for _, l := range strings.Split(table, "\n") {
		if report.TextWidth(l) > 80 {
			t.Errorf("a line of %d columns at 80:\n%s", report.TextWidth(l), text)
		}
	}
	flat := strings.Join(strings.Fields(text), " ")
	for _, want := range append(lines, "CPU", "wall", "boxroot CPU time +20.0%") {
		if !strings.Contains(flat, want) {
			t.Errorf("text at 80 columns lacks %q:\n%s", want, text)
		}
	}
	md := write(t, Markdown, c)
	for _, want := range []string{"| benchmark      | metric |", "| boxroot        | CPU    |", "- boxroot: wall time", "CPU time +20.0%"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	var doc struct {
		Metrics  []string
		Load     struct{ Lo, Hi float64 }
		Geomeans []struct{ Metric string }
		Rows     []struct{ Label, Metric, MetricLabel, Unit string }
	}
	var b bytes.Buffer
	if err := JSON(&b, c); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(doc.Metrics) != "[wall cpu]" || len(doc.Geomeans) != 2 || doc.Load.Hi != 6.1 ||
		fmt.Sprint(doc.Rows[3]) != "{boxroot cpu  seconds}" {
		t.Errorf("json: %+v", doc)
	}
	if !bytes.Contains(b.Bytes(), []byte(`"metric_label": "CPU time"`)) {
		t.Errorf("json lacks the metric label:\n%s", b.String())
	}
}

// TestConclusionWords: a cost (B/op) rises and falls, a throughput (B/s)
// falls for the worse.
func TestConclusionWords(t *testing.T) {
	t.Parallel()
	text := func(mbs, bop float64) *harness.File {
		var b strings.Builder
		for i := range 10 {
			k := 1 + 0.01*math.Sin(float64(i))
			fmt.Fprintf(&b, "BenchmarkX 1 %v MB/s %v B/op\n", mbs*k, bop*k)
		}
		f, err := harness.DecodeGoBench(strings.NewReader(b.String()), "x.txt")
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	c, err := analysis.CompareFiles(text(100, 100), text(80, 120), analysis.Options{Threshold: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range c.Rows {
		got[r.Metric.Name] = verdictText(r) + ": " + Conclusion(r)
	}
	for unit, want := range map[string]string{"B/s": "worse: lower by at least ", "B/op": "worse: higher by at least "} {
		if !strings.HasPrefix(got[unit], want) {
			t.Errorf("%s: %q, want %q...", unit, got[unit], want)
		}
	}
	c, err = analysis.CompareFiles(text(100, 100), text(100, 100), analysis.Options{Threshold: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range c.Rows {
		want := map[string]string{"B/s": "no fall beyond -", "B/op": "no rise beyond +"}[r.Metric.Name]
		if !strings.HasPrefix(Conclusion(r), want) {
			t.Errorf("%s unchanged: %q, want %q...", r.Metric.Name, Conclusion(r), want)
		}
	}
}
