package absession

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/exitstatus"
	"github.com/rootbench/rootbench/harness"
)

// session is a file of one session whose sides hold the given numbers of
// runs per benchmark, made in d.
func session(d time.Duration, runs ...int) *harness.ABFile {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	f := &harness.ABFile{Base: &harness.File{}, Head: &harness.File{}, StartedAt: start, FinishedAt: start.Add(d), Stopped: harness.StopBudget}
	for _, n := range runs {
		f.Base.Results = append(f.Base.Results, harness.Result{Runs: make([]harness.Run, n)})
	}
	return f
}

func TestLength(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		f    *harness.ABFile
		want string
	}{
		{session(72*time.Second, 24, 24), "24 runs per side in 72.0 s"},
		{session(3*time.Minute, 24, 180, 60), "24-180 runs per side in 180 s"},
		{session(time.Second), "0 runs per side in 1.00 s"},
	} {
		if got := Length(c.f); got != c.want {
			t.Errorf("Length = %q, want %q", got, c.want)
		}
	}
}

func TestRevision(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		tool harness.Tool
		want string
	}{
		{harness.Tool{Revision: "51c97ff0a1b2c3d4e5f6", Version: "(devel)"}, "51c97ff0a1b2"},
		{harness.Tool{Revision: "51c97ff", Modified: true}, "51c97ff+modified"},
		{harness.Tool{Version: "(devel)"}, "devel"},
		{harness.Tool{Version: "v1.2.0", Modified: true}, "v1.2.0+modified"},
	} {
		if got := Revision(c.tool); got != c.want {
			t.Errorf("Revision(%+v) = %q, want %q", c.tool, got, c.want)
		}
	}
}

func TestCommonParams(t *testing.T) {
	t.Parallel()
	bs := []harness.Benchmark{
		{Params: map[string]string{"niters": "20", "batch-size": "16", "scheduler": "parallel"}},
		{Params: map[string]string{"niters": "20", "batch-size": "64", "scheduler": "parallel"}},
		{Params: map[string]string{"niters": "20", "batch-size": "64"}},
	}
	got := CommonParams(bs)
	if len(got) != 1 || got["niters"] != "20" {
		t.Errorf("CommonParams = %v, want niters=20 only", got)
	}
	if bs[0].Params["batch-size"] != "16" {
		t.Error("CommonParams changed a benchmark's parameters")
	}
	if got := CommonParams([]harness.Benchmark{{}}); got == nil || len(got) != 0 {
		t.Errorf("one benchmark without parameters: %v, want an empty map", got)
	}
	if got := CommonParams(nil); got != nil {
		t.Errorf("no benchmark: %v, want nil", got)
	}
}

func TestLayoutEnv(t *testing.T) {
	t.Setenv("GOFLAGS", "-tags=x")
	for layout, want := range map[string]string{"": "", "0": "", "5": "GOFLAGS=-tags=x -ldflags=-randlayout=5"} {
		if got := strings.Join(LayoutEnv(layout), " "); got != want {
			t.Errorf("LayoutEnv(%q) = %q, want %q", layout, got, want)
		}
	}
	t.Setenv("GOFLAGS", "")
	if got := strings.Join(LayoutEnv("9"), " "); got != "GOFLAGS=-ldflags=-randlayout=9" {
		t.Errorf("LayoutEnv(9) without GOFLAGS = %q", got)
	}
}

func TestCheckGOFLAGS(t *testing.T) {
	t.Parallel()
	for goflags, ok := range map[string]bool{"": true, "-tags=x -trimpath": true, "-ldflags=-s": false, "-trimpath --ldflags=-w": false} {
		err := CheckGOFLAGS(goflags)
		if (err == nil) != ok || (err != nil && !strings.Contains(err.Error(), "GOFLAGS already sets")) {
			t.Errorf("CheckGOFLAGS(%q) = %v, want ok %v", goflags, err, ok)
		}
	}
}

// comparison is a comparison at a 5% gate whose rows have the given gates.
func comparison(gates ...analysis.Outcome) *analysis.Comparison {
	c := &analysis.Comparison{Threshold: 0.05}
	for i, g := range gates {
		c.Rows = append(c.Rows, analysis.Row{Label: string(rune('a' + i)), Gate: g})
	}
	return c
}

