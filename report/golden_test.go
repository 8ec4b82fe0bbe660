package report_test

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/report"
	"github.com/rootbench/rootbench/report/export"
	"github.com/rootbench/rootbench/report/internal/golden"
)

// TestGolden pins what people read of real results files, byte for byte:
// the run's summary in every layout and order, each benchmark's block, and
// the Markdown, CSV, JSON and Go benchmark exports, for the results files
// testdata/results holds (copies of results/*.json) and a copy of one with
// failed and slow runs. go test -run TestGolden -update rewrites the golden
// files after a change meant to move the output.
func TestGolden(t *testing.T) {
	t.Parallel()
	names, files := golden.Results(t, "testdata/results")
	for i, f := range files {
		name := strings.TrimSuffix(names[i], ".json")
		golden.Check(t, name+".txt", goldenOutput(t, f, name == "msgpass"))
		if name == "msgpass" {
			golden.Check(t, name+"-failures.txt", goldenOutput(t, withFailures(f), true))
		}
	}
}

// withFailures is a copy of f whose first result lost two runs, whose
// second lost every run, and whose third had a slow first run, summarized
// as the engine summarizes a run: every warning Summarize writes shows.
func withFailures(f *harness.File) *harness.File {
	c := *f
	c.Results = make([]harness.Result, len(f.Results))
	for i := range f.Results {
		c.Results[i] = f.Results[i]
		c.Results[i].Runs = append([]harness.Run(nil), f.Results[i].Runs...)
	}
	for k := range 2 {
		run := &c.Results[0].Runs[k]
		run.Failed, run.Error, run.StderrTail = true, "exit status 2", "panic: value mismatch\n\ngoroutine 1 [running]:\n"
	}
	for k := range c.Results[1].Runs {
		c.Results[1].Runs[k].Failed, c.Results[1].Runs[k].Error = true, "signal: killed"
	}
	c.Results[2].Runs[0].WallNs *= 4
	harness.Summarize(&c)
	return &c
}

// goldenOutput renders everything TestGolden pins of f; every narrowing
// of the summary table (widths 100 down to 40) when allWidths, one
// narrowed table otherwise.
func goldenOutput(t *testing.T, f *harness.File, allWidths bool) string {
	var b strings.Builder
	section := func(title string) { fmt.Fprintf(&b, "==== %s\n", title) }
	variants := []struct {
		title string
		o     report.Options
	}{
		{"summary", report.Options{Style: report.Basic}},
		{"summary, colour", report.Options{Style: report.Full}},
		{"summary, sort mean, ms", report.Options{Style: report.Basic, Sort: report.SortMean, Unit: report.Millisecond}},
		{"summary, sort cell", report.Options{Style: report.Basic, Sort: report.SortCell}},
	}
	widths := []int{60}
	if allWidths {
		widths = []int{100, 80, 60, 40}
	}
	for _, w := range widths {
		variants = append(variants, struct {
			title string
			o     report.Options
		}{fmt.Sprintf("summary, width %d", w), report.Options{Style: report.Basic, Width: w}})
	}
	for _, v := range variants {
		section(v.title)
		var buf bytes.Buffer
		report.Summary(&buf, f, v.o)
		b.Write(buf.Bytes())
	}
	section("benchmarks")
	for i := range f.Results {
		var buf bytes.Buffer
		report.Benchmark(&buf, f, i+1, &f.Results[i], report.Options{Style: report.Basic})
		b.Write(buf.Bytes())
	}
	for _, e := range []struct {
		format string
		digest bool
	}{{"markdown", false}, {"csv", false}, {"json", true}, {"gobench", true}} {
		fn, err := export.ByName(e.format)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := fn(&buf, f); err != nil {
			t.Fatalf("%s export: %v", e.format, err)
		}
		if e.digest {
			section(e.format + " export, SHA-256")
			fmt.Fprintf(&b, "%x\n", sha256.Sum256(buf.Bytes()))
			continue
		}
		section(e.format + " export")
		b.Write(buf.Bytes())
	}
	return b.String()
}
