package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
)

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// render calls print with each style and checks what every output must
// satisfy: no escape codes without colour, and the coloured output is the
// plain one with escape codes added. It returns the plain output.
func render(t *testing.T, print func(*bytes.Buffer, Options), o Options) string {
	t.Helper()
	var plain bytes.Buffer
	o.Style = Basic
	print(&plain, o)
	for _, s := range []Style{Basic, NoColor, AutoStyle, None} {
		var b bytes.Buffer
		o.Style = s
		print(&b, o)
		if ansi.Match(b.Bytes()) || strings.Contains(b.String(), "\x1b") {
			t.Errorf("style %v: output has escape codes:\n%q", s, b.String())
		}
	}
	for _, s := range []Style{Full, ColorOnly} {
		var b bytes.Buffer
		o.Style = s
		print(&b, o)
		if got := ansi.ReplaceAllString(b.String(), ""); got != plain.String() {
			t.Errorf("style %v without its escape codes differs from basic:\n%s\nwant\n%s", s, got, plain.String())
		}
	}
	return plain.String()
}

func TestBenchmarkBlock(t *testing.T) {
	t.Parallel()
	f := seedFile()
	r := &f.Results[0]
	r.UserMean, r.SysMean = 3.102, 0.101
	var colored bytes.Buffer
	Benchmark(&colored, f, 1, r, Options{Style: Full})
	if !strings.Contains(colored.String(), ansiGreen) {
		t.Errorf("full style has no colour:\n%q", colored.String())
	}
	got := render(t, func(b *bytes.Buffer, o Options) { Benchmark(b, f, 1, r, o) }, Options{})
	want := "Benchmark 1: boxroot\n" +
		"  Time (mean ± σ):      1.686 s ±  0.013 s    [User: 3.102 s, System: 0.101 s]\n" +
		"  Range (min … max):    1.670 s …  1.710 s    10 runs\n" +
		"  Per cell:            16.46 ns/cell    60.74 M cells/s\n"
	if got != want {
		t.Errorf("Benchmark block:\n%s\nwant\n%s", got, want)
	}
}

