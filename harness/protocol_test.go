package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// Texts of the workers that predate --describe, as builds ff81315 to
// 8b5e1bb print them (docs/records.md, "worker protocol").
const (
	oldHelp = `Run one measured run and print it as one JSON line (used by the harness)

Usage:
  rootbench worker [flags]

Flags:
      --cell string       cell (msgpass) or variant (callback)
  -h, --help              help for worker
      --pin string        CPU list to pin this process to
      --set stringArray   NAME=VALUE workload parameter (repeatable)
      --workload string   msgpass or callback (default "msgpass")
`
	oldCells     = "boxroot, boxroot-boxed, boxroot-handle, boxroot:eager-remote, boxroot:force-remote, boxroot:locked-remote, boxroot:no-reuse, bx-boxed, bxboxed, cgo, cgo-handle, direct, generational, ocaml, ocaml-ref, ref"
	oldParams    = "scheduler, max-delay, niters, batch-size, producers, consumers, payload, queue, max-outstanding"
	oldVariants  = "plain, cthread, pipe, spin, channel"
	oldCbParams  = "variant, handle, threads, calls"
	oldWorkloads = "msgpass, callback"
)

// fakeOldWorker writes a shell script that answers the handshake as a
// worker before --describe does: with passes (8e283c8 to 8b5e1bb) or
// without (ff81315 to 8e283c8^), with cgo or without. It answers nothing
// else: the handshake must not run a workload.
func fakeOldWorker(t *testing.T, passes, cgo bool) string {
	t.Helper()
	params := oldParams
	if passes {
		params += ", passes"
	}
	script := fmt.Sprintf(`#!/bin/sh
if [ "$1" = version ]; then
	printf 'rootbench (devel)\nrevision  unknown\ngo        go1.26.8 linux/amd64\ncgo       %[6]t\n'
	exit 0
fi
if [ "$1" != worker ]; then echo "rootbench: unknown command \"$1\" for \"rootbench\"" >&2; exit 2; fi
shift
wl=msgpass cell= set=
for a in "$@"; do
	case "$a" in
	--help) cat <<'EOF'
%[1]sEOF
		exit 0;;
	--describe) echo 'rootbench: unknown flag: --describe' >&2; echo "Run 'rootbench worker --help' for usage." >&2; exit 2;;
	--workload=*) wl=${a#--workload=};;
	--cell=*) cell=${a#--cell=};;
	--set=*) set=${a#--set=};;
	*) echo "fake worker: unexpected argument $a" >&2; exit 64;;
	esac
done
case "$wl" in
msgpass)
	case ", %[2]s, " in
	*", $cell, "*) ;;
	*) echo "rootbench: unknown cell \"$cell\" (accepted: %[2]s; or \"all\")" >&2; exit 2;;
	esac
	if [ -n "$set" ]; then
		echo "rootbench: --set $set: unknown parameter \"${set%%%%=*}\" (accepted: %[3]s; or their environment spellings such as BATCH_SIZE)" >&2; exit 2
	fi;;
callback)
	if [ -n "$set" ]; then
		echo "rootbench: --set $set: unknown callback parameter \"${set%%%%=*}\" (accepted: %[5]s)" >&2; exit 2
	fi
	echo "rootbench: callback: unknown variant \"$cell\" (accepted: %[4]s)" >&2; exit 2;;
*) echo "rootbench: --workload \"$wl\": accepted: msgpass, callback" >&2; exit 2;;
esac
echo "fake worker: asked to run $wl $cell" >&2
exit 70
`, oldHelp, oldCells, params, oldVariants, oldCbParams, cgo)
	return writeScript(t, "rootbench-old", script)
}

