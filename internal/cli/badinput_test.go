package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/harness"
)

// Every command's --fail-on-regression takes what the number parser takes
// (no hexadecimal, no exponent) and a percentage with its '%': a bare
// number is refused, since 500 could be 500% or the fraction 500. The
// refusal comes before any run.
func TestThresholdRefusedAlikeByEveryCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	base := filepath.Join(dir, "base.json")
	writeSamples(t, base, map[string][]float64{"ocaml": {1, 1.01, 0.99, 1.02}})
	commands := map[string][]string{
		"compare":        {"compare", base, base, "--fail-on-regression"},
		"run --baseline": {"run", "--cell", "ocaml", "--runs", "1", "--baseline", base, "--fail-on-regression"},
		"ab":             {"ab", "--base", os.Args[0], "--fail-on-regression"},
	}
	for name, args := range commands {
		for in, want := range map[string]string{"0x1p3": "accepted", "0x1p3%": "accepted", "500": "500%", "5": "5%", "1e1%": "accepted", "-5%": "accepted"} {
			t.Run(name+" "+in, func(t *testing.T) {
				t.Parallel()
				refusedInOneLine(t, inProcess(t, append(args, in)...), "--fail-on-regression", want)
			})
		}
	}
	// The bare number's refusal says it is ambiguous and what to write.
	refusedInOneLine(t, inProcess(t, "compare", base, base, "--fail-on-regression", "0x1p3"), "invalid percentage")
	refusedInOneLine(t, inProcess(t, "compare", base, base, "--fail-on-regression", "0.05"), "0.05%", "5%")
	// compare's --alpha takes decimal numbers only, too.
	refusedInOneLine(t, inProcess(t, "compare", base, base, "--alpha", "0x1p-5"), "--alpha", "0x1p-5")
	if r := inProcess(t, "compare", base, base, "--alpha", "0.01", "--fail-on-regression", "1_000%"); r.Code == exitUsage {
		t.Errorf("--alpha 0.01 --fail-on-regression 1_000%% refused:\n%s", r.Stderr)
	}
}

// report on a file without results is bad input, as compare's refusal of
// such files is: exit 2, one line naming the file, nothing written.
func TestReportRefusesAFileWithoutResults(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	empty, good, out := filepath.Join(dir, "empty.json"), filepath.Join(dir, "good.json"), filepath.Join(dir, "out")
	writeSamples(t, empty, nil)
	writeSamples(t, good, map[string][]float64{"ocaml": {1, 1.01, 0.99}})
	if f, err := harness.Load(empty); err != nil || len(f.Results) != 0 {
		t.Fatalf("the empty file does not load as one without results: %v", err)
	}
	refusedInOneLine(t, inProcess(t, "report", good, empty, "-o", out), "empty.json", "no results")
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("report wrote %s for a file without results (%v)", out, err)
	}
	refusedInOneLine(t, inProcess(t, "compare", empty, empty), "no benchmark in common")
}

// A cell named twice, by its name or an alias, in --cell or CELL, is
// refused before any run: it would run once.
func TestCellNamedTwiceRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env  []string
		args []string
	}{
		{nil, []string{"run", "--cell", "boxroot,boxroot"}},
		{nil, []string{"run", "--cell", "ocaml,ref,direct"}},
		{[]string{"CELL=ref,ocaml-ref"}, []string{"run"}},
		{nil, []string{"ab", "--base", os.Args[0], "--cell", "boxroot,boxroot"}},
	} {
		t.Run(strings.Join(append(tc.env, tc.args...), " "), func(t *testing.T) {
			t.Parallel()
			refusedInOneLine(t, refuse(t, tc.env, tc.args...), "twice", "list each cell once")
		})
	}
	// "all" with a named cell runs each once, as --help says.
	if r := inProcess(t, "run", "--help"); !strings.Contains(r.Stdout, "named twice is refused") {
		t.Errorf("run --help does not say a cell named twice is refused:\n%s", r.Stdout)
	}
}

func TestBadInputIsAUsageError(t *testing.T) {
	t.Parallel()
	mustRefuse(t, []refusal{
		{args: []string{"run", "--cell", "nosuch"}, want: []string{"nosuch", "boxroot", "cgo-handle"}},
		{args: []string{"run", "--cell", "boxroot:nosuch"}, want: []string{"nosuch", "force-remote"}},
		{args: []string{"run", "--scheduler", "bogus"}, want: []string{"bogus", "parallel", "concurrent", "sequential"}},
		{args: []string{"run", "--batch-size", "0"}, want: []string{"batch-size"}},
		{args: []string{"run", "--niters", "-1"}, want: []string{"niters"}},
		{args: []string{"run", "--niters", "1_0_"}, want: []string{"1_0_"}},
		{args: []string{"run", "--niters", "1e3"}, want: []string{"1e3"}},
		{args: []string{"run", "--niters", "0x"}, want: []string{"0x"}},
		{args: []string{"run", "--niters", "100_000_000_000", "--batch-size", "16_000_000", "--producers", "64"}, want: []string{"overflow"}},
		{args: []string{"run", "--order", "random"}, want: []string{"interleaved", "grouped"}},
		{args: []string{"run", "--style", "loud"}, want: []string{"full", "basic"}},
		{args: []string{"run", "--parameter-list", "nosuch=1,2"}, want: []string{"nosuch", "batch-size"}},
		{args: []string{"run", "--nosuch-flag"}, want: []string{"unknown flag"}},
		{args: []string{"run", "--cel", "boxroot"}, want: []string{"unknown flag: --cel", "did you mean --cell?", "rootbench run --help"}},
		{args: []string{"ab", "--base-rve", "main"}, want: []string{"unknown flag: --base-rve", "did you mean --base-rev?"}},
		{args: []string{"callback", "--variant", "telepathy"}, want: callbackRefusal("telepathy", "pipe")},
		{args: []string{"callback", "--handle", "none,magic"}, want: callbackRefusal(`"magic"`, "unknown handle", "boxroot-handle")},
		{args: []string{"callback", "--handle", "ref"}, want: callbackRefusal(`"ref"`, "no drop-in handle API", "boxroot-handle")},
		{args: []string{"compare", "only-one.json"}, want: []string{"two results files"}},
		{args: []string{"compare", "missing-a.json", "missing-b.json"}, want: []string{"missing-a.json"}},
		{args: []string{"nosuchcommand"}, want: []string{"unknown command"}},
	})
}

