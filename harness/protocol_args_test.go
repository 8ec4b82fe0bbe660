package harness

import (
	"slices"
	"strings"
	"testing"
)

func TestArgs(t *testing.T) {
	t.Parallel()
	old, mid, cur := oldInfo("base", false), oldInfo("mid", true), newInfo("head")
	params := map[string]string{"NITERS": "200", "batch-size": "64", ParamPasses: "1", ParamWarmupPasses: "0"}
	req := WorkerRequest{Workload: "msgpass", Cell: "boxroot", Params: params, Pin: "0"}
	prefix := []string{"worker", "--workload", "msgpass", "--cell", "boxroot", "--pin", "0", "--set", "batch-size=64", "--set", "niters=200"}
	for _, tc := range []struct {
		info *WorkerInfo
		want []string
	}{
		{old, prefix},
		{cur, append(slices.Clone(prefix), "--set", "passes=1", "--set", "warmup-passes=0")},
	} {
		got, err := tc.info.Args(req)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s: Args = %q, %v; want %q", tc.info.Name, got, err, tc.want)
		}
	}
	for _, tc := range []struct {
		info *WorkerInfo
		req  WorkerRequest
		want string
	}{
		{mid, req, "mid always runs msgpass warmup-passes=1"},
		{old, WorkerRequest{Workload: "msgpass", Cell: "ocaml", Params: map[string]string{"passes": "3"}}, "base always runs msgpass passes=1"},
		{cur, WorkerRequest{Workload: "msgpass", Cell: "ocaml", Params: map[string]string{"bogus": "3"}}, "head has no msgpass parameter bogus (accepted: scheduler,"},
		{cur, WorkerRequest{Workload: "msgpass", Cell: "ocaml", Params: map[string]string{"niters": "3", "NITERS": "4"}}, "parameter niters given twice"},
		{cur, WorkerRequest{Workload: "scan", Cell: "ocaml"}, "head has no scan workload (it has: callback, msgpass)"},
		{cur, WorkerRequest{Workload: "msgpass"}, "needs a cell"},
		{&WorkerInfo{Name: "nopin", Workloads: map[string][]string{"msgpass": nil}}, WorkerRequest{Workload: "msgpass", Cell: "ocaml", Pin: "1"}, "nopin has no --pin flag"},
	} {
		_, err := tc.info.Args(tc.req)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Args(%+v) error %v; want %q", tc.info.Name, tc.req, err, tc.want)
		}
	}
}

func TestCheckCell(t *testing.T) {
	t.Parallel()
	info := oldInfo("base", false)
	if err := info.CheckCell("msgpass", "Boxroot-Handle"); err != nil {
		t.Error(err)
	}
	if err := info.CheckCell("msgpass", "boxroot-percpu"); err == nil || !strings.Contains(err.Error(), "base has no msgpass cell \"boxroot-percpu\" (accepted: boxroot,") {
		t.Errorf("error %v", err)
	}
	info.Cells = nil // unknown: accepted
	if err := info.CheckCell("msgpass", "boxroot-percpu"); err != nil {
		t.Error(err)
	}
}

// The CPU time is asked of a worker that measures it, after --pin; one
// that does not (every build before it) runs without it.
func TestArgsCPUTime(t *testing.T) {
	t.Parallel()
	old, cur := oldInfo("base", true), newInfo("head")
	cur.CPUTime = true
	req := WorkerRequest{Workload: "msgpass", Cell: "ocaml", Params: map[string]string{"niters": "20"}, Pin: "0", CPUTime: true}
	for _, tc := range []struct {
		info *WorkerInfo
		want []string
	}{
		{old, []string{"worker", "--workload", "msgpass", "--cell", "ocaml", "--pin", "0", "--set", "niters=20"}},
		{cur, []string{"worker", "--workload", "msgpass", "--cell", "ocaml", "--pin", "0", "--" + FlagCPUTime, "--set", "niters=20"}},
	} {
		if got, err := tc.info.Args(req); err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s: Args = %q, %v; want %q", tc.info.Name, got, err, tc.want)
		}
	}
	req.CPUTime = false
	if got, _ := cur.Args(req); slices.Contains(got, "--"+FlagCPUTime) {
		t.Errorf("Args without the CPU time asked: %q", got)
	}
}