func TestBenchmarkUnitsAndCalls(t *testing.T) {
	t.Parallel()
	f := seedFile()
	f.Unit = "call"
	r := &f.Results[1]
	got := render(t, func(b *bytes.Buffer, o Options) { Benchmark(b, f, 7, r, o) }, Options{})
	for _, want := range []string{"Benchmark 7: ocaml", "  Time (mean ± σ):     776.0 ms ±  12.0 ms", "760.0 ms … 790.0 ms", "Per call:", "7.58 ns/call", "M calls/s"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	got = render(t, func(b *bytes.Buffer, o Options) { Benchmark(b, nil, 1, r, o) }, Options{Unit: Second})
	if !strings.Contains(got, "0.776 s ±  0.012 s") || !strings.Contains(got, "ns/cell") {
		t.Errorf("explicit seconds, nil file:\n%s", got)
	}
}

func TestBenchmarkSingleRun(t *testing.T) {
	t.Parallel()
	f := seedFile()
	r := result("once", 1.5, 0, 1.5, 1.5, 1.5)
	got := render(t, func(b *bytes.Buffer, o Options) { Benchmark(b, f, 1, &r, o) }, Options{})
	if !strings.Contains(got, "Time (abs ≡):") || !strings.Contains(got, "1.500 s") || strings.Contains(got, "Range") {
		t.Errorf("single run should print hyperfine's abs line and no range:\n%s", got)
	}
}

// summarized runs harness.Summarize, which owns the statistical warnings,
// on a one-result file built from r.
func summarized(r harness.Result) (*harness.File, *harness.Result) {
	f := seedFile()
	f.Results = []harness.Result{r}
	f.Reference = r.Label
	harness.Summarize(f)
	return f, &f.Results[0]
}

// gathered renders r's block, checks that it carries no statistical
// warning, and returns the block followed by f's warnings as the summary
// prints them (gatheredWarnings).
func gathered(t *testing.T, f *harness.File, r *harness.Result) string {
	t.Helper()
	block := render(t, func(b *bytes.Buffer, o Options) { Benchmark(b, f, 1, r, o) }, Options{})
	if strings.Contains(block, "Warning") {
		t.Errorf("a statistical warning is printed under the benchmark, not gathered under the summary:\n%s", block)
	}
	for _, w := range gatheredWarnings(f, analysis.Summarize(f)) {
		block += "Warning: " + w + "\n"
	}
	return block
}

func TestBenchmarkWarnings(t *testing.T) {
	t.Parallel()
	// Statistical warnings, gathered under the summary: each once, and
	// hyperfine's slow first run instead of, not besides, outliers.
	for _, tc := range []struct {
		name, label string
		walls       []float64
		once        []string
		absent      string
	}{
		{"slow first run", "cold", []float64{3.0, 0.99, 1.0, 1.01, 0.99, 1.0, 1.02, 1.0, 0.99, 1.01},
			[]string{"The first benchmarking run for this benchmark was significantly slower than the rest"}, "Statistical outliers"},
		{"outliers", "spiky", []float64{1.0, 0.99, 1.0, 1.01, 3.0, 1.0, 1.02, 1.0, 0.99, 1.01},
			[]string{"Warning: spiky: Statistical outliers were detected."}, "first benchmarking run"},
		{"noisy and few", "noisy", []float64{0.9, 1.0, 1.1},
			[]string{"Warning: 1 benchmark varies by more than 5% (coefficient of variation): noisy (10.0%).", "Warning: noisy: Too few runs for a 95% confidence interval"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, r := summarized(result(tc.label, 0, 0, 0, 0, tc.walls...))
			got := gathered(t, f, r)
			for _, want := range tc.once {
				if strings.Count(got, want) != 1 {
					t.Errorf("want %q exactly once:\n%s", want, got)
				}
			}
			if tc.absent != "" && strings.Contains(got, tc.absent) {
				t.Errorf("want no %q:\n%s", tc.absent, got)
			}
		})
	}

	t.Run("quiet", func(t *testing.T) {
		f, r := summarized(result("steady", 0, 0, 0, 0, 1.0, 0.99, 1.0, 1.01, 0.995, 1.0, 1.002, 1.0, 0.99, 1.01))
		got := render(t, func(b *bytes.Buffer, o Options) { Benchmark(b, f, 1, r, o) }, Options{})
		if strings.Contains(got, "Warning") {
			t.Errorf("a steady benchmark has no warnings:\n%s", got)
		}
	})

	t.Run("failed runs", func(t *testing.T) {
		r := result("flaky", 0, 0, 0, 0, 1, 1, 1, 1, 1, 0.999, 1.001, 1, 1, 1)
		for i := 0; i < 5; i++ {
			r.Runs[i].Failed = true
			r.Runs[i].Error = "exit status 2"
			r.Runs[i].StderrTail = "panic: flaky: double delete\n\ngoroutine 1 [running]:\n"
		}
		r.Runs[2].StderrTail = ""
		f, rr := summarized(r)
		got := render(t, func(b *bytes.Buffer, o Options) { Benchmark(b, f, 1, rr, o) }, Options{})
		for _, want := range []string{
			"5 runs",
			"Warning: 5 of 10 runs failed and are left out of the statistics (first failure: exit status 2).",
			"Warning: Failed runs:\n    run 1 of 10: exit status 2\n        panic: flaky: double delete\n\n        goroutine 1 [running]:\n    run 2 of 10: exit status 2\n",
			"    run 3 of 10: exit status 2\n    … and 2 more failed runs\n",
		} {
			if !strings.Contains(got, want) {
				t.Errorf("output lacks %q:\n%s", want, got)
			}
		}
	})

	t.Run("all failed", func(t *testing.T) {
		r := result("broken", 0, 0, 0, 0, 1, 1)
		for i := range r.Runs {
			r.Runs[i].Failed = true
			r.Runs[i].Error = "timeout after 30s"
		}
		f, rr := summarized(r)
		got := render(t, func(b *bytes.Buffer, o Options) { Benchmark(b, f, 2, rr, o) }, Options{})
		if !strings.Contains(got, "All 2 runs failed: no statistics.") || strings.Contains(got, "Time (") ||
			!strings.Contains(got, "run 2 of 2: timeout after 30s") {
			t.Errorf("all-failed block:\n%s", got)
		}
	})
}

func TestWarnings(t *testing.T) {
	t.Parallel()
	ws := []string{"CPU frequency scaling is on", "load average is 3.2"}
	got := render(t, func(b *bytes.Buffer, o Options) { Warnings(b, ws, o) }, Options{})
	if want := "Warning: CPU frequency scaling is on\nWarning: load average is 3.2\n"; got != want {
		t.Errorf("Warnings = %q, want %q", got, want)
	}
	var b bytes.Buffer
	Warnings(&b, ws, Options{Style: Full})
	if !strings.Contains(b.String(), ansiYellow+"Warning"+ansiReset) {
		t.Errorf("coloured warning is not yellow: %q", b.String())
	}
}
