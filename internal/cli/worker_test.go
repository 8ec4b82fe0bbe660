package cli

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/impls"
	"github.com/rootbench/rootbench/internal/cli/clitest"
	"github.com/rootbench/rootbench/workload/callback"
	"github.com/rootbench/rootbench/workload/msgpass"
)

func TestWorkerDescribe(t *testing.T) {
	t.Parallel()
	r := rootbench(t, nil, "worker", "--describe")
	r.Must(t, 0)
	var d harness.WorkerDescription
	if err := json.Unmarshal([]byte(r.Stdout), &d); err != nil || strings.Count(r.Stdout, "\n") != 1 {
		t.Fatalf("not one JSON line (%v):\n%s", err, r.Stdout)
	}
	if d.Protocol != harness.ProtocolVersion || !d.WarmupPass || !d.CPUTime {
		t.Errorf("protocol %d, warm-up pass %t, CPU time %t", d.Protocol, d.WarmupPass, d.CPUTime)
	}
	for _, f := range []string{"workload", "cell", "set", "pin", "describe", harness.FlagCPUTime} {
		if !slices.Contains(d.Flags, f) {
			t.Errorf("flags %v lack %s", d.Flags, f)
		}
	}
	want := map[string][]string{"msgpass": append(msgpass.ParamNames(), harness.ParamWarmupPasses)}
	if callback.Available {
		want["callback"] = callback.ParamNames
	}
	if len(d.Workloads) != len(want) {
		t.Errorf("workloads %v, want %v", slices.Sorted(maps.Keys(d.Workloads)), slices.Sorted(maps.Keys(want)))
	}
	for w, params := range want {
		wd := d.Workloads[w]
		if !slices.Equal(wd.Params, params) {
			t.Errorf("%s params %v, want %v", w, wd.Params, params)
		}
		if got := slices.Sorted(maps.Keys(wd.Defaults)); !slices.Equal(got, slices.Sorted(slices.Values(params))) {
			t.Errorf("%s defaults for %v, want one for each of %v", w, got, params)
		}
	}
	for _, e := range impls.Default() {
		if !slices.Contains(d.Workloads["msgpass"].Cells, e.Name) {
			t.Errorf("msgpass cells %v lack %s", d.Workloads["msgpass"].Cells, e.Name)
		}
	}
	if callback.Available && !slices.Equal(d.Workloads["callback"].Cells, callback.Variants()) {
		t.Errorf("callback cells %v, want the variants %v", d.Workloads["callback"].Cells, callback.Variants())
	}
}

// The handshake against the real worker, and the command line it renders
// run as it is: defaults are what the worker runs, and one pass with no
// warm-up (what ab runs against a base before passes) is one measured pass.
func TestDescribeWorkerAndRunIt(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	info, err := harness.DescribeWorker(context.Background(), exe, []string{clitest.AsCLI + "=1", "GORACE=atexit_sleep_ms=0"})
	if err != nil {
		t.Fatal(err)
	}
	if info.Source != harness.SourceDescribe || info.Protocol != harness.ProtocolVersion {
		t.Fatalf("source %s, protocol %d", info.Source, info.Protocol)
	}
	defaults := info.Defaults["msgpass"]
	if want := defaultMsgpassParams().Map(); defaults[harness.ParamWarmupPasses] != "1" || !maps.Equal(without(defaults, harness.ParamWarmupPasses), want) {
		t.Errorf("msgpass defaults %v, want %v and warmup-passes=1", defaults, want)
	}
	params := map[string]string{"niters": "20", "batch-size": "16", "passes": "1", harness.ParamWarmupPasses: "0"}
	args, err := info.Args(harness.WorkerRequest{Workload: "msgpass", Cell: "boxroot", Params: params})
	if err != nil {
		t.Fatal(err)
	}
	r := rootbench(t, nil, args...)
	r.Must(t, 0)
	run, err := harness.ParseWorkerOutput([]byte(r.Stdout))
	if err != nil {
		t.Fatal(err)
	}
	if run.Cells != 20*16 || len(run.PassNs) != 1 {
		t.Errorf("%s: %d cells in %d passes, want %d in 1", strings.Join(args, " "), run.Cells, len(run.PassNs), 20*16)
	}
	// Not asked for, the CPU time stays out of the line: a parent from
	// before it refuses unknown fields.
	if strings.Contains(r.Stdout, `"cpu_user_ns"`) || strings.Contains(r.Stdout, `"cpu_sys_ns"`) {
		t.Errorf("%s: the line holds CPU fields without --%s:\n%s", strings.Join(args, " "), harness.FlagCPUTime, r.Stdout)
	}
	args, err = info.Args(harness.WorkerRequest{Workload: "msgpass", Cell: "boxroot", Params: params, CPUTime: true})
	if err != nil || !slices.Contains(args, "--"+harness.FlagCPUTime) {
		t.Fatalf("asked for the CPU time: %v, %v", args, err)
	}
}

