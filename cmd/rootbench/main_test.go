package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/workload/msgpass"
)

// The test binary doubles as the rootbench binary: with ROOTBENCH_AS_CLI set
// it runs main, so the harness's worker processes (which re-execute
// os.Executable()) are this binary too, race detector included.
func TestMain(m *testing.M) {
	if os.Getenv("ROOTBENCH_AS_CLI") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type result struct {
	stdout, stderr string
	code           int
}

// rootbench runs the CLI with args and extra environment.
func rootbench(t *testing.T, env []string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(cleanEnv(), append([]string{"ROOTBENCH_AS_CLI=1", "NO_COLOR=1", "GORACE=atexit_sleep_ms=0"}, env...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code = 128 + int(ws.Signal())
		}
	} else if err != nil {
		t.Fatalf("rootbench %v: %v", args, err)
	}
	return result{out.String(), errb.String(), code}
}

// cleanEnv drops the OCaml benchmark's variables so the tests see defaults.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "SCHEDULER", "MAX_DELAY", "NITERS", "BATCH_SIZE", "CELL", "PRODUCERS", "CONSUMERS", "PAYLOAD", "QUEUE", "MAX_OUTSTANDING", "PASSES", "ROOTBENCH_SLOW":
			continue
		}
		env = append(env, kv)
	}
	return env
}

func (r result) must(t *testing.T, code int) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, code, r.stdout, r.stderr)
	}
}

func TestRunOCamlEnvironmentVerbatim(t *testing.T) {
	r := rootbench(t, []string{"SCHEDULER=Parallel", "MAX_DELAY=128", "NITERS=2_0", "BATCH_SIZE=1024", "CELL=boxroot"},
		"run", "--runs", "3")
	r.must(t, 0)
	if n := strings.Count(r.stdout, "Benchmark "); n != 1 {
		t.Fatalf("want one benchmark block, got %d:\n%s", n, r.stdout)
	}
	for _, want := range []string{"boxroot", "Time (mean ± σ)", "Range (min … max)", "3 runs"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
}

func TestRunSixCellsWithSummary(t *testing.T) {
	cells := []string{"ocaml", "boxroot", "ref", "generational", "bxboxed", "cgo-handle"}
	r := rootbench(t, nil, "run", "--cell", strings.Join(cells, ","), "--niters", "20", "--runs", "3")
	r.must(t, 0)
	for _, c := range cells {
		if !strings.Contains(r.stdout, "Benchmark") || !strings.Contains(r.stdout, c) {
			t.Errorf("output lacks cell %s", c)
		}
	}
	if n := strings.Count(r.stdout, "Benchmark "); n != len(cells) {
		t.Errorf("want %d benchmark blocks, got %d", len(cells), n)
	}
	sentences := regexp.MustCompile(`'[^']+' ran\s+[0-9.]+ ± [0-9.]+ times (faster|slower) than '[^']+'`).FindAllString(r.stdout, -1)
	if len(sentences) != len(cells)-1 {
		t.Errorf("want %d relative sentences, got %d:\n%s", len(cells)-1, len(sentences), r.stdout)
	}
}

func TestBadInputIsAUsageError(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string // the message lists what is accepted
	}{
		{[]string{"run", "--cell", "nosuch"}, []string{"nosuch", "boxroot", "cgo-handle"}},
		{[]string{"run", "--cell", "boxroot:nosuch"}, []string{"nosuch", "force-remote"}},
		{[]string{"run", "--scheduler", "bogus"}, []string{"bogus", "parallel", "concurrent", "sequential"}},
		{[]string{"run", "--batch-size", "0"}, []string{"batch-size"}},
		{[]string{"run", "--niters", "-1"}, []string{"niters"}},
		{[]string{"run", "--niters", "1_0_"}, []string{"1_0_"}},
		{[]string{"run", "--niters", "1e3"}, []string{"1e3"}},
		{[]string{"run", "--niters", "0x"}, []string{"0x"}},
		{[]string{"run", "--niters", "100_000_000_000", "--batch-size", "16_000_000", "--producers", "64"}, []string{"overflow"}},
		{[]string{"run", "--order", "random"}, []string{"interleaved", "grouped"}},
		{[]string{"run", "--style", "loud"}, []string{"full", "basic"}},
		{[]string{"run", "--parameter-list", "nosuch=1,2"}, []string{"nosuch", "batch-size"}},
		{[]string{"run", "--nosuch-flag"}, []string{"unknown flag"}},
		{[]string{"callback", "--variant", "telepathy"}, []string{"telepathy", "pipe"}},
		{[]string{"compare", "only-one.json"}, []string{"two results files"}},
		{[]string{"compare", "missing-a.json", "missing-b.json"}, []string{"missing-a.json"}},
		{[]string{"nosuchcommand"}, []string{"unknown command"}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			r := rootbench(t, nil, tc.args...)
			r.must(t, exitUsage)
			for _, w := range tc.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
				}
			}
		})
	}
}