func writeScript(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func split(list string) []string { return strings.Split(list, ", ") }

// oldInfo is what DescribeWorker learns from a worker before --describe
// (TestDescribeOldWorker checks it against the fake).
func oldInfo(name string, passes bool) *WorkerInfo {
	params := split(oldParams)
	fixed := map[string]string{ParamPasses: "1", ParamWarmupPasses: "0"}
	if passes {
		params = append(params, ParamPasses)
		fixed = map[string]string{ParamWarmupPasses: "1"}
	}
	return &WorkerInfo{
		Name: name, Exe: name, Source: SourceHelp, Protocol: 0,
		Workloads:  map[string][]string{"msgpass": params, "callback": split(oldCbParams)},
		Cells:      map[string][]string{"msgpass": split(oldCells), "callback": split(oldVariants)},
		Fixed:      map[string]map[string]string{"msgpass": fixed},
		Flags:      []string{"cell", "pin", "set", "workload"},
		WarmupPass: passes,
	}
}

// newInfo is a protocol 1 worker as its --describe gives it.
func newInfo(name string) *WorkerInfo {
	return &WorkerInfo{
		Name: name, Exe: name, Source: SourceDescribe, Protocol: 1,
		Workloads: map[string][]string{
			"msgpass":  append(split(oldParams), ParamPasses, ParamWarmupPasses),
			"callback": split(oldCbParams),
		},
		Cells: map[string][]string{"msgpass": split(oldCells), "callback": split(oldVariants)},
		Defaults: map[string]map[string]string{
			"msgpass": {"scheduler": "parallel", "max-delay": "128", "niters": "2000", "batch-size": "1024",
				"producers": "1", "consumers": "1", "payload": "static", "queue": "shared",
				"max-outstanding": "0", "passes": "3", "warmup-passes": "1"},
			"callback": {"variant": "plain", "handle": "none", "threads": "1", "calls": "1000000"},
		},
		Fixed:      map[string]map[string]string{},
		Flags:      []string{"cell", "describe", "pin", "set", "workload"},
		WarmupPass: true,
	}
}

func TestDescribeOldWorker(t *testing.T) {
	for _, tc := range []struct {
		passes, cgo bool
	}{{false, true}, {true, true}, {true, false}} {
		t.Run(fmt.Sprintf("passes=%t,cgo=%t", tc.passes, tc.cgo), func(t *testing.T) {
			exe := fakeOldWorker(t, tc.passes, tc.cgo)
			got, err := DescribeWorker(context.Background(), exe, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := oldInfo(exe, tc.passes)
			if !tc.cgo {
				delete(want.Workloads, "callback")
				delete(want.Cells, "callback")
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("DescribeWorker:\n got %+v\nwant %+v", got, want)
			}
		})
	}
}

// A planted slowdown in the caller's environment must not hide the probes'
// answers (a shipped build refuses every cell while it is set).
func TestDescribeOldWorkerIgnoresSlowEnv(t *testing.T) {
	exe := writeScript(t, "rootbench-slow", fmt.Sprintf(`#!/bin/sh
if [ -n "$%s" ]; then echo "rootbench: %s is set" >&2; exit 2; fi
exec %s "$@"
`, slowEnv, slowEnv, fakeOldWorker(t, true, true)))
	if _, err := DescribeWorker(context.Background(), exe, []string{slowEnv + "=boxroot=20%"}); err != nil {
		t.Fatal(err)
	}
}

func TestDescribeNewWorker(t *testing.T) {
	want := newInfo("")
	d := WorkerDescription{Protocol: 1, Flags: want.Flags, WarmupPass: true, Workloads: map[string]WorkloadDescription{}}
	for w, ps := range want.Workloads {
		d.Workloads[w] = WorkloadDescription{Params: ps, Cells: want.Cells[w], Defaults: want.Defaults[w]}
	}
	line, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	exe := writeScript(t, "rootbench-new", "#!/bin/sh\n[ \"$*\" = 'worker --describe' ] || exit 64\necho 'a log line first'\necho '"+string(line)+"'\n")
	got, err := DescribeWorker(context.Background(), exe, nil)
	if err != nil {
		t.Fatal(err)
	}
	want.Name, want.Exe = exe, exe
	if !reflect.DeepEqual(got, want) {
		t.Errorf("DescribeWorker:\n got %+v\nwant %+v", got, want)
	}
}

func TestDescribeRefusesWhatIsNotRootbench(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.txt")
	if err := os.WriteFile(plain, []byte("#!/bin/sh\necho hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, exe, want string
	}{
		{"true", "/bin/true", "printed nothing)"},
		{"garbage", writeScript(t, "garbage", "#!/bin/sh\necho 'hello there'\necho '{\"protocol\": 1}'\n"), `printed nothing recognisable): it printed "hello there`},
		{"describe-json-but-failing", writeScript(t, "half", "#!/bin/sh\necho '{\"protocol\":1,\"workloads\":{\"msgpass\":{}}}'\nexit 1\n"), "recognisable"},
		{"help-of-another-program", writeScript(t, "other", "#!/bin/sh\necho 'Usage: other worker [--workload] [--cell]'\n"), "recognisable"},
		{"directory", dir, "a directory"},
		{"missing", filepath.Join(dir, "missing"), "no such file"},
		{"not-executable", plain, "not executable (mode -rw-r--r--)"},
		{"not-in-path", "rootbench-surely-not-in-path", "not found in PATH"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DescribeWorker(context.Background(), tc.exe, nil)
			if err == nil {
				t.Fatal("accepted")
			}
			msg := err.Error()
			if !errors.Is(err, ErrNotRootbench) || !strings.Contains(msg, tc.want) ||
				!strings.HasPrefix(msg, tc.exe+": ") || strings.Contains(msg, "\n") {
				t.Errorf("error %q: want one line starting %q, wrapping ErrNotRootbench, saying %q", msg, tc.exe+": ", tc.want)
			}
		})
	}
}

func TestDescribeGivesUpOnAHangingWorker(t *testing.T) {
	exe := writeScript(t, "hang", "#!/bin/sh\nexec sleep 60\n")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := DescribeWorker(ctx, exe, nil)
	if err == nil || !strings.Contains(err.Error(), "did not answer within") {
		t.Fatalf("error %v: want a timeout", err)
	}
	// Not a speed goal: the handshake must not wait for the sleep to end.
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("took %s", d)
	}
}

func TestArgs(t *testing.T) {
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

func TestMatchSides(t *testing.T) {
	old, mid, cur := oldInfo("base (51c97ff)", false), oldInfo("head (8b5e1bb)", true), newInfo("head (new)")
	full := newInfo("").Defaults["msgpass"] // every parameter, as msgpass.Params.Map gives them
	without := func(m map[string]string, names ...string) map[string]string {
		m = maps.Clone(m)
		for _, n := range names {
			delete(m, n)
		}
		return m
	}
	with := func(m map[string]string, kv ...string) map[string]string {
		m = maps.Clone(m)
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	params := without(full, ParamWarmupPasses)
	for _, tc := range []struct {
		name     string
		workload string
		params   map[string]string
		sides    []*WorkerInfo
		want     map[string]string
		notes    []string
	}{
		{"old and new", "msgpass", params, []*WorkerInfo{old, cur},
			with(params, ParamPasses, "1", ParamWarmupPasses, "0"),
			[]string{"base (51c97ff) predates passes and the warm-up pass: both sides run 1 pass (instead of passes=3), no warm-up"}},
		{"old and new, one pass asked", "msgpass", with(params, ParamPasses, "1"), []*WorkerInfo{cur, old},
			with(params, ParamPasses, "1", ParamWarmupPasses, "0"),
			[]string{"base (51c97ff) predates passes and the warm-up pass: both sides run 1 pass, no warm-up"}},
		{"old and new, passes not given", "msgpass", without(params, ParamPasses), []*WorkerInfo{old, cur},
			with(params, ParamPasses, "1", ParamWarmupPasses, "0"),
			[]string{"base (51c97ff) predates passes and the warm-up pass: both sides run 1 pass, no warm-up"}},
		{"old and mid", "msgpass", params, []*WorkerInfo{old, mid},
			with(params, ParamPasses, "1"),
			[]string{"base (51c97ff) predates passes and the warm-up pass: both sides run 1 measured pass (instead of passes=3); head (8b5e1bb) always runs an unmeasured warm-up pass first (it predates warmup-passes), base (51c97ff) never does"}},
		{"old twice", "msgpass", params, []*WorkerInfo{old, oldInfo("head (51c97ff)", false)},
			with(params, ParamPasses, "1", ParamWarmupPasses, "0"),
			[]string{"base (51c97ff) and head (51c97ff) predate passes and the warm-up pass: both sides run 1 pass (instead of passes=3), no warm-up"}},
		{"mid and new", "msgpass", params, []*WorkerInfo{mid, cur}, params, nil},
		{"mid and new, warm-up as mid runs it", "msgpass", with(params, ParamWarmupPasses, "1"), []*WorkerInfo{mid, cur},
			with(params, ParamWarmupPasses, "1"), nil},
		{"new and new, no warm-up", "msgpass", with(params, ParamWarmupPasses, "0"), []*WorkerInfo{cur, newInfo("base")},
			with(params, ParamWarmupPasses, "0"), nil},
		{"callback across the history", "callback", map[string]string{"handle": "boxroot-handle", "threads": "2", "calls": "1000"},
			[]*WorkerInfo{old, mid, cur}, map[string]string{"handle": "boxroot-handle", "threads": "2", "calls": "1000"}, nil},
		{"env spellings", "msgpass", map[string]string{"BATCH_SIZE": "64", "niters": "1_000"}, []*WorkerInfo{cur, cur},
			map[string]string{"batch-size": "64", "niters": "1_000"}, nil},
		{"a new parameter at its default", "msgpass", with(params, "shards", "1"), []*WorkerInfo{newer("head (newer)", "shards", "1"), cur},
			params, []string{"head (new) has no msgpass parameter shards: the other sides run its default, 1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, notes, err := MatchSides(tc.workload, tc.params, tc.sides...)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) || !slices.Equal(notes, tc.notes) {
				t.Errorf("MatchSides:\n got %v\n     %q\nwant %v\n     %q", got, notes, tc.want, tc.notes)
			}
			// Every side renders the match, and no side is asked to run
			// a parameter it ignores.
			for _, s := range tc.sides {
				args, err := s.Args(WorkerRequest{Workload: tc.workload, Cell: "ocaml", Params: got})
				if err != nil {
					t.Errorf("%s: Args: %v", s.Name, err)
				}
				for _, a := range args {
					if name, _, ok := strings.Cut(a, "="); ok && !slices.Contains(s.Workloads[tc.workload], name) {
						t.Errorf("%s: renders %s, which it does not accept", s.Name, a)
					}
				}
			}
		})
	}
}

func TestMatchSidesRefuses(t *testing.T) {
	old, mid, cur := oldInfo("base (51c97ff)", false), oldInfo("base (8b5e1bb)", true), newInfo("head")
	noCallback := oldInfo("base (nocgo)", false)
	delete(noCallback.Workloads, "callback")
	for _, tc := range []struct {
		name     string
		workload string
		params   map[string]string
		sides    []*WorkerInfo
		want     string
	}{
		{"workload a side lacks", "callback", nil, []*WorkerInfo{noCallback, cur}, "base (nocgo) has no callback workload (it has: msgpass)"},
		{"warm-up the old side cannot run", "msgpass", map[string]string{ParamWarmupPasses: "1"}, []*WorkerInfo{old, cur},
			"base (51c97ff) predates the warm-up pass: warmup-passes=1 cannot be expressed there (0 can)"},
		{"no warm-up on a side that always runs one", "msgpass", map[string]string{ParamWarmupPasses: "0"}, []*WorkerInfo{mid, cur},
			"base (8b5e1bb) always runs msgpass warmup-passes=1 (it has no parameter warmup-passes): warmup-passes=0 cannot be expressed there"},
		{"a new parameter off its default", "msgpass", map[string]string{"shards": "4"}, []*WorkerInfo{cur, newer("head (newer)", "shards", "1")},
			"head has no msgpass parameter shards, and shards=4 is not the default of head (newer)"},
		{"a parameter no side has", "msgpass", map[string]string{"shards": "1"}, []*WorkerInfo{old, cur},
			"base (51c97ff) and head have no msgpass parameter shards"},
		{"two spellings", "msgpass", map[string]string{"niters": "1", "NITERS": "2"}, []*WorkerInfo{cur}, "given twice"},
		{"no side", "msgpass", nil, nil, "no side"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := MatchSides(tc.workload, tc.params, tc.sides...)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %v; want one line saying %q", err, tc.want)
			}
		})
	}
}

