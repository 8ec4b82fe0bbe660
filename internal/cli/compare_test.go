package cli

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/harness"
)

// writeSamples writes a results file with one result per label holding the
// given wall times (seconds), 1000 cells a run.
func writeSamples(t *testing.T, path string, samples map[string][]float64) {
	t.Helper()
	f := &harness.File{Schema: harness.Schema, Workload: "msgpass", Unit: "cell", Params: map[string]string{}}
	for _, label := range []string{"ocaml", "boxroot"} {
		xs, ok := samples[label]
		if !ok {
			continue
		}
		r := harness.Result{Cell: label, Label: label}
		for i, x := range xs {
			r.Runs = append(r.Runs, harness.Run{Index: i, WallNs: int64(x * 1e9), Cells: 1000})
		}
		f.Results = append(f.Results, r)
	}
	writeFile(t, path, f)
}

// writeFile summarises f and writes it as a results file at path.
func writeFile(t *testing.T, path string, f *harness.File) {
	t.Helper()
	harness.Summarize(f)
	data, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// The committed message-passing results: boxroot costs more than the
// control by far more than 5%, so the gate must not pass.
func TestCompareGateOnCommittedResults(t *testing.T) {
	t.Parallel()
	r := inProcess(t, "compare", "--cells", "ocaml,boxroot", "--fail-on-regression", "5%", "../../results/msgpass.json")
	if r.Code != 1 && r.Code != 3 {
		t.Fatalf("exit %d, want 1 (regression) or 3 (inconclusive)\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
}

func TestCompareGateOutcomes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	base, slow, same, few, fewSlow := filepath.Join(dir, "base.json"), filepath.Join(dir, "slow.json"),
		filepath.Join(dir, "same.json"), filepath.Join(dir, "few.json"), filepath.Join(dir, "few-slow.json")
	xs := []float64{1.00, 1.01, 0.99, 1.02, 0.98, 1.005, 0.995, 1.01}
	scale := func(k float64) []float64 {
		out := make([]float64, len(xs))
		for i, x := range xs {
			out[i] = x * k
		}
		return out
	}
	writeSamples(t, base, map[string][]float64{"ocaml": xs})
	writeSamples(t, slow, map[string][]float64{"ocaml": scale(1.5)})
	writeSamples(t, same, map[string][]float64{"ocaml": scale(1.001)})
	writeSamples(t, few, map[string][]float64{"ocaml": xs[:3]})
	writeSamples(t, fewSlow, map[string][]float64{"ocaml": scale(1.5)[:3]})

	inProcess(t, "compare", "--fail-on-regression", "5%", base, slow).Must(t, 1)
	inProcess(t, "compare", "--fail-on-regression", "5%", base, same).Must(t, 0)
	r := inProcess(t, "compare", "--fail-on-regression", "5%", few, fewSlow)
	r.Must(t, 3)
	if !strings.Contains(r.Stdout, "INCONCLUSIVE") || !strings.Contains(r.Stdout, "more run") || !strings.Contains(r.Stderr, "inconclusive") {
		t.Errorf("an undecided gate does not say so, or how many runs would decide:\n%s\n%s", r.Stdout, r.Stderr)
	}
	// benchstat mode keeps benchstat's numbers; the gate is the same rule.
	inProcess(t, "compare", "--method", "benchstat", "--fail-on-regression", "5%", base, slow).Must(t, 1)
	inProcess(t, "compare", "--method", "t-test", base, slow).Must(t, exitUsage)
	inProcess(t, "compare", "--alpha", "2", base, slow).Must(t, exitUsage)

	var doc struct {
		Schema string
		Gate   string
	}
	r = inProcess(t, "compare", "--format", "json", "--fail-on-regression", "5%", base, slow)
	r.Must(t, 1)
	if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil || doc.Schema != "rootbench-compare/v4" || doc.Gate != "regression" {
		t.Errorf("json: %v, schema %q gate %q", err, doc.Schema, doc.Gate)
	}
}

func TestCompareRejectsBadSamples(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "good.json"), filepath.Join(dir, "bad.json")
	writeSamples(t, good, map[string][]float64{"ocaml": {1, 1.1, 0.9}})
	writeSamples(t, bad, map[string][]float64{"ocaml": {1, -1.1, 0.9}})
	r := inProcess(t, "compare", good, bad)
	r.Must(t, exitUsage)
	for _, want := range []string{"bad.json", `result "ocaml"`, "run 2", "wall_ns", "must be a positive"} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("error lacks %q: %s", want, r.Stderr)
		}
	}
	if n := strings.Count(strings.TrimSpace(r.Stderr), "\n"); n != 0 {
		t.Errorf("want one line, got:\n%s", r.Stderr)
	}
	inProcess(t, "report", bad, "-o", dir).Must(t, exitUsage)
}

