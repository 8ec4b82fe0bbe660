package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/perf/benchfmt"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/workload/callback"
	"github.com/rootbench/rootbench/workload/msgpass"
)

// The test binary doubles as the rootbench binary: with ROOTBENCH_AS_CLI set
// it runs main, so the harness's worker processes (which re-execute
// os.Executable()) are this binary too, race detector included.
func TestMain(m *testing.M) {
	if os.Getenv("ROOTBENCH_AS_CLI") == "1" {
		if log := os.Getenv(workerLogEnv); log != "" && len(os.Args) > 1 && os.Args[1] == "worker" {
			markWorkerStarted(log)
		}
		Main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// workerLogEnv names a file every worker process started by the CLI under
// test appends a line to: the proof that a refusal came before any worker.
const workerLogEnv = "ROOTBENCH_TEST_WORKER_LOG"

func markWorkerStarted(path string) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		fmt.Fprintf(os.Stderr, "test worker log %s: %v\n", path, err)
		os.Exit(99)
	}
	fmt.Fprintln(f, strings.Join(os.Args, " "))
	f.Close()
}

type result struct {
	stdout, stderr string
	code           int
}

// rootbench runs the CLI with args and extra environment.
func rootbench(t *testing.T, env []string, args ...string) result {
	t.Helper()
	return rootbenchStdin(t, nil, env, args...)
}

// rootbenchStdin is rootbench with stdin as the CLI's standard input.
func rootbenchStdin(t *testing.T, stdin io.Reader, env []string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(cleanEnv(), append([]string{"ROOTBENCH_AS_CLI=1", "NO_COLOR=1", "GORACE=atexit_sleep_ms=0"}, env...)...)
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, &out, &errb
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

// cleanEnv drops the OCaml benchmark's variables, and COLUMNS (the width
// output fits, see terminalColumns), so the tests see defaults.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "SCHEDULER", "MAX_DELAY", "NITERS", "BATCH_SIZE", "CELL", "PRODUCERS", "CONSUMERS", "PAYLOAD", "QUEUE", "MAX_OUTSTANDING", "PASSES", "ROOTBENCH_SLOW", "COLUMNS":
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
	cells := withCgoHandle("ocaml", "boxroot", "ref", "generational", "bxboxed")
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

// withCgoHandle returns the cells, plus cgo-handle when this build has cgo
// (without it, naming cgo-handle is refused, as TestCellAllNamesWhatItLeavesOut checks).
func withCgoHandle(cells ...string) []string {
	if callback.Available {
		cells = append(cells, "cgo-handle")
	}
	return cells
}

// callbackRefusal is what a refused callback command must say: what was
// wrong with a cgo build, that the workload needs cgo without one.
func callbackRefusal(want ...string) []string {
	if callback.Available {
		return want
	}
	return []string{"needs cgo"}
}

// refusal is bad input and what its one-line message must contain.
type refusal struct {
	env  []string
	args []string
	want []string
}

// mustRefuse runs each refusal and checks it exits 2 with one line on
// stderr, nothing on stdout, and no worker process started.
func mustRefuse(t *testing.T, cases []refusal) {
	t.Helper()
	for _, tc := range cases {
		name := strings.Join(append(append([]string(nil), tc.env...), tc.args...), " ")
		t.Run(name, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "workers.log")
			r := rootbench(t, append([]string{workerLogEnv + "=" + log}, tc.env...), tc.args...)
			r.must(t, exitUsage)
			if lines := strings.Split(strings.TrimRight(r.stderr, "\n"), "\n"); len(lines) != 1 {
				t.Errorf("stderr has %d lines, want one:\n%s", len(lines), r.stderr)
			}
			if r.stdout != "" {
				t.Errorf("stdout is not empty:\n%s", r.stdout)
			}
			if started, err := os.ReadFile(log); err == nil {
				t.Errorf("workers started before the refusal:\n%s", started)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
				}
			}
			if strings.Contains(r.stderr, "goroutine ") {
				t.Errorf("stderr holds a Go stack trace:\n%s", r.stderr)
			}
		})
	}
}