// newer is a protocol 1 worker with one more msgpass parameter.
func newer(name, param, def string) *WorkerInfo {
	w := newInfo(name)
	w.Workloads["msgpass"] = append(slices.Clone(w.Workloads["msgpass"]), param)
	w.Defaults["msgpass"][param] = def
	return w
}

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

// MatchSides' contract, over any mix of the workers in the history and any
// parameters: a match renders on every side, gives every side the same value
// of each parameter it renders, runs one pass without a warm-up where a side
// predates passes, and announces every change to what was asked in a note.
func TestMatchSidesProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		kinds := map[string]func(string) *WorkerInfo{
			"old":   func(n string) *WorkerInfo { return oldInfo(n, false) },
			"mid":   func(n string) *WorkerInfo { return oldInfo(n, true) },
			"new":   newInfo,
			"newer": func(n string) *WorkerInfo { return newer(n, "shards", "1") },
		}
		kindNames := slices.Sorted(maps.Keys(kinds))
		var sides []*WorkerInfo
		for i := range rapid.IntRange(1, 3).Draw(t, "sides") {
			k := rapid.SampledFrom(kindNames).Draw(t, "kind")
			sides = append(sides, kinds[k](fmt.Sprintf("side%d (%s)", i, k)))
		}
		names := append(split(oldParams), ParamPasses, ParamWarmupPasses, "shards")
		if rapid.Bool().Draw(t, "env spelling") {
			names[slices.Index(names, "batch-size")] = "BATCH_SIZE"
		}
		params := map[string]string{}
		for _, n := range names {
			if v := rapid.SampledFrom([]string{"", "", "", "0", "1", "3", "64"}).Draw(t, n); v != "" {
				params[n] = v
			}
		}
		common, notes, err := MatchSides("msgpass", params, sides...)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of more than one line: %q", err)
			}
			return
		}
		rendered := map[string]string{}
		for _, s := range sides {
			args, err := s.Args(WorkerRequest{Workload: "msgpass", Cell: "ocaml", Params: common})
			if err != nil {
				t.Fatalf("%s cannot render the match %v: %v", s.Name, common, err)
			}
			for _, a := range args {
				if name, v, ok := strings.Cut(a, "="); ok {
					if prev, seen := rendered[name]; seen && prev != v {
						t.Fatalf("%s=%s on one side, %s on another", name, v, prev)
					}
					rendered[name] = v
				}
			}
		}
		asked, _ := canonicalParams(params)
		if !maps.Equal(common, asked) && len(notes) == 0 {
			t.Fatalf("asked %v, matched %v without a note", asked, common)
		}
		for _, s := range sides {
			if _, before := s.fixed("msgpass", ParamPasses); before && common[ParamPasses] != "1" {
				t.Fatalf("%s predates passes, but the match runs passes=%s", s.Name, common[ParamPasses])
			}
		}
	})
}

// The handshake's parsers read what any program prints without panicking,
// and accept only what a worker prints.
func FuzzHandshakeParsers(f *testing.F) {
	f.Add(oldHelp)
	f.Add(`{"protocol":1,"workloads":{"msgpass":{"params":["niters"]}}}`)
	f.Add("garbage\n{")
	f.Fuzz(func(t *testing.T, s string) {
		if info, ok := parseDescription(s); ok && (info.Protocol < 1 || len(info.Workloads) == 0) {
			t.Fatalf("accepted a description without protocol or workloads: %+v", info)
		}
		if flags, ok := parseWorkerHelp(s); ok {
			for _, want := range workerHelpFlags {
				if !slices.Contains(flags, want) {
					t.Fatalf("accepted help without --%s", want)
				}
			}
		}
	})
}