func TestCompareUsage(t *testing.T) {
	t.Parallel()
	r := inProcess(t, "compare")
	r.Must(t, exitUsage)
	if !strings.Contains(strings.ToLower(r.Stderr), "usage: rootbench compare base new") {
		t.Errorf("compare without arguments does not print its usage line: %s", r.Stderr)
	}
	r = inProcess(t, "compare", "--help")
	r.Must(t, 0)
	for _, want := range []string{"0 pass", "1 regression", "3 inconclusive", "2 bad input", "--method", "Holm"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("compare --help lacks %q", want)
		}
	}
}

// TestCompareGoBenchText: two files of go test -bench output are compared
// per op, on every unit they carry (--unit chooses), and the gate decides
// on them as on results files.
func TestCompareGoBenchText(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name string, ns ...int) string {
		var b strings.Builder
		b.WriteString("goos: linux\ngoarch: amd64\npkg: example.com/p\n")
		for _, v := range ns {
			fmt.Fprintf(&b, "BenchmarkEncode-2   \t%d\t%d ns/op\t16 B/op\t1 allocs/op\n", 1_000_000+v, v)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	old := write("old.txt", 1000, 1002, 998, 1001, 999, 1000, 1003, 997)
	slow := write("new.txt", 1200, 1203, 1198, 1201, 1199, 1200, 1202, 1197)
	r := inProcess(t, "compare", "--fail-on-regression", "5%", old, slow)
	r.Must(t, 1)
	for _, want := range []string{"median per op of each row's unit", "Encode-2   sec/op", "Encode-2   B/op", "Encode-2   allocs/op", "REGRESSION", "+20.00%"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("compare of Go benchmark text lacks %q:\n%s", want, r.Stdout)
		}
	}
	r = inProcess(t, "compare", "--fail-on-regression", "5%", "--unit", "ns/op", old, slow)
	r.Must(t, 1)
	for _, want := range []string{"median time per op", "Encode-2", "REGRESSION", "+20.00%"} {
		if !strings.Contains(r.Stdout, want) || strings.Contains(r.Stdout, "B/op") {
			t.Errorf("compare --unit ns/op of Go benchmark text lacks %q, or has B/op:\n%s", want, r.Stdout)
		}
	}
	inProcess(t, "compare", "--method", "benchstat", "--fail-on-regression", "25%", old, slow).Must(t, 0)
}

// compare --layouts names each session by the layout its file records, else
// by its file's name; a session read from standard input is "standard
// input", as the loaders call it in their errors, not "-".
func TestCompareLayoutsNamesStandardInput(t *testing.T) {
	t.Parallel()
	a := "testdata/ab-session-1.json.gz"
	fh, err := os.Open("testdata/ab-session-2.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	b, err := gzip.NewReader(fh)
	if err != nil {
		t.Fatal(err)
	}
	r := rootbenchStdin(t, b, nil, "compare", "--layouts", "--format", "json", a, "-")
	r.Must(t, 0)
	var doc struct {
		Layouts []string `json:"layouts"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil {
		t.Fatalf("compare --layouts --format json: %v\n%s", err, r.Stdout)
	}
	if want := []string{filepath.Base(a), "standard input"}; !slices.Equal(doc.Layouts, want) {
		t.Errorf("layouts %q, want %q", doc.Layouts, want)
	}
}
