package harness

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// resultByLabel finds a result or fails the test.
func resultByLabel(t *testing.T, f *File, label string) *Result {
	t.Helper()
	for i := range f.Results {
		if f.Results[i].Label == label {
			return &f.Results[i]
		}
	}
	t.Fatalf("no result %q in %v", label, labels(f))
	return nil
}

func labels(f *File) []string {
	var ls []string
	for _, r := range f.Results {
		ls = append(ls, r.Label)
	}
	return ls
}

func indexes(r *Result) []int {
	return perRun(r, func(run Run) int { return run.Index })
}

func TestExecuteFailureReasons(t *testing.T) {
	t.Parallel()
	opt := fakeOptions(t,
		bench("good", "ok", "1000"),
		bench("panics", "panic"),
		bench("exits", "exit3"),
		bench("garbage", "garbage"),
		bench("badjson", "badjson"),
		bench("reports", "reportfail"),
		bench("killed", "sigkill"),
	)
	opt.Runs = 3
	opt.Timeout = time.Minute
	var notices strings.Builder
	opt.Notices = &notices
	f, err := Execute(context.Background(), opt)
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	if f.Partial || f.FinishedAt.IsZero() || f.Schema != Schema || f.Workload != "fake" || f.Order != "interleaved" {
		t.Errorf("file header: partial=%v finished=%v schema=%q workload=%q order=%q", f.Partial, f.FinishedAt, f.Schema, f.Workload, f.Order)
	}
	want := map[string]string{
		"panics":  "exit status 2: panic: boxroot: invalid handle",
		"exits":   "exit status 3: something went wrong",
		"garbage": `malformed worker output: no JSON line on standard output (last line: "not json at all")`,
		"badjson": "malformed worker output: json: cannot unmarshal",
		"reports": "worker reported an error: wrong value in cell 7",
		"killed":  "killed by signal 9 (SIGKILL; likely the OOM killer)",
	}
	for label, reason := range want {
		r := resultByLabel(t, f, label)
		// Without IgnoreFailure a benchmark stops after its first failure.
		if len(r.Runs) != 1 || !r.Runs[0].Failed || r.Failed != 1 {
			t.Errorf("%s: %d runs (failed %d), want exactly one failed run", label, len(r.Runs), r.Failed)
			continue
		}
		if !strings.HasPrefix(r.Runs[0].Error, reason) {
			t.Errorf("%s: error %q, want it to start with %q", label, r.Runs[0].Error, reason)
		}
		if r.Mean != 0 || len(r.Warnings) == 0 {
			t.Errorf("%s: mean %v and warnings %q: want no statistics and a warning", label, r.Mean, r.Warnings)
		}
	}
	// Every failure is one line naming its log, which holds the whole output;
	// no stack trace reaches the run (nor, through it, the terminal).
	for label := range want {
		run := resultByLabel(t, f, label).Runs[0]
		log := filepath.Join(opt.LogDir, label+"-run1.log")
		if strings.Contains(run.Error, "\n") || !strings.HasSuffix(run.Error, "; full output in "+log) {
			t.Errorf("%s: error %q is not one line naming the log %s", label, run.Error, log)
		}
		if strings.Contains(run.StderrTail, "goroutine") {
			t.Errorf("%s: stderr tail %q holds a stack trace", label, run.StderrTail)
		}
		if _, err := os.Stat(log); err != nil {
			t.Errorf("%s: log: %v", label, err)
		}
		if line := label + " run 1 failed: " + run.Error + "\n"; !strings.Contains(notices.String(), line) {
			t.Errorf("notices lack %q:\n%s", line, notices.String())
		}
	}
	if got := strings.Count(notices.String(), "\n"); got != len(want) {
		t.Errorf("%d notice lines, want %d:\n%s", got, len(want), notices.String())
	}
	panicLog, err := os.ReadFile(filepath.Join(opt.LogDir, "panics-run1.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{"panic: boxroot: invalid handle", "goroutine 1 [running]", "===== stdout =====\nprogress: half way"} {
		if !strings.Contains(string(panicLog), part) {
			t.Errorf("the panic's log lacks %q:\n%s", part, panicLog)
		}
	}
	if _, err := os.Stat(filepath.Join(opt.LogDir, "good-run1.log")); err == nil {
		t.Errorf("a successful run left a log")
	}
	if tail := resultByLabel(t, f, "exits").Runs[0].StderrTail; tail != "working...\nsomething went wrong" {
		t.Errorf("exit3's stderr tail = %q", tail)
	}
	if got := f.FailedRuns(); got != len(want) {
		t.Errorf("FailedRuns() = %d, want %d", got, len(want))
	}

	// The good benchmark survives, with every figure filled in.
	good := resultByLabel(t, f, "good")
	if len(good.Runs) != 3 || good.Failed != 0 {
		t.Fatalf("good: %d runs, %d failed; want 3 successful", len(good.Runs), good.Failed)
	}
	for _, run := range good.Runs {
		if run.WallNs <= 0 || run.Cells != 1000 || run.Stats["kept"] != 1000 || run.ProcessWallNs < run.WallNs ||
			run.PeakRSSBytes < 1<<20 || run.UserNs+run.SysNs <= 0 || run.StartedAt.IsZero() || run.GC.HeapAllocObjs < 1000 {
			t.Errorf("good run is missing figures: %+v", run)
		}
	}
	if good.Mean <= 0 {
		t.Errorf("good: mean %v; want a positive mean", good.Mean)
	}
	// Interleaved: the first round ran every benchmark once in order (0-6);
	// the next rounds only the good one.
	if got := indexes(good); !slices.Equal(got, []int{0, 7, 8}) {
		t.Errorf("good's run indexes = %v, want [0 7 8]", got)
	}
	for i, label := range []string{"panics", "exits", "garbage", "badjson", "reports", "killed"} {
		if got := resultByLabel(t, f, label).Runs[0].Index; got != i+1 {
			t.Errorf("%s's run index = %d, want %d", label, got, i+1)
		}
	}
}

func TestExecuteTimeout(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a worker at its timeout: skipped in -short (the full suite runs it)")
	}
	t.Parallel()
	opt := fakeOptions(t, bench("good", "ok"), bench("slow", "sleep", "1m"), bench("good2", "ok"))
	opt.Runs = 2
	opt.Timeout = 3 * time.Second
	start := time.Now()
	f, err := Execute(context.Background(), opt)
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	if el := time.Since(start); el > 30*time.Second {
		t.Errorf("Execute took %v: the slow worker was not killed at the timeout", el)
	}
	slow := resultByLabel(t, f, "slow")
	if len(slow.Runs) != 1 || !strings.HasPrefix(slow.Runs[0].Error, "timed out after 3s; full output in ") {
		t.Fatalf("slow: runs %+v, want one run that timed out after 3s", slow.Runs)
	}
	if w := slow.Runs[0].ProcessWallNs; w < (3 * time.Second).Nanoseconds() {
		t.Errorf("slow: process wall %v, want at least the 3s timeout", time.Duration(w))
	}
	for _, l := range []string{"good", "good2"} {
		if r := resultByLabel(t, f, l); len(r.Runs) != 2 || r.Failed != 0 {
			t.Errorf("%s: %d runs, %d failed; the other benchmarks must survive a timeout", l, len(r.Runs), r.Failed)
		}
	}
}