func TestBadInputIsAUsageError(t *testing.T) {
	mustRefuse(t, []refusal{
		{args: []string{"run", "--cell", "nosuch"}, want: []string{"nosuch", "boxroot", "cgo-handle"}},
		{args: []string{"run", "--cell", "boxroot:nosuch"}, want: []string{"nosuch", "force-remote"}},
		{args: []string{"run", "--scheduler", "bogus"}, want: []string{"bogus", "parallel", "concurrent", "sequential"}},
		{args: []string{"run", "--batch-size", "0"}, want: []string{"batch-size"}},
		{args: []string{"run", "--niters", "-1"}, want: []string{"niters"}},
		{args: []string{"run", "--niters", "1_0_"}, want: []string{"1_0_"}},
		{args: []string{"run", "--niters", "1e3"}, want: []string{"1e3"}},
		{args: []string{"run", "--niters", "0x"}, want: []string{"0x"}},
		{args: []string{"run", "--niters", "100_000_000_000", "--batch-size", "16_000_000", "--producers", "64"}, want: []string{"overflow"}},
		{args: []string{"run", "--order", "random"}, want: []string{"interleaved", "grouped"}},
		{args: []string{"run", "--style", "loud"}, want: []string{"full", "basic"}},
		{args: []string{"run", "--parameter-list", "nosuch=1,2"}, want: []string{"nosuch", "batch-size"}},
		{args: []string{"run", "--nosuch-flag"}, want: []string{"unknown flag"}},
		{args: []string{"run", "--cel", "boxroot"}, want: []string{"unknown flag: --cel", "did you mean --cell?", "rootbench run --help"}},
		{args: []string{"ab", "--base-rve", "main"}, want: []string{"unknown flag: --base-rve", "did you mean --base-rev?"}},
		{args: []string{"callback", "--variant", "telepathy"}, want: callbackRefusal("telepathy", "pipe")},
		{args: []string{"callback", "--handle", "none,magic"}, want: callbackRefusal(`"magic"`, "unknown handle", "boxroot-handle")},
		{args: []string{"callback", "--handle", "ref"}, want: callbackRefusal(`"ref"`, "no drop-in handle API", "boxroot-handle")},
		{args: []string{"compare", "only-one.json"}, want: []string{"two results files"}},
		{args: []string{"compare", "missing-a.json", "missing-b.json"}, want: []string{"missing-a.json"}},
		{args: []string{"nosuchcommand"}, want: []string{"unknown command"}},
	})
}

