package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/harness"
)

func TestABBadInputIsAUsageError(t *testing.T) {
	t.Parallel()
	self := os.Args[0]
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage")
	if err := os.WriteFile(garbage, []byte("#!/bin/sh\necho 'hello, not a worker'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"ab"}, "--base PATH or --base-rev REV is required"},
		{[]string{"ab", "--base", self, "--base-rev", "HEAD"}, "--base and --base-rev together"},
		{[]string{"ab", "--head", self, "--head-rev", "HEAD", "--base", self}, "--head and --head-rev together"},
		{[]string{"ab", "--base-rev", "no-such-revision-xyz"}, "unknown revision"},
		{[]string{"ab", "--base-rev", "HEAD", "--repo", dir}, "not inside a git repository"},
		{[]string{"ab", "--base-rev", "HEAD", "--package", "./no/such/dir"}, "--package ./no/such/dir: not a directory below"},
		{[]string{"ab", "--base", self, "--variant", "cthread"}, "--workload callback"},
		{[]string{"ab", "--base", self, "--workload", "callback", "--cell", "ocaml"}, "not a flag of the callback workload"},
		{[]string{"ab", "--base", self, "--workload", "nosuch"}, "msgpass, callback"},
		{[]string{"ab", "--base", "/bin/true", "--cell", "ocaml"}, "/bin/true: not a rootbench build"},
		{[]string{"ab", "--base", garbage, "--cell", "ocaml"}, "not a rootbench build"},
		{[]string{"ab", "--base", filepath.Join(dir, "nosuch")}, "no such file"},
		{[]string{"ab", "--base", dir}, "a directory"},
		{[]string{"ab", "--base", self, "--looks", "3,6"}, "even"},
		{[]string{"ab", "--base", self, "--looks", "10,6"}, "increase"},
		{[]string{"ab", "--base", self, "--looks", "soon"}, "or auto"},
		{[]string{"ab", "--base", self, "--max-time", "0s"}, "--max-time"},
		{[]string{"ab", "--base", self, "--format", "xml"}, "text, markdown"},
		{[]string{"ab", "--base", self, "--head-env", "NOVALUE"}, "NAME=VALUE"},
		{[]string{"ab", "--base", self, "--fail-on-regression", "0%"}, "--fail-on-regression"},
		{[]string{"ab", "--base", self, "--alpha", "1.5"}, "--alpha"},
		{[]string{"ab", "--base", self, "--cell", "nosuch"}, "nosuch"},
		{[]string{"ab", "--base", self, "--export-json", "/nonexistent-dir/ab.json"}, "/nonexistent-dir"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			refusedInOneLine(t, inProcess(t, tc.args...), tc.want)
		})
	}
}

// readAB loads an ab export.
func readAB(t *testing.T, path string) *harness.ABFile {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f harness.ABFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	if f.Schema != harness.ABSchema || f.Base == nil || f.Head == nil {
		t.Fatalf("%s: schema %q, sides %v %v", path, f.Schema, f.Base != nil, f.Head != nil)
	}
	return &f
}

