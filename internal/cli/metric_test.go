package cli

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/harness"
)

// Every command that judges takes --metric alike: an unknown or empty one
// is refused in one line saying what is accepted, before anything builds
// or runs.
func TestMetricRefusedAlikeByEveryCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	base := filepath.Join(dir, "base.json")
	writeSamples(t, base, map[string][]float64{"ocaml": {1, 1.01, 0.99, 1.02}})
	for name, args := range map[string][]string{
		"compare": {"compare", base, base, "--metric"},
		"ab":      {"ab", "--base", os.Args[0], "--metric"},
		"bisect":  {"bisect", "--good", "nosuch-good", "--bad", "nosuch-bad", "--metric"},
	} {
		for _, in := range []string{"nosuch", "", "wall,wall"} {
			t.Run(name+" "+in, func(t *testing.T) {
				t.Parallel()
				refusedInOneLine(t, inProcess(t, append(args, in)...), "--metric", "accepted: wall")
			})
		}
	}
	refusedInOneLine(t, inProcess(t, "compare", "--unit", "B/op", base, base), "go test -bench text only")
	refusedInOneLine(t, inProcess(t, "compare", "--unit", "", base, base), "--unit")
}

// writeCPUSamples writes a results file of ocaml and boxroot, each with
// runs of 1 s of wall time (a little noise) and cpu(label) seconds of CPU
// time over the measured passes.
func writeCPUSamples(t *testing.T, path string, cpu func(label string) float64) {
	t.Helper()
	f := &harness.File{Schema: harness.Schema, Workload: "msgpass", Unit: "cell", Params: map[string]string{}}
	for _, label := range []string{"ocaml", "boxroot"} {
		r := harness.Result{Cell: label, Label: label}
		for i := range 10 {
			noise := 1 + 0.01*math.Sin(float64(3*i+1))
			ns := int64(cpu(label) * noise * 1e9)
			r.Runs = append(r.Runs, harness.Run{Index: i, WallNs: int64(noise * 1e9), Cells: 1000,
				CPUUserNs: ns, UserNs: ns + 1e8, Env: &harness.RunEnv{Load1: 2 + float64(i)/10}})
		}
		f.Results = append(f.Results, r)
	}
	writeFile(t, path, f)
}

// A regression of CPU time alone fails compare's gate (exit 1) by
// default, names the metric on every row and in the verdict line with the
// load; with --metric wall the same files pass.
func TestCompareFailsWhenEitherMetricRegresses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	base, head := filepath.Join(dir, "base.json"), filepath.Join(dir, "head.json")
	writeCPUSamples(t, base, func(string) float64 { return 1 })
	writeCPUSamples(t, head, func(label string) float64 {
		if label == "boxroot" {
			return 1.2
		}
		return 1
	})
	r := inProcess(t, "compare", "--fail-on-regression", "5%", base, head)
	r.Must(t, 1)
	for _, row := range []string{`(?m)^ boxroot +wall .* pass `, `(?m)^ boxroot +CPU .* REGRESSION `, `(?m)^ benchmark +metric `} {
		if !regexp.MustCompile(row).MatchString(r.Stdout) {
			t.Errorf("output lacks a line like %q:\n%s", row, r.Stdout)
		}
	}
	for _, want := range []string{"boxroot: wall time +0.0% [", "] pass; CPU time +20.0% [", "] REGRESSION (load 2.0–2.9)",
		"REGRESSION (boxroot CPU time +20.0%"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.Stdout)
		}
	}
	inProcess(t, "compare", "--fail-on-regression", "5%", "--metric", "wall", base, head).Must(t, 0)
	inProcess(t, "compare", "--fail-on-regression", "5%", "--metric", "cpu", base, head).Must(t, 1)
	// The JSON names each row's metric.
	r = inProcess(t, "compare", "--format", "json", "--fail-on-regression", "5%", base, head)
	r.Must(t, 1)
	var doc struct {
		Metrics []string
		Load    struct{ Lo, Hi float64 }
		Rows    []struct{ Label, Metric, Gate string }
	}
	if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if strings.Join(doc.Metrics, ",") != "wall,cpu" || len(doc.Rows) != 4 || doc.Rows[3].Metric != "cpu" || doc.Rows[3].Gate != "regression" || doc.Load.Hi != 2.9 {
		t.Errorf("json: %+v", doc)
	}
	// Go benchmark text has units, not these metrics.
	txt := filepath.Join(dir, "x.txt")
	if err := os.WriteFile(txt, []byte("BenchmarkX 1 5 ns/op\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	refusedInOneLine(t, inProcess(t, "compare", "--metric", "cpu", txt, txt), "--metric", "--unit")
}
