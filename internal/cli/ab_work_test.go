package cli

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/harness"
)

// --niters-for and --calls-for are refused in one line, before anything
// runs: an entry that names no benchmark, a bad number, the other
// workload's flag, a benchmark given twice.
func TestWorkFlagsBadInput(t *testing.T) {
	t.Parallel()
	self := os.Args[0]
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--cell", "ocaml", "--niters-for", "nosuch=3"}, []string{`--niters-for nosuch=3: no benchmark runs "nosuch" (accepted: ocaml)`}},
		{[]string{"--cell", "ocaml", "--niters-for", "ref=3"}, []string{`no benchmark runs "ref"`}},
		{[]string{"--cell", "ocaml", "--niters-for", "ocaml=abc"}, []string{"--niters-for ocaml=abc", "invalid number"}},
		{[]string{"--cell", "ocaml", "--niters-for", "ocaml=0"}, []string{"--niters-for ocaml=0", "at least 1"}},
		{[]string{"--cell", "ocaml", "--niters-for", "ocaml=-5"}, []string{"--niters-for ocaml=-5"}},
		{[]string{"--cell", "ocaml", "--niters-for", "ocaml"}, []string{"--niters-for \"ocaml\": accepted: NAME=N"}},
		{[]string{"--cell", "ocaml", "--niters-for", "ocaml=5", "--niters-for", "direct=6"}, []string{"ocaml is given its niters twice"}},
		{[]string{"--cell", "ocaml", "--calls-for", "ocaml=5"}, []string{"--calls-for is not a flag of the msgpass workload"}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			refusedInOneLine(t, inProcess(t, append([]string{"ab", "--base", self}, tc.args...)...), tc.want...)
		})
	}
}

// An equal-time session: one timing run per benchmark on head, then the
// slower benchmark at less work (never more than asked), the same on both
// sides; the header and the export say so; every run carries the CPU time
// of its measured passes and, on Linux, the load around it, whose range
// the verdict line states.
func TestABEqualTime(t *testing.T) {
	fullSuiteOnly(t, "runs an A/B session")
	t.Parallel()
	out := filepath.Join(t.TempDir(), "ab.json")
	r := rootbench(t, nil, "ab", "--base", os.Args[0], "--cell", "ocaml,ref,boxroot", "--niters", "64", "--niters-for", "boxroot=16",
		"--equal-time", "--looks", "2", "--max-time", "2m", "--no-gc-table", "--export-json", out)
	if r.Code != 0 && r.Code != 3 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.Code, r.Stdout, r.Stderr)
	}
	f := readAB(t, out)
	sizes := map[string]harness.ABSize{}
	for _, sz := range f.Sizes {
		sizes[sz.Label] = sz
	}
	if s := sizes["boxroot"]; !s.Given || s.Work != 16 || s.Asked != 64 {
		t.Errorf("boxroot's size %+v, want 16 given by hand instead of 64", s)
	}
	if s := sizes["ocaml"]; s.Given || s.Work != 64 || s.PilotNs <= 0 {
		t.Errorf("ocaml's size %+v, want the work asked, after a timing run", s)
	}
	if s := sizes["ref"]; s.Given || s.Work > 64 || s.Work < 1 || s.PilotNs <= 0 {
		t.Errorf("ref's size %+v, want at most the work asked, after a timing run", s)
	}
	for _, side := range []*harness.File{f.Base, f.Head} {
		for _, res := range side.Results {
			if got, want := res.Params["niters"], strconv.FormatInt(sizes[res.Label].Work, 10); got != want {
				t.Errorf("%s ran niters %s, want %s on both sides", res.Label, got, want)
			}
			for _, run := range res.Runs {
				if run.CPUNs() <= 0 || (runtime.GOOS == "linux") != (run.Env != nil) {
					t.Errorf("%s run %d: CPU time %d, env %+v", res.Label, run.Index, run.CPUNs(), run.Env)
				}
			}
		}
	}
	if !strings.Contains(r.Stderr, "given by hand: boxroot at niters 16") || !strings.Contains(r.Stderr, "ab: equal time: timing one unmeasured run") {
		t.Errorf("the header does not say what work each benchmark ran:\n%s", r.Stderr)
	}
	if runtime.GOOS == "linux" && !strings.Contains(r.Stdout, "; load ") {
		t.Errorf("the session line does not state the load:\n%s", r.Stdout)
	}
}