// The same binary on both sides: the session runs in ABBA order, exports
// both sides, and never reports a regression on its own runs... except by
// a chance the gate bounds by alpha: the test uses alpha 0.001.
func TestABSameBuildTwice(t *testing.T) {
	fullSuiteOnly(t, "runs an A/B session")
	t.Parallel()
	out := filepath.Join(t.TempDir(), "ab.json")
	r := rootbench(t, nil, "ab", "--base", os.Args[0], "--cell", "ocaml", "--niters", "20",
		"--looks", "4,8", "--max-time", "2m", "--alpha", "0.001", "--export-json", out)
	if r.Code != 0 && r.Code != 3 {
		t.Fatalf("A/A exit status %d, want 0 (pass) or 3 (inconclusive)\nstdout:\n%s\nstderr:\n%s", r.Code, r.Stdout, r.Stderr)
	}
	f := readAB(t, out)
	if st, err := os.Stat(out); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("export mode %v (%v), want 0644 as run's exports", st.Mode().Perm(), err)
	}
	if f.Base.Partial || f.Head.Partial || len(f.Looks) == 0 || f.Looks[len(f.Looks)-1].Runs < 4 {
		t.Fatalf("export: partial %v/%v, looks %+v", f.Base.Partial, f.Head.Partial, f.Looks)
	}
	for _, row := range f.Gate.Rows {
		if row.Claim == "" {
			t.Errorf("gate row %s records no claim of what it ruled out", row.Label)
		}
	}
	if (r.Code == 0) != (f.Stopped == harness.StopDecided) {
		t.Errorf("exit %d but stopped %q", r.Code, f.Stopped)
	}
	// ABBA: by session index, the sides alternate base, head, head, base.
	type ix struct {
		index int
		side  byte
	}
	var runs []ix
	for side, file := range []*harness.File{f.Base, f.Head} {
		for _, run := range file.Results[0].Runs {
			runs = append(runs, ix{run.Index, "AB"[side]})
		}
	}
	slices.SortFunc(runs, func(a, b ix) int { return a.index - b.index })
	var order strings.Builder
	for _, x := range runs {
		order.WriteByte(x.side)
	}
	if want := strings.Repeat("ABBA", len(runs)/4+1)[:len(runs)]; order.String() != want {
		t.Errorf("run order %s, want %s", order.String(), want)
	}
	for _, want := range []string{"look 1/2 at 4 runs per side (the slowest benchmark's)", "ab: base "} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.Stderr)
		}
	}
	if !strings.Contains(r.Stdout, "ABBA session") || !strings.Contains(r.Stdout, "ocaml") {
		t.Errorf("stdout lacks the comparison:\n%s", r.Stdout)
	}
}

// A head whose workers fail is a regression (exit 1), its failure one line
// naming the log; the markdown comment is still written.
func TestABFailingHeadIsARegression(t *testing.T) {
	t.Parallel()
	head := filepath.Join(t.TempDir(), "broken-head")
	// It answers the handshake as the real build does, then every run fails.
	script := fmt.Sprintf("#!/bin/sh\ncase \"$*\" in *--describe*|*--help*|*rootbench-probe*|version*) exec %q \"$@\" ;; esac\necho 'head is broken' >&2\nexit 3\n", os.Args[0])
	if err := os.WriteFile(head, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	r := rootbench(t, nil, "ab", "--base", os.Args[0], "--head", head, "--cell", "ocaml", "--niters", "20",
		"--looks", "2,4", "--max-time", "1m", "--format", "markdown")
	r.Must(t, exitFailed)
	for _, want := range []string{"head: ocaml run 1 failed: exit status 3", "head-ocaml-run1.log", "run(s) of head failed"} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.Stderr)
		}
	}
	if !strings.HasPrefix(r.Stdout, "### rootbench ab:") {
		t.Errorf("no markdown comment on stdout:\n%s", r.Stdout)
	}
}

// By default the looks are planned from the pace of the first rounds: at
// most three (fewer when the pace leaves room for fewer, as under -race on
// a loaded machine), each tested at alpha / the number planned.
func TestABAutomaticLooks(t *testing.T) {
	fullSuiteOnly(t, "runs an A/B session for seconds")
	t.Parallel()
	out := filepath.Join(t.TempDir(), "ab.json")
	r := rootbench(t, nil, "ab", "--base", os.Args[0], "--cell", "ocaml", "--niters", "20",
		"--max-time", "5s", "--alpha", "0.003", "--export-json", out)
	if r.Code != 0 && r.Code != 3 {
		t.Fatalf("exit status %d, want 0 or 3\nstderr:\n%s", r.Code, r.Stderr)
	}
	f := readAB(t, out)
	if n := len(f.PlannedLooks); n < 1 || n > 3 || len(f.Looks) == 0 || len(f.Looks) > 3 {
		t.Fatalf("planned %v, looks %+v: want 1 to 3 of each", f.PlannedLooks, f.Looks)
	}
	planned := len(f.PlannedLooks)
	for _, l := range f.Looks {
		if l.Of != planned {
			t.Errorf("look %+v: Of %d, want the %d planned", l, l.Of, planned)
		}
	}
	if f.Gate == nil || math.Abs(f.Gate.AlphaPerLook-0.003/float64(planned)) > 1e-12 {
		t.Errorf("gate %+v: want alpha 0.003 / %d per look", f.Gate, planned)
	}
}