// The CPU time a worker reports covers its measured passes only: present,
// and no more than the whole process's CPU time (wait4's rusage), for each
// workload.
func TestWorkerCPUTime(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cases := [][]string{{"--workload", "msgpass", "--cell", "boxroot", "--set", "niters=200", "--set", "batch-size=64"}}
	if callback.Available {
		cases = append(cases, []string{"--workload", "callback", "--cell", "cthread", "--set", "calls=20000"})
	}
	for _, c := range cases {
		cmd := exec.Command(exe, append([]string{"worker", "--" + harness.FlagCPUTime}, c...)...)
		cmd.Env = append(os.Environ(), clitest.AsCLI+"=1", "GORACE=atexit_sleep_ms=0")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("worker %v: %v", c, err)
		}
		run, err := harness.ParseWorkerOutput(out)
		if err != nil {
			t.Fatal(err)
		}
		ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		process := ru.Utime.Nano() + ru.Stime.Nano()
		if run.CPUNs() <= 0 || run.CPUNs() > process {
			t.Errorf("worker %v: CPU time of the measured passes %d ns (user %d, sys %d), want positive and at most the process's %d ns",
				c, run.CPUNs(), run.CPUUserNs, run.CPUSysNs, process)
		}
	}
}

func without(m map[string]string, name string) map[string]string {
	m = maps.Clone(m)
	delete(m, name)
	return m
}

func TestWorkerWarmupPassesBadInput(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		set  string
		want string
	}{
		{"warmup-passes=-1", "warmup-passes -1: out of range: accepted: 0 to 1000"},
		{"WARMUP_PASSES=x", "warmup-passes:"},
		{"bogus=1", "the worker also accepts warmup-passes"},
	} {
		r := inProcess(t, "worker", "--workload", "msgpass", "--cell", "ocaml", "--set", tc.set)
		r.Must(t, exitUsage)
		if !strings.Contains(r.Stderr, tc.want) || strings.Count(strings.TrimSpace(r.Stderr), "\n") != 0 {
			t.Errorf("--set %s: stderr %q, want one line saying %q", tc.set, r.Stderr, tc.want)
		}
	}
}

// warmUp's first call is MeasurePasses' warm-up: it runs the pass n times.
func TestWarmUp(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, 2} {
		calls := 0
		pass := func() (harness.Pass, error) {
			calls++
			return harness.Pass{Cells: 1}, nil
		}
		run, err := harness.MeasurePasses(3, warmUp(n, pass))
		if err != nil {
			t.Fatal(err)
		}
		if calls != n+3 || run.Cells != 3 || len(run.PassNs) != 3 {
			t.Errorf("warm-up %d: %d calls, %d cells in %d passes; want %d calls, 3 cells in 3 passes",
				n, calls, run.Cells, len(run.PassNs), n+3)
		}
	}
	boom := errors.New("boom")
	_, err := harness.MeasurePasses(1, warmUp(2, func() (harness.Pass, error) { return harness.Pass{}, boom }))
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "warm-up") {
		t.Errorf("error %v, want the warm-up's", err)
	}
}
