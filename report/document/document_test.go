package document

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/harness"
)

var linkRE = regexp.MustCompile(`\]\(([^)#][^)]*)\)`)

// checkLinks asserts that REPORT.md links every chart file in dir, that
// every link resolves to a file, and that every chart file is a valid PNG
// or SVG. It returns the report's text.
func checkLinks(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, ReportName))
	if err != nil {
		t.Fatal(err)
	}
	md := string(data)
	linked := map[string]bool{}
	for _, m := range linkRE.FindAllStringSubmatch(md, -1) {
		linked[m[1]] = true
		if _, err := os.Stat(filepath.Join(dir, m[1])); err != nil {
			t.Errorf("REPORT.md links %s, which does not exist: %v", m[1], err)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	charts := 0
	for _, e := range entries {
		name := e.Name()
		if name == ReportName {
			continue
		}
		charts++
		if !linked[name] {
			t.Errorf("REPORT.md does not link %s", name)
		}
		content, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if len(content) == 0 {
			t.Errorf("%s is empty", name)
		}
		switch filepath.Ext(name) {
		case ".png":
			if _, err := png.Decode(bytes.NewReader(content)); err != nil {
				t.Errorf("%s: not a PNG: %v", name, err)
			}
		case ".svg":
			var root struct{ XMLName xml.Name }
			if err := xml.Unmarshal(content, &root); err != nil || root.XMLName.Local != "svg" {
				t.Errorf("%s: not an SVG document (root %q, %v)", name, root.XMLName.Local, err)
			}
		default:
			t.Errorf("unexpected file %s in the report directory", name)
		}
	}
	if charts == 0 {
		t.Error("no chart written")
	}
	return md
}

func TestWriteOneFile(t *testing.T) {
	t.Parallel()                                       // PNG rendering is slow under -race
	dir := filepath.Join(t.TempDir(), "out", "report") // created by Write
	f := scanFile(1, "alpha", 1, 2)
	if err := Write(dir, []*harness.File{f}, []string{"results/alpha.json"}); err != nil {
		t.Fatal(err)
	}
	md := checkLinks(t, dir)
	for _, chart := range []string{"alpha-bars", "alpha-boxes", "alpha-progression", "alpha-scan-batch-size"} {
		for _, ext := range []string{".png", ".svg"} {
			if _, err := os.Stat(filepath.Join(dir, chart+ext)); err != nil {
				t.Errorf("chart %s%s not written", chart, ext)
			}
		}
		if !regexp.MustCompile(`!\[[^]]*\]\(` + chart + `\.png\) \(\[SVG\]\(` + chart + `\.svg\)\)`).MatchString(md) {
			t.Errorf("REPORT.md does not show %s.png as an image with its SVG linked", chart)
		}
	}
	for _, want := range []string{
		"## results/alpha.json",
		"| host | alpha |", "| CPU | Test CPU @ 3.0GHz |", "| Go | go1.26.0 |", "| started | 2025-03-01T12:00:00Z |",
		"`max-delay=128` `niters=1000` `scheduler=parallel`",
		"Command line: `rootbench run --parameter-list batch-size=16,256,4096`",
		"| Configuration | Mean ± σ [ms] | Median [ms] | Min … Max [ms] | ns/cell | Relative ± σ | Runs |",
		"| ocaml batch-size=16 (reference) |", "| 6 (2 failed) |",
		"### GC", "| | total time | gc cycles | gc time | gc cpu | total pause | max pause | stopping time | peak heap | peak RSS |",
		"**ocaml batch-size=16** (6 runs)", "**bxboxed batch-size=4096** (8 runs)",
		"### Failures", "- **ocaml batch-size=16**, run 0: worker exited with status 2",
		"  ````text\n  panic: ocaml: value mismatch\n  ```\n", // the tail's own ``` is fenced by a longer fence
	} {
		if !strings.Contains(md, want) {
			t.Errorf("REPORT.md lacks %q", want)
		}
	}
	// Every configuration has a summary row and a GC table.
	for _, r := range f.Results {
		if !strings.Contains(md, "| "+r.Label+" ") || !strings.Contains(md, "**"+r.Label+"**") {
			t.Errorf("REPORT.md lacks the summary row or GC table of %s", r.Label)
		}
	}
	for _, stat := range []string{"| minimum |", "| median |", "| maximum |", "| stdev |"} {
		if n := strings.Count(md, stat); n != len(f.Results) {
			t.Errorf("%d %q rows, want one per configuration (%d)", n, stat, len(f.Results))
		}
	}
}

func TestWriteSeveralFilesSideBySide(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := smallFile(1, "alpha", 1), scanFile(2, "beta", 1.3, 0)
	// Two files with the same base name get distinct chart names.
	names := []string{"m1/results.json", "m2/results.json"}
	if err := Write(dir, []*harness.File{a, b}, names); err != nil {
		t.Fatal(err)
	}
	md := checkLinks(t, dir)
	for _, want := range []string{
		"## Side by side", "| | m1/results.json | m2/results.json |", "| host | alpha | beta |",
		"(all-bars.png)", "## m1/results.json", "## m2/results.json",
		"(results-bars.png)", "(results-2-bars.png)", "(results-2-scan-batch-size.png)", "| ocaml batch-size=4096 (reference) |",
		"Failures\n\nNone.",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("REPORT.md lacks %q", want)
		}
	}
	if strings.Index(md, "## m1/results.json") > strings.Index(md, "## m2/results.json") {
		t.Error("files out of order")
	}
}