func TestExportsHoldEverySample(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	r := rootbench(t, nil, "run", "--cell", "ocaml,boxroot", "--niters", "20", "--runs", "4",
		"--export-json", p("r.json"), "--export-markdown", p("r.md"), "--export-csv", p("r.csv"), "--export-gobench", p("r.txt"))
	r.must(t, 0)
	f, err := harness.Load(p("r.json"))
	if err != nil {
		t.Fatal(err)
	}
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
	if samples != 8 || f.Partial {
		t.Fatalf("r.json: %d samples (partial=%v), want 8", samples, f.Partial)
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
	if n != 8 {
		t.Errorf("r.txt: %d Go benchmark results, want 8", n)
	}
}

func TestParameterListLabelsEachConfiguration(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.json")
	r := rootbench(t, nil, "run", "--cell", "boxroot", "--niters", "10", "--runs", "1",
		"--parameter-list", "batch-size=16,1024", "--parameter-list", "scheduler=parallel,sequential", "--export-json", out)
	r.must(t, 0)
	f, err := harness.Load(out)
	if err != nil {
		t.Fatal(err)
	}
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

func TestListShowsEveryCell(t *testing.T) {
	r := rootbench(t, nil, "list")
	r.must(t, 0)
	for _, want := range []string{"ocaml", "direct", "ref", "ocaml-ref", "generational", "cgo-handle", "boxroot", "bxboxed", "bx-boxed", "boxroot-boxed", "boxroot:force-remote", "boxroot:no-reuse", "boxroot:eager-remote", "boxroot:locked-remote", "boxroot-handle"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("list lacks %q", want)
		}
	}
	if strings.Contains(r.stdout, "faulty:") {
		t.Errorf("list shows test-only cells:\n%s", r.stdout)
	}
}

func TestCompareAndReportFromARun(t *testing.T) {
	dir := t.TempDir()
	base, head := filepath.Join(dir, "base.json"), filepath.Join(dir, "head.json")
	for _, out := range []string{base, head} {
		rootbench(t, nil, "run", "--cell", "ocaml,boxroot", "--niters", "10", "--runs", "6", "--export-json", out).must(t, 0)
	}
	r := rootbench(t, nil, "compare", "--format", "json", base, head)
	r.must(t, 0)
	var anyJSON any
	if err := json.Unmarshal([]byte(r.stdout), &anyJSON); err != nil {
		t.Errorf("compare --format json is not JSON: %v\n%s", err, r.stdout)
	}
	rootbench(t, nil, "compare", "--cells", "ocaml,boxroot", base).must(t, 0)
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"schema": "other/v9"}`), 0o644)
	r = rootbench(t, nil, "compare", base, bad)
	r.must(t, exitUsage)
	if !strings.Contains(r.stderr, "bad.json") || !strings.Contains(r.stderr, "schema") {
		t.Errorf("wrong-schema error does not name the file and the problem: %s", r.stderr)
	}
	rep := filepath.Join(dir, "rep")
	rootbench(t, nil, "report", base, head, "-o", rep).must(t, 0)
	md, err := os.ReadFile(filepath.Join(rep, "REPORT.md"))
	if err != nil || !strings.Contains(string(md), ".png") {
		t.Errorf("REPORT.md missing or without charts: %v", err)
	}
}

func TestBaselineGate(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "base.json")
	rootbench(t, nil, "run", "--cell", "ocaml", "--niters", "10", "--runs", "7", "--export-json", base).must(t, 0)

	// Against itself-like noise the gate stays quiet: the comparison is
	// printed and the exit status is 0 unless a significant change lies
	// wholly beyond 50%.
	r := rootbench(t, nil, "run", "--cell", "ocaml", "--niters", "10", "--runs", "7", "--baseline", base, "--fail-on-regression", "50%")
	if r.code != 0 && r.code != 1 {
		r.must(t, 0)
	}
	if !strings.Contains(r.stdout, "ocaml") || !strings.Contains(strings.ToLower(r.stdout), "geomean") {
		t.Errorf("run --baseline printed no comparison:\n%s", r.stdout)
	}

	// A baseline 100x faster than anything this run can do: a regression
	// far beyond the threshold, so the gate fails the run.
	f, err := harness.Load(base)
	if err != nil {
		t.Fatal(err)
	}
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
	r.must(t, 1)
	if !strings.Contains(r.stderr, "regressed") {
		t.Errorf("the gate's failure does not say what regressed:\n%s", r.stderr)
	}
	rootbench(t, nil, "compare", "--fail-on-regression", "5%", fast, base).must(t, 1)
	rootbench(t, nil, "run", "--cell", "ocaml", "--fail-on-regression", "5%").must(t, exitUsage)
}

func TestReportRejectsBadFiles(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"schema": "rootbench/v1", "results": [`), 0o644)
	r := rootbench(t, nil, "report", bad, "-o", filepath.Join(dir, "out"))
	r.must(t, exitUsage)
	if !strings.Contains(r.stderr, "bad.json") || !strings.Contains(r.stderr, "JSON") {
		t.Errorf("report's error does not name the file and the problem:\n%s", r.stderr)
	}
	rootbench(t, nil, "report", filepath.Join(dir, "missing.json"), "-o", dir).must(t, exitUsage)
	rootbench(t, nil, "report", bad).must(t, exitUsage) // no -o
}

func TestManyWorkersEveryCellVerified(t *testing.T) {
	r := rootbench(t, nil, "run", "--producers", "4", "--consumers", "4", "--queue", "per-consumer",
		"--cell", "boxroot,ref,cgo-handle", "--niters", "20", "--runs", "1")
	r.must(t, 0)
	if n := strings.Count(r.stdout, "Benchmark "); n != 3 {
		t.Errorf("want 3 verified cells, got %d blocks:\n%s", n, r.stdout)
	}
}