// A session's exit status is its verdict's, and an inconclusive one says
// how long the session ran and why it stopped.
func TestResultExit(t *testing.T) {
	t.Parallel()
	f := session(72*time.Second, 24)
	for _, c := range []struct {
		v    analysis.SessionVerdict
		code int
		why  string
	}{
		{analysis.SessionVerdict{Outcome: analysis.Pass}, exitstatus.Success, ""},
		{analysis.SessionVerdict{Outcome: analysis.Regression, Reason: "regression beyond the gate in: a"}, exitstatus.Failed, "regression beyond the gate in: a"},
		{analysis.SessionVerdict{Outcome: analysis.Inconclusive, Reason: "undecided: a"}, exitstatus.Inconclusive,
			"inconclusive after 24 runs per side in 72.0 s (budget): undecided: a"},
	} {
		code, err := (&Result{File: f, Verdict: &c.v}).Exit()
		if code != c.code || (err == nil) != (c.why == "") || (err != nil && err.Error() != c.why) {
			t.Errorf("%v: exit %d, %v; want %d, %q", c.v.Outcome, code, err, c.code, c.why)
		}
	}
}

// The combination's exit status: a failed head run anywhere is a
// regression (unless failures are ignored), no combination is
// inconclusive, else the combined gate decides, and an undecided one
// points at more layouts and at failed base runs.
func TestLayoutsExit(t *testing.T) {
	t.Parallel()
	judged := func(headFailed, baseFailed int) *Result {
		return &Result{Verdict: &analysis.SessionVerdict{HeadFailed: headFailed, BaseFailed: baseFailed}}
	}
	two := []analysis.LayoutSession{{Layout: "0"}, {Layout: "5"}}
	for _, c := range []struct {
		name   string
		l      Layouts
		ignore bool
		code   int
		why    string
	}{
		{"pass", Layouts{Results: []*Result{judged(0, 0), judged(0, 0)}, Sessions: two, Comparison: comparison(analysis.Pass)}, false, 0, ""},
		{"head failed", Layouts{Results: []*Result{judged(1, 0), judged(2, 0)}, Sessions: two, Comparison: comparison(analysis.Pass)}, false,
			exitstatus.Failed, "3 run(s) of head failed (see the reasons and logs above)"},
		{"head failed, ignored", Layouts{Results: []*Result{judged(1, 0), judged(2, 0)}, Sessions: two, Comparison: comparison(analysis.Pass)}, true, 0, ""},
		{"no combination", Layouts{Results: []*Result{judged(0, 0), judged(0, 0)}, Sessions: two, Err: errors.New("no row in common")}, false,
			exitstatus.Inconclusive, "no combination across layouts: no row in common"},
		{"regression", Layouts{Results: []*Result{judged(0, 0), judged(0, 0)}, Sessions: two, Comparison: comparison(analysis.Pass, analysis.Regression)}, false,
			exitstatus.Failed, "across 2 layouts, regression beyond the gate in: b"},
		{"undecided", Layouts{Results: []*Result{judged(0, 1), judged(0, 0)}, Sessions: two, Comparison: comparison(analysis.Inconclusive)}, false,
			exitstatus.Inconclusive, "across 2 layouts, undecided: a (more layouts would decide them) (1 run(s) of base failed)"},
	} {
		code, err := c.l.Exit(c.ignore)
		if code != c.code || (err == nil) != (c.why == "") || (err != nil && err.Error() != c.why) {
			t.Errorf("%s: exit %d, %v; want %d, %q", c.name, code, err, c.code, c.why)
		}
	}
}

// AcrossLayouts runs one session per layout in order, stops at the first
// error, and combines the sessions under the rule.
func TestAcrossLayoutsStopsAtAnError(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	var ran []string
	_, err := AcrossLayouts([]string{"0", "5", "9"}, analysis.Sequential{Alpha: 0.05, Threshold: 0.05}, func(i int, layout string) (*Result, error) {
		ran = append(ran, layout)
		if i == 1 {
			return nil, boom
		}
		return &Result{File: session(time.Second, 4)}, nil
	})
	if !errors.Is(err, boom) || strings.Join(ran, ",") != "0,5" {
		t.Errorf("error %v after layouts %v; want boom after 0,5", err, ran)
	}
}