// TestRefusedBeforeAnyRun covers every input issue 16 lists as getting
// through or failing late: each must be refused before any worker starts.
func TestRefusedBeforeAnyRun(t *testing.T) {
	dir := t.TempDir()
	same := filepath.Join(dir, "same.out")
	mustRefuse(t, []refusal{
		{args: []string{"run", "--export-json", "/nonexistent-dir/x.json"}, want: []string{"/nonexistent-dir", "does not exist", "accepted"}},
		{args: []string{"run", "--export-json", "/proc/self/x.json"}, want: []string{"/proc/self", "accepted"}},
		{args: []string{"run", "--export-json", dir}, want: []string{"is a directory"}},
		{args: []string{"run", "--export-json", ""}, want: []string{"--export-json", "empty path"}},
		{args: []string{"run", "--export-json", same, "--export-csv", same}, want: []string{"--export-json", "--export-csv", "same.out"}},
		{args: []string{"run", "--export-json", same, "--export-csv", filepath.Join(dir, ".", "sub", "..", "same.out")}, want: []string{"--export-csv", "own file"}},
		{args: []string{"run", "--export-json", "-", "--export-markdown", "-"}, want: []string{"standard output"}},
		{args: []string{"run", "--cell", ""}, want: []string{"--cell", "empty", "all"}},
		{env: []string{"CELL="}, args: []string{"run"}, want: []string{"CELL=", "empty"}},
		{env: []string{"CELL=nosuch"}, args: []string{"run", "--cell", "ocaml"}, want: []string{"CELL=nosuch", "unknown cell"}},
		{env: []string{"NITERS=abc"}, args: []string{"run", "--niters", "10"}, want: []string{"NITERS=abc", "accepted"}},
		{env: []string{"NITERS="}, args: []string{"run"}, want: []string{"NITERS="}},
		{args: []string{"run", "--runs", "2147483648", "--max-runs", "1"}, want: []string{"1 to 2147483647"}},
		{args: []string{"run", "--runs", "0"}, want: []string{"1 to 2147483647"}},
		{args: []string{"run", "--runs", "5", "--max-runs", "2"}, want: []string{"--runs 5", "--max-runs 2"}},
		{args: []string{"run", "-r", "3", "-m", "5"}, want: []string{"--runs 3", "--min-runs 5"}},
		{args: []string{"run", "--min-runs", "5", "--max-runs", "2"}, want: []string{"--max-runs 2", "--min-runs 5"}},
		{args: []string{"run", "--timeout", "1ns"}, want: []string{"--timeout", "minimum 100ms"}},
		{args: []string{"run", "--timeout", "0"}, want: []string{"--timeout", "minimum 100ms"}},
		{args: []string{"run", "--pin", "1-0"}, want: []string{"--pin", "backwards"}},
		{args: []string{"run", "--batch-size", "16_777_216", "--producers", "64", "--max-delay", "0", "--niters", "1000"}, want: []string{"estimated", "TiB", "--max-memory"}},
		{args: []string{"run", "--max-memory", "1MiB", "--cell", "ocaml"}, want: []string{"estimated", "1.00 MiB of --max-memory"}},
		{args: []string{"run", "-L", "batch-size", "16,16_777_216", "--max-delay", "0", "--niters", "1_000_000", "--max-memory", "8GiB"}, want: []string{"configuration batch-size=16_777_216"}},
		{args: []string{"run", "--max-memory", "lots"}, want: []string{"lots", "accepted"}},
		{args: []string{"run", "-D", "2"}, want: []string{"--parameter-step-size", "--parameter-scan"}},
		{args: []string{"run", "-P", "batch-size", "10", "1"}, want: []string{"MIN is above MAX"}},
		{args: []string{"run", "-P", "niters", "1", "1_000_000"}, want: []string{"more than 1000"}},
		{args: []string{"run", "--cell", "ocaml,boxroot,ref", "-n", "a", "-n", "b"}, want: []string{"given 2 times for 3 benchmarks"}},
		{args: []string{"run", "--cell", "ocaml,boxroot", "-n", "same"}, want: []string{"both named"}},
		{args: []string{"report"}, want: []string{"usage: rootbench report"}},
		{args: []string{"compare"}, want: []string{"usage: rootbench compare"}},
	})
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
	if r.code != 0 && r.code != 1 && r.code != 3 {
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
	cells := withCgoHandle("boxroot", "ref")
	r := rootbench(t, nil, "run", "--producers", "4", "--consumers", "4", "--queue", "per-consumer",
		"--cell", strings.Join(cells, ","), "--niters", "20", "--runs", "1")
	r.must(t, 0)
	if n := strings.Count(r.stdout, "Benchmark "); n != len(cells) {
		t.Errorf("want %d verified cells, got %d blocks:\n%s", len(cells), n, r.stdout)
	}
}

// hyperfine's spelling works: -w, -r, the two-argument -L, and every
// measured and warm-up run is one worker process.
func TestHyperfineFlags(t *testing.T) {
	dir := t.TempDir()
	out, log := filepath.Join(dir, "r.json"), filepath.Join(dir, "workers.log")
	r := rootbench(t, []string{workerLogEnv + "=" + log}, "run", "--cell", "ocaml", "-w", "1", "-r", "3",
		"-L", "batch-size", "256,1024", "--niters", "20", "--export-json", out)
	r.must(t, 0)
	f, err := harness.Load(out)
	if err != nil {
		t.Fatal(err)
	}
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
	r.must(t, 0)
	if f, err = harness.Load(out); err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, res := range f.Results {
		labels = append(labels, res.Label)
	}
	if want := []string{"ocaml@16", "ocaml@32", "ocaml@48"}; !slices.Equal(labels, want) {
		t.Errorf("-P batch-size 16 48 -D 16 -n {cell}@{batch-size}: labels %q, want %q", labels, want)
	}
}

func TestShowOutputPassesWorkerOutputThrough(t *testing.T) {
	r := rootbench(t, nil, "run", "--cell", "ocaml", "-r", "2", "--niters", "10", "--show-output")
	r.must(t, 0)
	if n := strings.Count(r.stderr, `"wall_ns"`); n != 2 {
		t.Errorf("stderr holds %d worker report lines, want 2 (one per run):\n%s", n, r.stderr)
	}
	r = rootbench(t, nil, "run", "--cell", "ocaml", "-r", "2", "--niters", "10")
	r.must(t, 0)
	if strings.Contains(r.stderr, `"wall_ns"`) {
		t.Errorf("without --show-output, worker output reached stderr:\n%s", r.stderr)
	}
}

func TestVersionFlagAndCompletion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"-V"}, {"version"}} {
		r := rootbench(t, nil, args...)
		r.must(t, 0)
		for _, want := range []string{"rootbench", "revision", "go1", "cgo"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("%v: output lacks %q:\n%s", args, want, r.stdout)
			}
		}
	}
	r := rootbench(t, nil, "completion", "bash")
	r.must(t, 0)
	if !strings.Contains(r.stdout, "__start_rootbench") {
		t.Errorf("completion bash is not a bash completion script:\n%.300s", r.stdout)
	}
}

