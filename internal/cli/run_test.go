package cli

import (
	"encoding/csv"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/perf/benchfmt"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/internal/racedetect"
	"github.com/rootbench/rootbench/workload/callback"
	"github.com/rootbench/rootbench/workload/msgpass"
)

func TestRunOCamlEnvironmentVerbatim(t *testing.T) {
	fullSuiteOnly(t, "runs workers")
	t.Parallel()
	r := rootbench(t, []string{"SCHEDULER=Parallel", "MAX_DELAY=128", "NITERS=2_0", "BATCH_SIZE=1024", "CELL=boxroot"},
		"run", "--runs", "3")
	r.Must(t, 0)
	if n := strings.Count(r.Stdout, "Benchmark "); n != 1 {
		t.Fatalf("want one benchmark block, got %d:\n%s", n, r.Stdout)
	}
	for _, want := range []string{"boxroot", "Time (mean ± σ)", "Range (min … max)", "3 runs"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.Stdout)
		}
	}
}

func TestRunSixCellsWithSummary(t *testing.T) {
	fullSuiteOnly(t, "runs workers")
	t.Parallel()
	cells := withCgoHandle("ocaml", "boxroot", "ref", "generational", "bxboxed")
	r := rootbench(t, nil, "run", "--cell", strings.Join(cells, ","), "--niters", "20", "--runs", "3")
	r.Must(t, 0)
	for _, c := range cells {
		if !strings.Contains(r.Stdout, "Benchmark") || !strings.Contains(r.Stdout, c) {
			t.Errorf("output lacks cell %s", c)
		}
	}
	if n := strings.Count(r.Stdout, "Benchmark "); n != len(cells) {
		t.Errorf("want %d benchmark blocks, got %d", len(cells), n)
	}
	sentences := regexp.MustCompile(`'[^']+' ran\s+[0-9.]+ ± [0-9.]+ times (faster|slower) than '[^']+'`).FindAllString(r.Stdout, -1)
	if len(sentences) != len(cells)-1 {
		t.Errorf("want %d relative sentences, got %d:\n%s", len(cells)-1, len(sentences), r.Stdout)
	}
}

func TestExportsHoldEverySample(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	r := rootbench(t, nil, "run", "--cell", "ocaml,boxroot", "--niters", "20", "--runs", "2",
		"--export-json", p("r.json"), "--export-markdown", p("r.md"), "--export-csv", p("r.csv"), "--export-gobench", p("r.txt"))
	r.Must(t, 0)
	f := mustLoad(t, p("r.json"))
	samples := 0
	for _, res := range f.Results {
		for _, run := range res.Runs {
			samples++
			if run.PeakRSSBytes <= 0 || run.WallNs <= 0 || run.Cells != 20*1024*msgpass.DefaultPasses || len(run.PassNs) != msgpass.DefaultPasses {
				t.Errorf("%s run %d lacks figures: %+v", res.Label, run.Index, run)
			}
			if run.GC.HeapAllocBytes <= 0 {
				t.Errorf("%s run %d has no GC figures: %+v", res.Label, run.Index, run.GC)
			}
		}
	}
	if samples != 4 || f.Partial {
		t.Fatalf("r.json: %d samples (partial=%v), want 4", samples, f.Partial)
	}
	md, _ := os.ReadFile(p("r.md"))
	if !strings.Contains(string(md), "| Cell") || !strings.Contains(string(md), "Relative") {
		t.Errorf("r.md is not hyperfine's table:\n%s", md)
	}
	fh, _ := os.Open(p("r.csv"))
	rows, err := csv.NewReader(fh).ReadAll()
	fh.Close()
	if err != nil || len(rows) != 3 {
		t.Errorf("r.csv: %d rows, err %v; want a header and 2 rows", len(rows), err)
	}
	gb, _ := os.Open(p("r.txt"))
	defer gb.Close()
	n := 0
	for rd := benchfmt.NewReader(gb, "r.txt"); rd.Scan(); {
		if _, ok := rd.Result().(*benchfmt.Result); ok {
			n++
		}
	}
	if n != 4 {
		t.Errorf("r.txt: %d Go benchmark results, want 4", n)
	}
}

