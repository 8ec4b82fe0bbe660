package harness

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// historyEnv lists the revisions TestProtocolHistory checks.
const historyEnv = "ROOTBENCH_PROTOCOL_HISTORY"

// historyBinEnv names a directory where TestProtocolHistory keeps the builds,
// by commit, to reuse them.
const historyBinEnv = "ROOTBENCH_PROTOCOL_BIN"

// TestProtocolHistory is the check behind the "worker protocol" record of
// docs/records.md. It builds `rootbench` at every revision in
// $ROOTBENCH_PROTOCOL_HISTORY (separated by spaces or commas; "." is the
// working tree, as is), learns each build's worker with DescribeWorker,
// matches every pair of builds as ab's base (the earlier in the list) and
// head, and runs the rendered msgpass and callback command lines of both
// sides. Building revisions takes minutes, so it runs only when asked:
//
//	ROOTBENCH_PROTOCOL_HISTORY="ff81315 51c97ff 06eb3a1 8e283c8 8b5e1bb ." \
//	    go test -run TestProtocolHistory -v ./harness
func TestProtocolHistory(t *testing.T) {
	revs := strings.FieldsFunc(os.Getenv(historyEnv), func(r rune) bool { return r == ' ' || r == ',' })
	if len(revs) == 0 {
		t.Skip("builds many revisions: set " + historyEnv + ` (e.g. "ff81315 8e283c8 .") to run it`)
	}
	top := strings.TrimSpace(gitOut(t, "", "rev-parse", "--show-toplevel"))
	bin := os.Getenv(historyBinEnv)
	if bin == "" {
		bin = t.TempDir()
	}
	infos := make([]*WorkerInfo, len(revs))
	for i, rev := range revs {
		exe := buildRev(t, top, bin, rev)
		info, err := DescribeWorker(context.Background(), exe, nil)
		if err != nil {
			t.Fatalf("%s: %v", rev, err)
		}
		info.Name = rev
		infos[i] = info
		t.Logf("%s: source %s, protocol %d, flags %v, warm-up pass %t, fixed %v", rev, info.Source, info.Protocol,
			info.Flags, info.WarmupPass, info.Fixed)
		for _, w := range sortedKeys(info.Workloads) {
			t.Logf("%s: %s params %v; %d cells", rev, w, info.Workloads[w], len(info.Cells[w]))
		}
	}
	for j := range infos {
		for i := range j {
			base, head := *infos[i], *infos[j]
			base.Name, head.Name = "base ("+revs[i]+")", "head ("+revs[j]+")"
			msgpass := map[string]string{"niters": "200", "batch-size": "64", "producers": "1", "consumers": "1", ParamPasses: "3"}
			checkHistoryRun(t, "msgpass", "boxroot", msgpass, &base, &head)
			if _, ok := base.Workloads["callback"]; ok {
				callback := map[string]string{"handle": "boxroot-handle", "threads": "1", "calls": "1000"}
				checkHistoryRun(t, "callback", "cthread", callback, &base, &head)
			}
		}
	}
}

// checkHistoryRun matches base and head, renders each side's worker command
// line, runs it and checks the work its line reports.
func checkHistoryRun(t *testing.T, workload, cell string, params map[string]string, base, head *WorkerInfo) {
	t.Helper()
	common, notes, err := MatchSides(workload, params, base, head)
	if err != nil {
		t.Errorf("%s %s: MatchSides: %v", base.Name, workload, err)
		return
	}
	for _, n := range notes {
		t.Logf("%s vs %s, %s: note: %s", base.Name, head.Name, workload, n)
	}
	for _, side := range []*WorkerInfo{base, head} {
		if err := side.CheckCell(workload, cell); err != nil {
			t.Error(err)
		}
		args, err := side.Args(WorkerRequest{Workload: workload, Cell: cell, Params: common})
		if err != nil {
			t.Errorf("%s: Args: %v", side.Name, err)
			continue
		}
		out, err := exec.Command(side.Exe, args...).Output()
		if err != nil {
			t.Errorf("%s: %s: %v", side.Name, strings.Join(args, " "), err)
			continue
		}
		run, err := ParseWorkerOutput(out)
		if err != nil {
			t.Errorf("%s: %s: %v", side.Name, strings.Join(args, " "), err)
			continue
		}
		want := int64(1000)
		if workload == "msgpass" {
			want = 200 * 64 * atoi(t, common[ParamPasses])
		}
		if run.Cells != want {
			t.Errorf("%s: %s: %d units of work, want %d", side.Name, strings.Join(args, " "), run.Cells, want)
		}
		t.Logf("%s: %s: ok, %d units of work, %d pass times", side.Name, strings.Join(args, " "), run.Cells, len(run.PassNs))
	}
}

func atoi(t *testing.T, s string) int64 {
	t.Helper()
	var n int64
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return n
}

// buildRev builds cmd/rootbench at rev into bin (reusing a build of the
// same commit) and returns its path; "." builds the working tree as is.
func buildRev(t *testing.T, top, bin, rev string) string {
	t.Helper()
	if rev == "." {
		exe := filepath.Join(bin, "rootbench-worktree")
		goBuild(t, top, exe)
		return exe
	}
	commit := strings.TrimSpace(gitOut(t, top, "rev-parse", "--verify", rev+"^{commit}"))
	exe := filepath.Join(bin, "rootbench-"+commit)
	if _, err := os.Stat(exe); err == nil {
		return exe
	}
	dir := filepath.Join(t.TempDir(), "rev")
	gitOut(t, top, "worktree", "add", "--detach", dir, commit)
	defer gitOut(t, top, "worktree", "remove", "--force", dir)
	goBuild(t, dir, exe)
	return exe
}

func goBuild(t *testing.T, dir, exe string) {
	t.Helper()
	cmd := exec.Command("go", "build", "-o", exe, "./cmd/rootbench")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build in %s: %v\n%s", dir, err, out)
	}
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return string(out)
}