// TestRefusedBeforeAnyRun: exports that cannot be written, empty or
// contradictory lists, counts and limits, and plans beyond the memory
// available are refused before any worker starts, not after a run.
func TestRefusedBeforeAnyRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	same := filepath.Join(dir, "same.out")
	mustRefuse(t, []refusal{
		{args: []string{"run", "--export-json", "/nonexistent-dir/x.json"}, want: []string{"/nonexistent-dir", "does not exist", "accepted"}},
		{args: []string{"run", "--export-json", "/proc/self/x.json"}, want: []string{"/proc/self", "accepted"}},
		{args: []string{"run", "--export-json", dir}, want: []string{"is a directory"}},
		{args: []string{"run", "--export-json", ""}, want: []string{"--export-json", "empty path"}},
		{args: []string{"run", "--export-json", same, "--export-csv", same}, want: []string{"--export-json", "--export-csv", "same.out"}},
		{args: []string{"run", "--export-json", same, "--export-csv", filepath.Join(dir, ".", "sub", "..", "same.out")}, want: []string{"--export-csv", "own file"}},
		{args: []string{"run", "--export-json", "-", "--export-markdown", "-"}, want: []string{"standard output"}},
		{args: []string{"run", "--cell", ""}, want: []string{"--cell", "empty", "all"}},
		{args: []string{"run", "--runs", "2147483648", "--max-runs", "1"}, want: []string{"1 to 2147483647"}},
		{args: []string{"run", "--runs", "0"}, want: []string{"1 to 2147483647"}},
		{args: []string{"run", "--runs", "5", "--max-runs", "2"}, want: []string{"--runs 5", "--max-runs 2"}},
		{args: []string{"run", "-r", "3", "-m", "5"}, want: []string{"--runs 3", "--min-runs 5"}},
		{args: []string{"run", "--min-runs", "5", "--max-runs", "2"}, want: []string{"--max-runs 2", "--min-runs 5"}},
		{args: []string{"run", "--timeout", "1ns"}, want: []string{"--timeout", "minimum 100ms"}},
		{args: []string{"run", "--timeout", "0"}, want: []string{"--timeout", "minimum 100ms"}},
		{args: []string{"run", "--pin", "1-0"}, want: []string{"--pin", "backwards"}},
		{args: []string{"run", "--batch-size", "16_777_216", "--producers", "64", "--max-delay", "0", "--niters", "1000"}, want: []string{"estimated", "TiB", "--max-memory"}},
		{args: []string{"run", "--max-memory", "1MiB", "--cell", "ocaml"}, want: []string{"estimated", "1.00 MiB of --max-memory"}},
		{args: []string{"run", "-L", "batch-size", "16,16_777_216", "--max-delay", "0", "--niters", "1_000_000", "--max-memory", "8GiB"}, want: []string{"configuration batch-size=16_777_216"}},
		{args: []string{"run", "--max-memory", "lots"}, want: []string{"lots", "accepted"}},
		{args: []string{"run", "-D", "2"}, want: []string{"--parameter-step-size", "--parameter-scan"}},
		{args: []string{"run", "-P", "batch-size", "10", "1"}, want: []string{"MIN is above MAX"}},
		{args: []string{"run", "-P", "niters", "1", "1_000_000"}, want: []string{"more than 1000"}},
		{args: []string{"run", "--cell", "ocaml,boxroot,ref", "-n", "a", "-n", "b"}, want: []string{"given 2 times for 3 benchmarks"}},
		{args: []string{"run", "--cell", "ocaml,boxroot", "-n", "same"}, want: []string{"both named"}},
		{args: []string{"report"}, want: []string{"usage: rootbench report"}},
		{args: []string{"compare"}, want: []string{"usage: rootbench compare"}},
	})
}

// Bad defaults from the environment are refused as the flags are, before
// any run (not parallel: -short sets the variables in this process).
func TestEnvironmentRefusedBeforeAnyRun(t *testing.T) {
	mustRefuseEnv(t, []refusal{
		{env: []string{"CELL="}, args: []string{"run"}, want: []string{"CELL=", "empty"}},
		{env: []string{"CELL=nosuch"}, args: []string{"run", "--cell", "ocaml"}, want: []string{"CELL=nosuch", "unknown cell"}},
		{env: []string{"NITERS=abc"}, args: []string{"run", "--niters", "10"}, want: []string{"NITERS=abc", "accepted"}},
		{env: []string{"NITERS="}, args: []string{"run"}, want: []string{"NITERS="}},
	})
}