func TestWriteIsDeterministic(t *testing.T) {
	t.Parallel()
	f := smallFile(3, "alpha", 1)
	f.Results[0].Runs[0] = harness.Run{Index: 0, Failed: true, Error: "boom"}
	summarize(f)
	d1, d2 := t.TempDir(), t.TempDir()
	for _, d := range []string{d1, d2} {
		if err := Write(d, []*harness.File{f}, []string{"a.json"}); err != nil {
			t.Fatal(err)
		}
	}
	e1, _ := os.ReadDir(d1)
	e2, _ := os.ReadDir(d2)
	if len(e1) != len(e2) || len(e1) < 2 {
		t.Fatalf("%d files, then %d", len(e1), len(e2))
	}
	for _, e := range e1 {
		name := e.Name()
		b1, _ := os.ReadFile(filepath.Join(d1, name))
		b2, err := os.ReadFile(filepath.Join(d2, name))
		if err != nil || !bytes.Equal(b1, b2) {
			t.Errorf("%s differs between two reports of the same file", name)
		}
	}
}

func TestWriteAllRunsFailed(t *testing.T) {
	dir := t.TempDir()
	f := scanFile(1, "alpha", 1, 0)
	f.Results = f.Results[:2]
	for i := range f.Results {
		for j := range f.Results[i].Runs {
			f.Results[i].Runs[j] = harness.Run{Index: j, Failed: true, Error: "timeout after 30s"}
		}
		f.Results[i].Failed = len(f.Results[i].Runs)
		f.Results[i].Mean = 0
	}
	if err := Write(dir, []*harness.File{f}, nil); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, ReportName))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## file 1", "No chart: no run succeeded.", "timeout after 30s", "| — | — |"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("REPORT.md lacks %q", want)
		}
	}
}

func TestWriteErrors(t *testing.T) {
	dir := t.TempDir()
	f := scanFile(1, "alpha", 1, 0)
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for what, tc := range map[string]struct {
		err  error
		want string
	}{
		"no files":  {Write(dir, nil, nil), "no results file"},
		"names":     {Write(dir, []*harness.File{f}, []string{"a", "b"}), "2 names for 1 results files"},
		"nil file":  {Write(dir, []*harness.File{nil}, nil), "results file 1 is missing"},
		"dir taken": {Write(filepath.Join(blocker, "sub"), []*harness.File{f}, nil), "file/sub"},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", what, tc.err, tc.want)
		}
	}
}

func TestCountersSection(t *testing.T) {
	dir := t.TempDir()
	f := &harness.File{Schema: harness.Schema, Workload: "msgpass", Unit: "cell", Results: []harness.Result{{
		Cell: "boxroot", Label: "boxroot",
		Runs: []harness.Run{
			{WallNs: 1e6, Cells: 1000, Stats: map[string]int64{"peak_pools": 120, "remote_deletes": 1000}},
			{WallNs: 1e6, Cells: 1000, Stats: map[string]int64{"peak_pools": 128, "remote_deletes": 1000}},
			{WallNs: 1e6, Cells: 1000, Stats: map[string]int64{"peak_pools": 125, "remote_deletes": 1000}},
			{Failed: true, Stats: map[string]int64{"peak_pools": 999}},
		},
	}}}
	harness.Summarize(f)
	if err := Write(dir, []*harness.File{f}, []string{"r.json"}); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, ReportName))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Implementation counters", "| `peak_pools` | 120 | 125 | 128 |", "| `remote_deletes` | 1000 | 1000 | 1000 |"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("REPORT.md lacks %q", want)
		}
	}
	if strings.Contains(string(md), "999") {
		t.Error("a failed run's counters leaked into the table")
	}
}
