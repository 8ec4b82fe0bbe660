package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
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

func TestDescribeOldWorker(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	exe := writeScript(t, "rootbench-slow", fmt.Sprintf(`#!/bin/sh
if [ -n "$%s" ]; then echo "rootbench: %s is set" >&2; exit 2; fi
exec %s "$@"
`, slowEnv, slowEnv, fakeOldWorker(t, true, true)))
	if _, err := DescribeWorker(context.Background(), exe, []string{slowEnv + "=boxroot=20%"}); err != nil {
		t.Fatal(err)
	}
}

func TestDescribeNewWorker(t *testing.T) {
	t.Parallel()
	want := newInfo("")
	want.CPUTime = true
	d := WorkerDescription{Protocol: 1, Flags: want.Flags, WarmupPass: true, CPUTime: true, Workloads: map[string]WorkloadDescription{}}
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
	t.Parallel()
	dir := t.TempDir()
	plain := writeFile(t, dir, "plain.txt", "#!/bin/sh\necho hi\n", 0o644)
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
	t.Parallel()
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
