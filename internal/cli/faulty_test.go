//go:build rootbench_faulty

package cli

// Tests that need the test-only faulty:* cells, built only with
// -tags rootbench_faulty (make test passes it).

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/impls"
	"github.com/rootbench/rootbench/internal/cli/clitest"
)

func TestFaultyCellsFailLoudly(t *testing.T) {
	fullSuiteOnly(t, "runs workers")
	t.Parallel()
	for _, tc := range []struct{ cell, want, style string }{
		{"faulty:wrong-value", "wrong value", "auto"},
		{"faulty:leak", "leak", "auto"},
		// --style none silences the report, not the reason a run failed.
		{"faulty:wrong-value", "wrong value", "none"},
	} {
		t.Run(tc.cell+"/"+tc.style, func(t *testing.T) {
			t.Parallel()
			r := rootbench(t, nil, "run", "--cell", tc.cell, "--niters", "20", "--runs", "1", "--style", tc.style)
			r.Must(t, 1)
			all := r.Stdout + r.Stderr
			if !strings.Contains(all, tc.cell) || !strings.Contains(all, tc.want) {
				t.Fatalf("output does not name the cell %q and the problem %q:\n%s", tc.cell, tc.want, all)
			}
		})
	}
}

func TestTimeoutIsRecordedAndOthersSurvive(t *testing.T) {
	fullSuiteOnly(t, "waits for a run to time out")
	t.Parallel()
	out := filepath.Join(t.TempDir(), "r.json")
	r := rootbench(t, nil, "run", "--cell", "ocaml,faulty:hang", "--niters", "20", "--runs", "2",
		"--timeout", "2s", "--export-json", out)
	r.Must(t, 1)
	f := mustLoad(t, out)
	byCell := map[string]harness.Result{}
	for _, res := range f.Results {
		byCell[res.Cell] = res
	}
	if ok := byCell["ocaml"]; len(ok.Runs) != 2 || ok.Failed != 0 {
		t.Errorf("ocaml's results did not survive: %+v", ok.Runs)
	}
	hang := byCell["faulty:hang"]
	if len(hang.Runs) == 0 || !hang.Runs[0].Failed || !strings.Contains(hang.Runs[0].Error, "timed out") {
		t.Errorf("the hanging run is not recorded as timed out: %+v", hang.Runs)
	}
}

func TestWorkerFaultsAreRecorded(t *testing.T) {
	fullSuiteOnly(t, "runs workers")
	t.Parallel()
	for _, tc := range []struct{ cell, reason string }{
		{"faulty:panic", "panic"},
		{"faulty:crash", "killed"},
		{"faulty:exit", "exit status 3"},
		{"faulty:garbage", "malformed"},
	} {
		t.Run(tc.cell, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "r.json")
			r := rootbench(t, nil, "run", "--cell", "ocaml,"+tc.cell, "--niters", "20", "--runs", "2", "--export-json", out)
			r.Must(t, 1)
			f := mustLoad(t, out)
			var okRuns int
			var reason string
			for _, res := range f.Results {
				for _, run := range res.Runs {
					if res.Cell == "ocaml" && !run.Failed {
						okRuns++
					}
					if res.Cell == tc.cell && run.Failed {
						reason = run.Error + "\n" + run.StderrTail
					}
				}
			}
			if okRuns != 2 {
				t.Errorf("ocaml kept %d good runs, want 2", okRuns)
			}
			if !strings.Contains(strings.ToLower(reason), tc.reason) {
				t.Errorf("reason %q does not say %q", reason, tc.reason)
			}
		})
	}
	// --ignore-failure exits 0.
	r := rootbench(t, nil, "run", "--cell", "ocaml,faulty:exit", "--niters", "20", "--runs", "2", "--ignore-failure")
	r.Must(t, 0)
}