func TestParameterListLabelsEachConfiguration(t *testing.T) {
	fullSuiteOnly(t, "runs workers")
	t.Parallel()
	out := filepath.Join(t.TempDir(), "r.json")
	r := rootbench(t, nil, "run", "--cell", "boxroot", "--niters", "10", "--runs", "1",
		"--parameter-list", "batch-size=16,1024", "--parameter-list", "scheduler=parallel,sequential", "--export-json", out)
	r.Must(t, 0)
	f := mustLoad(t, out)
	labels := map[string]bool{}
	for _, res := range f.Results {
		labels[res.Label] = true
	}
	for _, want := range []string{
		"boxroot batch-size=16 scheduler=parallel", "boxroot batch-size=16 scheduler=sequential",
		"boxroot batch-size=1024 scheduler=parallel", "boxroot batch-size=1024 scheduler=sequential",
	} {
		if !labels[want] {
			t.Errorf("no result labelled %q (have %v)", want, labels)
		}
	}
	if len(f.Results) != 4 {
		t.Errorf("%d configurations, want 4", len(f.Results))
	}
}

func TestBaselineGate(t *testing.T) {
	fullSuiteOnly(t, "runs workers")
	t.Parallel()
	dir := t.TempDir()
	base := filepath.Join(dir, "base.json")
	rootbench(t, nil, "run", "--cell", "ocaml", "--niters", "10", "--runs", "7", "--export-json", base).Must(t, 0)

	// Against itself-like noise the gate stays quiet: the comparison is
	// printed and the exit status is 0 unless a significant change lies
	// wholly beyond 50%.
	r := rootbench(t, nil, "run", "--cell", "ocaml", "--niters", "10", "--runs", "7", "--baseline", base, "--fail-on-regression", "50%")
	if r.Code != 0 && r.Code != 1 && r.Code != 3 {
		r.Must(t, 0)
	}
	if !strings.Contains(r.Stdout, "ocaml") || !strings.Contains(strings.ToLower(r.Stdout), "geomean") {
		t.Errorf("run --baseline printed no comparison:\n%s", r.Stdout)
	}

	// A baseline 100x faster than anything this run can do: a regression
	// far beyond the threshold, so the gate fails the run.
	f := mustLoad(t, base)
	for i := range f.Results {
		for j := range f.Results[i].Runs {
			f.Results[i].Runs[j].WallNs /= 100
		}
	}
	harness.Summarize(f)
	fast := filepath.Join(dir, "fast.json")
	data, _ := json.Marshal(f)
	if err := os.WriteFile(fast, data, 0o644); err != nil {
		t.Fatal(err)
	}
	r = rootbench(t, nil, "run", "--cell", "ocaml", "--niters", "10", "--runs", "7", "--baseline", fast, "--fail-on-regression", "5%")
	r.Must(t, 1)
	if !strings.Contains(r.Stderr, "regressed") {
		t.Errorf("the gate's failure does not say what regressed:\n%s", r.Stderr)
	}
	rootbench(t, nil, "compare", "--fail-on-regression", "5%", fast, base).Must(t, 1)
	rootbench(t, nil, "run", "--cell", "ocaml", "--fail-on-regression", "5%").Must(t, exitUsage)
}

func TestManyWorkersEveryCellVerified(t *testing.T) {
	fullSuiteOnly(t, "runs workers")
	t.Parallel()
	cells := withCgoHandle("boxroot", "ref")
	r := rootbench(t, nil, "run", "--producers", "4", "--consumers", "4", "--queue", "per-consumer",
		"--cell", strings.Join(cells, ","), "--niters", "20", "--runs", "1")
	r.Must(t, 0)
	if n := strings.Count(r.Stdout, "Benchmark "); n != len(cells) {
		t.Errorf("want %d verified cells, got %d blocks:\n%s", len(cells), n, r.Stdout)
	}
}