func TestExecuteTimeoutBeforeStart(t *testing.T) {
	t.Parallel()
	opt := fakeOptions(t, bench("good", "ok"))
	opt.Runs = 1
	opt.Timeout = time.Nanosecond
	f, err := Execute(context.Background(), opt)
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	run := resultByLabel(t, f, "good").Runs[0]
	if !run.Failed || !strings.HasPrefix(run.Error, "timed out after 1ns") || strings.Contains(run.Error, "deadline") {
		t.Errorf("run with a 1ns timeout: %+v; want it to say it timed out after 1ns", run)
	}
}

// processGone reports whether pid has exited (a zombie waiting for its
// reaper counts as gone).
func processGone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	// The state follows the parenthesised command name.
	s := string(stat)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] == 'Z' || s[i+2] == 'X'
	}
	return false
}

func TestExecuteCancel(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a hanging worker's process group: skipped in -short (the full suite runs it)")
	}
	t.Parallel()
	marker := filepath.Join(t.TempDir(), "pids")
	opt := fakeOptions(t, bench("good", "ok"), bench("hangs", "hang"))
	opt.Env = append(opt.Env, markerEnv+"="+marker)
	opt.Runs = 3
	var reported []string
	var rounds int
	opt.OnResult = func(f *File, r *Result) {
		if !f.Partial {
			t.Errorf("OnResult after an interruption got a file not marked partial")
		}
		reported = append(reported, r.Label)
	}
	opt.OnRound = func(*File) { rounds++ }

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var pids string
	go func() {
		// Cancel once the hanging worker (and its child) are running.
		for ctx.Err() == nil {
			if data, err := os.ReadFile(marker); err == nil && len(data) > 0 {
				pids = string(data)
				cancel()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	start := time.Now()
	f, err := Execute(ctx, opt)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Execute after cancel: err = %v, want context.Canceled", err)
	}
	if el := time.Since(start); el > 30*time.Second {
		t.Errorf("Execute took %v after cancellation", el)
	}
	if f == nil || !f.Partial {
		t.Fatalf("want a partial file, got %+v", f)
	}
	// What was measured survives; the interrupted run is dropped.
	if got := labels(f); !slices.Equal(got, []string{"good"}) {
		t.Errorf("results %v, want only [good]", got)
	}
	if r := resultByLabel(t, f, "good"); len(r.Runs) != 1 || r.Runs[0].Failed || r.Mean <= 0 {
		t.Errorf("good: %+v, want its one successful run with statistics", r.Runs)
	}
	if !slices.Equal(reported, []string{"good"}) || rounds != 1 {
		t.Errorf("OnResult for %v and %d OnRound calls; want [good] and 1 (the final one)", reported, rounds)
	}
	// The worker and the child it started are killed with their group.
	for _, p := range strings.Fields(pids) {
		pid, _ := strconv.Atoi(p)
		deadline := time.Now().Add(5 * time.Second)
		for !processGone(pid) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if !processGone(pid) {
			t.Errorf("process %d of the hanging worker's group is still running", pid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

func TestExecuteRoundsAndSnapshots(t *testing.T) {
	t.Parallel()
	opt := fakeOptions(t, bench("a", "ok"), bench("b", "ok"), bench("c", "ok"))
	opt.Runs = 3
	opt.Params = map[string]string{"common": "1"}
	opt.CommandLine = []string{"rootbench", "run"}
	var snaps []*File
	opt.OnRound = func(f *File) { snaps = append(snaps, f) }
	var results []string
	opt.OnResult = func(f *File, r *Result) {
		if f.Partial || len(r.Runs) != 3 {
			t.Errorf("OnResult(%s) in interleaved order: partial=%v runs=%d, want the final file", r.Label, f.Partial, len(r.Runs))
		}
		results = append(results, r.Label)
	}
	f, err := Execute(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(snaps) != 4 {
		t.Fatalf("OnRound called %d times, want 3 rounds + the final call", len(snaps))
	}
	for i, s := range snaps {
		wantRuns := min(i+1, 3)
		if s.Partial != (i < 3) {
			t.Errorf("snapshot %d: partial=%v", i, s.Partial)
		}
		for _, r := range s.Results {
			if len(r.Runs) != wantRuns || r.Mean <= 0 {
				t.Errorf("snapshot %d: %s has %d runs (mean %v), want %d with statistics", i, r.Label, len(r.Runs), r.Mean, wantRuns)
			}
		}
	}
	if snaps[3] != f {
		t.Errorf("the final OnRound should get the returned file")
	}
	// Snapshots are independent: changing one leaves the others alone.
	snaps[0].Results[0].Runs[0].WallNs = -1
	if f.Results[0].Runs[0].WallNs == -1 {
		t.Errorf("snapshots share runs with the final file")
	}
	if !slices.Equal(results, []string{"a", "b", "c"}) {
		t.Errorf("OnResult order %v, want [a b c]", results)
	}
	for i, r := range f.Results {
		want := []int{i, i + 3, i + 6}
		if got := indexes(&r); !slices.Equal(got, want) {
			t.Errorf("%s: indexes %v, want %v (round-robin)", r.Label, got, want)
		}
	}
	if f.Params["common"] != "1" || f.Tool.Name != ToolName || !slices.Equal(f.Tool.CommandLine, opt.CommandLine) ||
		f.Machine.LogicalCPUs <= 0 || f.Results[0].Params["mode"] != "ok" {
		t.Errorf("metadata not recorded: params %v tool %+v machine %+v", f.Params, f.Tool, f.Machine)
	}
}

func TestExecuteGrouped(t *testing.T) {
	t.Parallel()
	opt := fakeOptions(t, bench("a", "ok"), bench("b", "ok"))
	opt.Runs = 2
	opt.Warmup = 1
	opt.Order = Grouped
	var seen []string
	opt.OnResult = func(f *File, r *Result) {
		seen = append(seen, r.Label)
		// In grouped order a benchmark is reported as soon as it is done,
		// before the next one has run.
		if r.Label == "a" && len(f.Results) != 1 {
			t.Errorf("OnResult(a): the snapshot has %v, want only a", labels(f))
		}
	}
	f, err := Execute(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(seen, []string{"a", "b"}) {
		t.Errorf("OnResult order %v, want [a b]", seen)
	}
	// Warm-ups are not recorded: indexes count recorded runs only.
	if a, b := indexes(&f.Results[0]), indexes(&f.Results[1]); !slices.Equal(a, []int{0, 1}) || !slices.Equal(b, []int{2, 3}) {
		t.Errorf("grouped indexes a=%v b=%v, want [0 1] and [2 3]", a, b)
	}
	if f.Warmup != 1 || f.Order != "grouped" {
		t.Errorf("file records warmup %d order %q", f.Warmup, f.Order)
	}
}

func TestExecuteInvalidOptions(t *testing.T) {
	t.Parallel()
	base := fakeOptions(t, bench("a x=1", "ok"), bench("a x=2", "ok"), bench("b", "ok"))
	for _, c := range []struct {
		name string
		mod  func(*Options)
		want string
	}{
		{"no benchmarks", func(o *Options) { o.Benchmarks = nil }, "no benchmarks"},
		{"no executable", func(o *Options) { o.Executable = "" }, "no worker executable"},
		{"duplicate label", func(o *Options) { o.Benchmarks[1].Label = "b" }, `two benchmarks have the label "b"`},
		{"unknown reference", func(o *Options) { o.Reference = "zzz" }, `reference "zzz" names no benchmark`},
		{"max below min", func(o *Options) { o.MinRuns, o.MaxRuns = 5, 3 }, "maximum runs 3 is below the minimum runs 5"},
		{"negative warmup", func(o *Options) { o.Warmup = -1 }, "warm-up runs -1"},
		{"bad env", func(o *Options) { o.Env = []string{"NOEQUALS"} }, `"NOEQUALS": expected NAME=value`},
		{"bad order", func(o *Options) { o.Order = 7 }, "unknown order"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := base
			o.Benchmarks = slices.Clone(base.Benchmarks)
			c.mod(&o)
			f, err := Execute(context.Background(), o)
			if err == nil || f != nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Execute: file %v, err %v; want no file and an error containing %q", f != nil, err, c.want)
			}
		})
	}
}

func TestExecuteReferenceByCell(t *testing.T) {
	t.Parallel()
	opt := fakeOptions(t, bench("fast", "sleep", "1ms"), bench("slow", "sleep", "60ms"))
	opt.Runs = 2
	opt.Reference = "slow"
	f, err := Execute(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	// The harness records the request; the analysis package computes the
	// relatives from it.
	if f.Reference != "slow" {
		t.Errorf("reference %q, want slow", f.Reference)
	}
}