// --cell all says, in one line, which cells this build leaves out; with cgo
// it leaves out none.
func TestCellAllNamesWhatItLeavesOut(t *testing.T) {
	r := rootbench(t, nil, "run", "--cell", "all", "-r", "1", "--niters", "10")
	r.must(t, 0)
	note := ""
	for _, l := range strings.Split(r.stderr, "\n") {
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
		t.Errorf("without cgo, --cell all does not say it left cgo-handle out:\n%s", r.stderr)
	}
}

// The memory estimate is an upper bound: a run with every batch allowed in
// flight stays below it, for the cell that roots most expensively. The heap
// is checked in every build, the whole process (peak RSS) without -race.
func TestMemoryEstimateBoundsARun(t *testing.T) {
	cellName := "cgo-handle"
	if !callback.Available {
		cellName = "generational"
	}
	out := filepath.Join(t.TempDir(), "r.json")
	r := rootbench(t, nil, "run", "--cell", cellName, "-r", "1", "--max-delay", "0", "--niters", "256",
		"--batch-size", "1024", "--export-json", out)
	r.must(t, 0)
	f, err := harness.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	p := msgpass.DefaultParams()
	p.MaxDelay, p.NIters, p.BatchSize = 0, 256, 1024
	est := msgpass.EstimateMemory(p)
	for _, res := range f.Results {
		for _, run := range res.Runs {
			// The estimate is for binaries built without the race
			// detector, whose shadow memory is not in the model.
			if run.PeakRSSBytes <= 0 || (!raceEnabled && run.PeakRSSBytes > est.Bytes) {
				t.Errorf("%s: peak RSS %d B, estimate %d B: the estimate must bound it", res.Label, run.PeakRSSBytes, est.Bytes)
			}
			if run.GC.PeakHeapBytes > est.Bytes-msgpass.BaseBytes {
				t.Errorf("%s: peak heap %d B above the estimate's variable part %d B", res.Label, run.GC.PeakHeapBytes, est.Bytes-msgpass.BaseBytes)
			}
		}
	}
}

func TestListFitsEightyColumns(t *testing.T) {
	r := rootbench(t, nil, "list")
	r.must(t, 0)
	for i, l := range strings.Split(r.stdout, "\n") {
		if len(l) > 80 { // bytes, as awk 'length > 80' counts them
			t.Errorf("line %d is %d bytes wide: %q", i+1, len(l), l)
		}
	}
}

// COLUMNS sets the width output fits where no terminal says it (a pipe):
// the report is wrapped to 80 columns, where its summary and warnings run
// to some 190 without it. (Not the "Time (mean ± σ)" lines, hyperfine's
// format, which a run of microseconds can take past 80.)
func TestColumnsNarrowsPipedReport(t *testing.T) {
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
	whole.must(t, 0)
	narrow := rootbench(t, []string{"COLUMNS=80"}, args...)
	narrow.must(t, 0)
	if w, l := widest(narrow.stdout); w > 80 {
		t.Errorf("with COLUMNS=80 a line is %d columns wide: %q", w, l)
	}
	if w, _ := widest(whole.stdout); w <= 80 {
		t.Errorf("without COLUMNS the piped report is %d columns wide; the test needs it wider than 80:\n%s", w, whole.stdout)
	}
}

func TestRunCountFlags(t *testing.T) {
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
		rootbench(t, nil, args...).must(t, 0)
		f, err := harness.Load(out)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(f.Results[0].Runs); n != c.want {
			t.Errorf("%v: %d runs, want %d", c.args, n, c.want)
		}
	}
}