// hyperfine's spelling works: -w, -r, the two-argument -L, and every
// measured and warm-up run is one worker process.
func TestHyperfineFlags(t *testing.T) {
	fullSuiteOnly(t, "runs workers")
	t.Parallel()
	dir := t.TempDir()
	out, log := filepath.Join(dir, "r.json"), filepath.Join(dir, "workers.log")
	r := rootbench(t, []string{workerLogEnv + "=" + log}, "run", "--cell", "ocaml", "-w", "1", "-r", "3",
		"-L", "batch-size", "256,1024", "--niters", "20", "--export-json", out)
	r.Must(t, 0)
	f := mustLoad(t, out)
	runs := map[string]int{}
	for _, res := range f.Results {
		runs[res.Label] = len(res.Runs)
	}
	want := map[string]int{"ocaml batch-size=256": 3, "ocaml batch-size=1024": 3}
	if !maps.Equal(runs, want) {
		t.Errorf("runs per benchmark %v, want %v", runs, want)
	}
	started, err := os.ReadFile(log)
	if err != nil {
		t.Fatalf("no worker recorded its start: %v", err)
	}
	if n := strings.Count(string(started), "\n"); n != 2*(1+3) {
		t.Errorf("%d worker processes, want 8 (2 benchmarks × (1 warm-up + 3 runs)):\n%s", n, started)
	}

	// -P NAME MIN MAX with -D, and -n as a template.
	r = rootbench(t, nil, "run", "--cell", "ocaml", "-r", "1", "--niters", "10",
		"-P", "batch-size", "16", "48", "-D", "16", "-n", "{cell}@{batch-size}", "--export-json", out)
	r.Must(t, 0)
	f = mustLoad(t, out)
	var labels []string
	for _, res := range f.Results {
		labels = append(labels, res.Label)
	}
	if want := []string{"ocaml@16", "ocaml@32", "ocaml@48"}; !slices.Equal(labels, want) {
		t.Errorf("-P batch-size 16 48 -D 16 -n {cell}@{batch-size}: labels %q, want %q", labels, want)
	}
}

func TestShowOutputPassesWorkerOutputThrough(t *testing.T) {
	fullSuiteOnly(t, "runs workers")
	t.Parallel()
	r := rootbench(t, nil, "run", "--cell", "ocaml", "-r", "2", "--niters", "10", "--show-output")
	r.Must(t, 0)
	if n := strings.Count(r.Stderr, `"wall_ns"`); n != 2 {
		t.Errorf("stderr holds %d worker report lines, want 2 (one per run):\n%s", n, r.Stderr)
	}
	r = rootbench(t, nil, "run", "--cell", "ocaml", "-r", "2", "--niters", "10")
	r.Must(t, 0)
	if strings.Contains(r.Stderr, `"wall_ns"`) {
		t.Errorf("without --show-output, worker output reached stderr:\n%s", r.Stderr)
	}
}

// --cell all says, in one line, which cells this build leaves out; with cgo
// it leaves out none.
func TestCellAllNamesWhatItLeavesOut(t *testing.T) {
	fullSuiteOnly(t, "runs workers")
	t.Parallel()
	r := rootbench(t, nil, "run", "--cell", "all", "-r", "1", "--niters", "10")
	r.Must(t, 0)
	note := ""
	for _, l := range strings.Split(r.Stderr, "\n") {
		if strings.Contains(l, "leaves out") {
			note = l
		}
	}
	if callback.Available {
		if note != "" {
			t.Errorf("a cgo build left cells out: %s", note)
		}
		return
	}
	if !strings.Contains(note, "--cell all leaves out cgo-handle") || !strings.Contains(note, "CGO_ENABLED=0") {
		t.Errorf("without cgo, --cell all does not say it left cgo-handle out:\n%s", r.Stderr)
	}
}

