package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCompareAndReportFromARun(t *testing.T) {
	fullSuiteOnly(t, "runs workers")
	t.Parallel()
	dir := t.TempDir()
	base, head := filepath.Join(dir, "base.json"), filepath.Join(dir, "head.json")
	for _, out := range []string{base, head} {
		rootbench(t, nil, "run", "--cell", "ocaml,boxroot", "--niters", "10", "--runs", "6", "--export-json", out).Must(t, 0)
	}
	r := rootbench(t, nil, "compare", "--format", "json", base, head)
	r.Must(t, 0)
	var anyJSON any
	if err := json.Unmarshal([]byte(r.Stdout), &anyJSON); err != nil {
		t.Errorf("compare --format json is not JSON: %v\n%s", err, r.Stdout)
	}
	rootbench(t, nil, "compare", "--cells", "ocaml,boxroot", base).Must(t, 0)
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"schema": "other/v9"}`), 0o644)
	r = rootbench(t, nil, "compare", base, bad)
	r.Must(t, exitUsage)
	if !strings.Contains(r.Stderr, "bad.json") || !strings.Contains(r.Stderr, "schema") {
		t.Errorf("wrong-schema error does not name the file and the problem: %s", r.Stderr)
	}
	rep := filepath.Join(dir, "rep")
	rootbench(t, nil, "report", base, head, "-o", rep).Must(t, 0)
	md, err := os.ReadFile(filepath.Join(rep, "REPORT.md"))
	if err != nil || !strings.Contains(string(md), ".png") {
		t.Errorf("REPORT.md missing or without charts: %v", err)
	}
}

func TestReportRejectsBadFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"schema": "rootbench/v1", "results": [`), 0o644)
	r := inProcess(t, "report", bad, "-o", filepath.Join(dir, "out"))
	r.Must(t, exitUsage)
	if !strings.Contains(r.Stderr, "bad.json") || !strings.Contains(r.Stderr, "JSON") {
		t.Errorf("report's error does not name the file and the problem:\n%s", r.Stderr)
	}
	inProcess(t, "report", filepath.Join(dir, "missing.json"), "-o", dir).Must(t, exitUsage)
	inProcess(t, "report", bad).Must(t, exitUsage) // no -o
}
