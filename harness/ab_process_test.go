package harness

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// Two real worker processes: each side runs its own executable with its own
// environment.
func TestExecuteABProcesses(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := []string{fakeWorkerEnv + "=1", "GORACE=atexit_sleep_ms=0"}
	var notes []string
	var notices strings.Builder
	opt := ABOptions{
		Benchmarks: []Benchmark{bench("good", "side"), bench("bad", "exit3")},
		Base:       Side{Executable: exe, Env: append(slices.Clone(env), sideEnv+"=base")},
		Head:       Side{Executable: exe, Env: append(slices.Clone(env), sideEnv+"=head")},
		Timeout:    time.Minute,
		LogDir:     t.TempDir(),
		Notices:    &notices,
		Workload:   "fake", Unit: "cell",
		Rule: fixedRule(func(base, head *File, l Look) (bool, string) {
			notes = append(notes, fmt.Sprintf("%d:%d", l.Number, l.Runs))
			return false, fmt.Sprintf("look %d/%d", l.Number, l.Of)
		}, 2, 4),
	}
	f, err := ExecuteAB(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, side := range []struct {
		f    *File
		want int64
	}{{f.Base, 1}, {f.Head, 2}} {
		r := resultByLabel(t, side.f, "good")
		if len(r.Runs) != 4 {
			t.Fatalf("good: %d runs, want 4", len(r.Runs))
		}
		for _, run := range r.Runs {
			if run.Failed || run.Stats["side"] != side.want {
				t.Errorf("run %+v: want side %d's worker", run, side.want)
			}
		}
	}
	if !slices.Equal(notes, []string{"1:2", "2:4"}) {
		t.Errorf("looks %v", notes)
	}
	// The failing benchmark stopped after its first (base) run; its head log
	// is named after the side.
	bad := resultByLabel(t, f.Base, "bad")
	if len(bad.Runs) != 1 || !strings.Contains(bad.Runs[0].Error, "base-bad-run1.log") {
		t.Errorf("bad: %+v", bad.Runs)
	}
	for _, want := range []string{"base: bad run 1 failed: exit status 3", "look 1/2", "look 2/2"} {
		if !strings.Contains(notices.String(), want) {
			t.Errorf("notices lack %q:\n%s", want, notices.String())
		}
	}
	if f.Base.Tool.GoVersion == "" || f.Head.Tool.GoVersion == "" {
		t.Errorf("sides' tools lack build information: %+v %+v", f.Base.Tool, f.Head.Tool)
	}
}