// The memory estimate is an upper bound: a run with every batch allowed in
// flight stays below it, for the cell that roots most expensively. The heap
// is checked in every build, the whole process (peak RSS) without -race.
func TestMemoryEstimateBoundsARun(t *testing.T) {
	fullSuiteOnly(t, "runs a real workload for seconds")
	t.Parallel()
	cellName := "cgo-handle"
	if !callback.Available {
		cellName = "generational"
	}
	out := filepath.Join(t.TempDir(), "r.json")
	r := rootbench(t, nil, "run", "--cell", cellName, "-r", "1", "--max-delay", "0", "--niters", "256",
		"--batch-size", "1024", "--export-json", out)
	r.Must(t, 0)
	f := mustLoad(t, out)
	p := msgpass.DefaultParams()
	p.MaxDelay, p.NIters, p.BatchSize = 0, 256, 1024
	est := msgpass.EstimateMemory(p)
	for _, res := range f.Results {
		for _, run := range res.Runs {
			// The estimate is for binaries built without the race
			// detector, whose shadow memory is not in the model.
			if run.PeakRSSBytes <= 0 || (!racedetect.Enabled && run.PeakRSSBytes > est.Bytes) {
				t.Errorf("%s: peak RSS %d B, estimate %d B: the estimate must bound it", res.Label, run.PeakRSSBytes, est.Bytes)
			}
			if run.GC.PeakHeapBytes > est.Bytes-msgpass.BaseBytes {
				t.Errorf("%s: peak heap %d B above the estimate's variable part %d B", res.Label, run.GC.PeakHeapBytes, est.Bytes-msgpass.BaseBytes)
			}
		}
	}
}

// COLUMNS sets the width output fits where no terminal says it (a pipe):
// the report is wrapped to 80 columns, where its summary and warnings run
// to some 190 without it. (Not the "Time (mean ± σ)" lines, hyperfine's
// format, which a run of microseconds can take past 80.)
func TestColumnsNarrowsPipedReport(t *testing.T) {
	fullSuiteOnly(t, "runs workers")
	t.Parallel()
	args := []string{"run", "--cell", "ocaml,boxroot,ref", "--niters", "10", "-r", "2"}
	widest := func(out string) (int, string) {
		w, line := 0, ""
		for _, l := range strings.Split(out, "\n") {
			if n := utf8.RuneCountInString(l); n > w && !strings.HasPrefix(l, "  Time (mean") {
				w, line = n, l
			}
		}
		return w, line
	}
	whole := rootbench(t, nil, args...)
	whole.Must(t, 0)
	narrow := rootbench(t, []string{"COLUMNS=80"}, args...)
	narrow.Must(t, 0)
	if w, l := widest(narrow.Stdout); w > 80 {
		t.Errorf("with COLUMNS=80 a line is %d columns wide: %q", w, l)
	}
	if w, _ := widest(whole.Stdout); w <= 80 {
		t.Errorf("without COLUMNS the piped report is %d columns wide; the test needs it wider than 80:\n%s", w, whole.Stdout)
	}
}

func TestRunCountFlags(t *testing.T) {
	fullSuiteOnly(t, "runs workers")
	t.Parallel()
	out := filepath.Join(t.TempDir(), "r.json")
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"--min-time", "0", "-m", "4"}, 4}, // no time budget: exactly the minimum
		{[]string{"-M", "2"}, 2},                    // --max-runs alone lowers the default minimum
		{[]string{"-r", "3", "-m", "2", "-M", "5"}, 3},
	} {
		args := append([]string{"run", "--cell", "ocaml", "--niters", "10", "--export-json", out}, c.args...)
		rootbench(t, nil, args...).Must(t, 0)
		f := mustLoad(t, out)
		if n := len(f.Results[0].Runs); n != c.want {
			t.Errorf("%v: %d runs, want %d", c.args, n, c.want)
		}
	}
}
