package harness

import (
	"context"
	"math"
	"runtime"
	"strings"
	"testing"
)

const statFixture = `cpu  100 5 50 800 10 2 3 30 7 0
cpu0 50 2 25 400 5 1 1 15 3 0
intr 12345
ctxt 999
procs_running 3
procs_blocked 0
`

func TestParseProcStat(t *testing.T) {
	t.Parallel()
	s, ok := parseProcStat([]byte(statFixture))
	if !ok || s.steal != 30 || s.total != 100+5+50+800+10+2+3+30 || s.running != 3 {
		t.Errorf("parseProcStat = %+v, %t; want steal 30 of 1000 ticks (guest time left out), 3 running", s, ok)
	}
	for _, bad := range []string{
		"",
		"procs_running 3\n",                       // no cpu line
		"cpu 1 2 3 4 5 6 7 8\n",                   // no procs_running
		"cpu 1 2 3 4 5 6 7\nprocs_running 1\n",    // too few fields: not the aggregate line
		"cpu 1 2 3 x 5 6 7 8\nprocs_running 1\n",  // not a number
		"cpu 1 2 3 4 5 6 7 8\nprocs_running -1\n", // negative
	} {
		if s, ok := parseProcStat([]byte(bad)); ok {
			t.Errorf("parseProcStat(%q) = %+v, accepted", bad, s)
		}
	}
}

func TestEnvOf(t *testing.T) {
	t.Parallel()
	start := procStat{steal: 30, total: 1000, running: 2}
	for _, tc := range []struct {
		end       procStat
		steal     float64
		highSteal bool
	}{
		{procStat{steal: 40, total: 1200, running: 5}, 0.05, false},
		{procStat{steal: 55, total: 1200, running: 5}, 0.125, true},
		{procStat{steal: 30, total: 1000, running: 5}, 0, false}, // no tick passed
		{procStat{steal: 20, total: 900, running: 5}, 0, false},  // counters went back: nothing known
	} {
		env := envOf(1.5, start, tc.end)
		if env.Load1 != 1.5 || env.RunQueue != 3.5 || math.Abs(env.Steal-tc.steal) > 1e-12 || env.HighSteal != tc.highSteal {
			t.Errorf("envOf(1.5, %+v, %+v) = %+v; want load 1.5, run queue 3.5, steal %v, high steal %t",
				start, tc.end, env, tc.steal, tc.highSteal)
		}
		if err := validateEnv(env); err != nil {
			t.Errorf("envOf made an env Validate refuses: %v", err)
		}
	}
}

// On Linux every run records the load around it; elsewhere none.
func TestExecuteRecordsEnv(t *testing.T) {
	t.Parallel()
	opt := fakeOptions(t, bench("a", "ok", "100"))
	opt.Runs = 2
	f, err := Execute(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, run := range f.Results[0].Runs {
		if runtime.GOOS != "linux" {
			if run.Env != nil {
				t.Errorf("env %+v on %s", run.Env, runtime.GOOS)
			}
			continue
		}
		if run.Env == nil || run.Env.RunQueue < 0.5 || run.Env.Steal < 0 || run.Env.Steal > 1 || run.Env.Load1 < 0 {
			t.Errorf("run %d: env %+v; want one, with this process in the run queue", run.Index, run.Env)
		}
	}
}

func TestLoad1(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/loadavg")
	}
	t.Parallel()
	if l, err := Load1(); err != nil || l < 0 {
		t.Errorf("Load1 = %v, %v", l, err)
	}
}

func TestValidateEnv(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env  RunEnv
		want string
	}{
		{RunEnv{Load1: -1}, "env.load1 is -1"},
		{RunEnv{Steal: math.NaN()}, "env.steal is NaN"},
		{RunEnv{Steal: 1.5}, "env.steal is 1.5: must be a fraction"},
		{RunEnv{RunQueue: math.Inf(1)}, "env.run_queue is +Inf"},
	} {
		f := File{Results: []Result{{Label: "x", Runs: []Run{{WallNs: 1, Cells: 1, Env: &tc.env}}}}}
		if err := f.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Validate(env %+v) = %v, want %q", tc.env, err, tc.want)
		}
	}
}