func TestInterruptWritesPartialExports(t *testing.T) {
	fullSuiteOnly(t, "sends signals")
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "r.json")
			cmd := clitest.Command(context.Background(), nil, "run", "--cell", "ocaml,faulty:hang", "--niters", "20", "--runs", "3",
				"--order", "grouped", "--export-json", out)
			var errb bytes.Buffer
			cmd.Stderr = &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Wait until ocaml's runs are exported, then interrupt the hanging cell.
			deadline := time.Now().Add(2 * time.Minute)
			for {
				if f, err := harness.Load(out); err == nil && len(f.Results) > 0 && len(f.Results[0].Runs) == 3 {
					break
				}
				if time.Now().After(deadline) {
					_ = cmd.Process.Kill()
					t.Fatalf("ocaml's runs never reached the export; stderr:\n%s", errb.String())
				}
				time.Sleep(50 * time.Millisecond)
			}
			time.Sleep(300 * time.Millisecond)
			_ = cmd.Process.Signal(sig)
			err := cmd.Wait()
			want := 128 + int(sig)
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != want {
				t.Fatalf("exit: %v, want status %d; stderr:\n%s", err, want, errb.String())
			}
			f := mustLoad(t, out)
			if !f.Partial || len(f.Results[0].Runs) != 3 {
				t.Fatalf("export after %v: partial=%v, ocaml runs %d", sig, f.Partial, len(f.Results[0].Runs))
			}
		})
	}
}

// TestPlantedSlowdownReachesTheWorker runs a worker with ROOTBENCH_SLOW set
// for its cell and for another cell: only the named cell's run is slowed and
// marked (impls.SlowStat); the passes are all there, and the planted time
// is summed over them (impls.PlantedWallStat: in wall time, at least the
// planted share of the unslowed passes; impls.PlantedCPUStat in CPU time, a
// share of the run's CPU time over its measured passes near the planted one).
func TestPlantedSlowdownReachesTheWorker(t *testing.T) {
	fullSuiteOnly(t, "plants slowdowns")
	t.Parallel()
	worker := func(env string) harness.Run {
		t.Helper()
		r := rootbench(t, []string{"ROOTBENCH_SLOW=" + env}, "worker", "--workload", "msgpass", "--cell", "direct",
			"--set", "niters=20", "--set", "passes=3")
		r.Must(t, 0)
		run, err := harness.ParseWorkerOutput([]byte(r.Stdout))
		if err != nil {
			t.Fatal(err)
		}
		if len(run.PassNs) != 3 || run.Cells != 3*20*1024 {
			t.Fatalf("worker line has %d passes and %d cells, want 3 and %d", len(run.PassNs), run.Cells, 3*20*1024)
		}
		return run
	}
	run := worker("ocaml=20%")
	if planted := run.Stats[impls.PlantedWallStat]; run.Stats[impls.SlowStat] != 200 || run.Stats[impls.SlowCPUStat] != 0 ||
		planted <= 0 || 5*planted < run.WallNs-planted {
		t.Errorf("slowed run's stats %v (wall %d ns); want %s=200, no %s, and %s at least 20%% of the unslowed wall time",
			run.Stats, run.WallNs, impls.SlowStat, impls.SlowCPUStat, impls.PlantedWallStat)
	}
	run = worker("ocaml=20%cpu")
	planted := run.Stats[impls.PlantedCPUStat]
	if run.Stats[impls.SlowStat] != 200 || run.Stats[impls.SlowCPUStat] != 1 || planted <= 0 || run.Stats[impls.PlantedWallStat] <= 0 {
		t.Errorf("run slowed in CPU time: stats %v; want %s=200, %s=1 and both planted times", run.Stats, impls.SlowStat, impls.SlowCPUStat)
	}
	if cpu := run.CPUNs(); cpu > 0 {
		// The run's CPU time also counts the time between passes, which
		// the planted share leaves out: the shift is at most the planted
		// 20% and, on passes this short, not far below.
		if shift := float64(planted) / float64(cpu-planted); shift < 0.1 || shift > 0.21 {
			t.Errorf("planted %d ns of a run's %d ns of CPU time: a shift of %.3f, want about 0.2", planted, cpu, shift)
		}
	}
	if run := worker("ref=20%"); run.Stats[impls.SlowStat] != 0 {
		t.Errorf("a slowdown planted on ref marked ocaml's run: %v", run.Stats)
	}
	r := rootbench(t, []string{"ROOTBENCH_SLOW=ocaml=fast"}, "run", "--cell", "ocaml", "--runs", "1")
	r.Must(t, exitUsage)
	if !strings.Contains(r.Stderr, "ROOTBENCH_SLOW") || !strings.Contains(r.Stderr, "bad percentage") {
		t.Errorf("a malformed ROOTBENCH_SLOW is not explained:\n%s", r.Stderr)
	}
}