// A session that is refused, or that measured nothing, never touches an
// existing export: its bytes and its mode stay.
func TestABExportUntouchedWithoutMeasurements(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	old := filepath.Join(dir, "old.json")
	if err := os.WriteFile(old, []byte("old results\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	garbage := filepath.Join(dir, "garbage")
	if err := os.WriteFile(garbage, []byte("#!/bin/sh\necho 'hello, not a worker'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, base := range []string{"/bin/true", garbage, dir} {
		r := inProcess(t, "ab", "--base", base, "--cell", "ocaml", "--niters", "20",
			"--looks", "2", "--max-time", "1m", "--export-json", old)
		if r.Code == 0 {
			t.Errorf("--base %s: exit 0, want a failure", base)
		}
		data, err := os.ReadFile(old)
		st, serr := os.Stat(old)
		if err != nil || serr != nil || string(data) != "old results\n" || st.Mode().Perm() != 0o644 {
			t.Fatalf("--base %s: export touched: %q mode %v (%v %v)\nstderr:\n%s", base, data, st.Mode().Perm(), err, serr, r.Stderr)
		}
	}
}

// A base worker that fails mid-session: the failure is one line naming its
// log, the rows it affects are undecided (exit 3) and the export is final,
// not left partial.
func TestABBaseFailingMidSession(t *testing.T) {
	fullSuiteOnly(t, "runs an A/B session")
	t.Parallel()
	dir := t.TempDir()
	base := filepath.Join(dir, "base")
	script := fmt.Sprintf(`#!/bin/sh
case "$*" in
*"--cell boxroot"*)
	n=$(cat %[1]q 2>/dev/null || echo 0); n=$((n+1)); echo $n > %[1]q
	if [ $n -gt 3 ]; then echo "base worker crashed on purpose" >&2; exit 1; fi ;;
esac
exec %[2]q "$@"
`, filepath.Join(dir, "count"), os.Args[0])
	if err := os.WriteFile(base, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "ab.json")
	// The ocaml row is the same worker on both sides, in runs of about a
	// millisecond, the base's behind the wrapper above; its verdict is not
	// what this test is about, and at 8 pairs of runs that short a busy
	// machine can read it as a significant slowdown past a 5% gate. The
	// wide gate keeps that row from deciding the exit status, which is the
	// base's failure's.
	r := rootbench(t, nil, "ab", "--base", base, "--cell", "ocaml,boxroot", "--niters", "20",
		"--looks", "4,8", "--max-time", "2m", "--fail-on-regression", "1000%", "--export-json", out)
	r.Must(t, 3)
	for _, want := range []string{"base: boxroot run 4 failed", "base-boxroot-run4.log", "undecided: "} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.Stderr)
		}
	}
	f := readAB(t, out)
	if f.Base.Partial || f.Head.Partial || f.Stopped == harness.StopRunning || f.Gate == nil {
		t.Fatalf("export left partial: %v/%v stopped %q gate %v", f.Base.Partial, f.Head.Partial, f.Stopped, f.Gate)
	}
	for _, row := range f.Gate.Rows {
		if row.Label == "boxroot" && row.Outcome != "inconclusive" {
			t.Errorf("boxroot row %q, want inconclusive: its base runs failed", row.Outcome)
		}
	}
}
