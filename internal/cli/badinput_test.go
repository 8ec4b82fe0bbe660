package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/harness"
)

// refusedInOneLine fails t unless r exited 2 with one line on stderr holding every
// want.
func refusedInOneLine(t *testing.T, r result, want ...string) {
	t.Helper()
	r.must(t, exitUsage)
	msg := strings.TrimSpace(r.stderr)
	if strings.Contains(msg, "\n") {
		t.Errorf("stderr is not one line:\n%s", r.stderr)
	}
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
		}
	}
}

// Every command's --fail-on-regression takes what the number parser takes
// (no hexadecimal, no exponent) and a percentage with its '%': a bare
// number is refused, since 500 could be 500% or the fraction 500. The
// refusal comes before any run.
func TestThresholdRefusedAlikeByEveryCommand(t *testing.T) {
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
				refusedInOneLine(t, rootbench(t, nil, append(args, in)...), "--fail-on-regression", want)
			})
		}
	}
	// The bare number's refusal says it is ambiguous and what to write.
	refusedInOneLine(t, rootbench(t, nil, "compare", base, base, "--fail-on-regression", "0x1p3"), "invalid percentage")
	refusedInOneLine(t, rootbench(t, nil, "compare", base, base, "--fail-on-regression", "0.05"), "0.05%", "5%")
	// compare's --alpha takes decimal numbers only, too.
	refusedInOneLine(t, rootbench(t, nil, "compare", base, base, "--alpha", "0x1p-5"), "--alpha", "0x1p-5")
	if r := rootbench(t, nil, "compare", base, base, "--alpha", "0.01", "--fail-on-regression", "1_000%"); r.code == exitUsage {
		t.Errorf("--alpha 0.01 --fail-on-regression 1_000%% refused:\n%s", r.stderr)
	}
}

// report on a file without results is bad input, as compare's refusal of
// such files is: exit 2, one line naming the file, nothing written.
func TestReportRefusesAFileWithoutResults(t *testing.T) {
	dir := t.TempDir()
	empty, good, out := filepath.Join(dir, "empty.json"), filepath.Join(dir, "good.json"), filepath.Join(dir, "out")
	writeSamples(t, empty, nil)
	writeSamples(t, good, map[string][]float64{"ocaml": {1, 1.01, 0.99}})
	if f, err := harness.Load(empty); err != nil || len(f.Results) != 0 {
		t.Fatalf("the empty file does not load as one without results: %v", err)
	}
	refusedInOneLine(t, rootbench(t, nil, "report", good, empty, "-o", out), "empty.json", "no results")
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("report wrote %s for a file without results (%v)", out, err)
	}
	refusedInOneLine(t, rootbench(t, nil, "compare", empty, empty), "no benchmark in common")
}

// A cell named twice, by its name or an alias, in --cell or CELL, is
// refused before any run: it would run once.
func TestCellNamedTwiceRefused(t *testing.T) {
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
			refusedInOneLine(t, rootbench(t, tc.env, tc.args...), "twice", "list each cell once")
		})
	}
	// "all" with a named cell runs each once, as --help says.
	if r := rootbench(t, nil, "run", "--help"); !strings.Contains(r.stdout, "named twice is refused") {
		t.Errorf("run --help does not say a cell named twice is refused:\n%s", r.stdout)
	}
}
