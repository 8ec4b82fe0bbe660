package document

import (
	"bytes"
	"encoding/xml"
	"fmt"
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
	md := readReport(t, dir)
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

// spaced collapses the padding tablewriter puts in Markdown tables, so
// that rows can be matched as text.
var spaced = regexp.MustCompile(` {2,}`)

// readReport returns dir/REPORT.md.
func readReport(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, ReportName))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// checkContains asserts that md, its table padding collapsed (spaced),
// contains every string of wants.
func checkContains(t *testing.T, md string, wants ...string) {
	t.Helper()
	md = spaced.ReplaceAllString(md, " ")
	for _, want := range wants {
		if !strings.Contains(md, want) {
			t.Errorf("REPORT.md lacks %q", want)
		}
	}
}

func TestWriteOneFile(t *testing.T) {
	t.Parallel()                                       // PNG rendering is slow under -race
	dir := filepath.Join(t.TempDir(), "out", "report") // created by Write
	f := scanFile(1, "alpha", 1, 2)
	if err := Write(dir, []*harness.File{f}, []string{"results/alpha.json"}); err != nil {
		t.Fatal(err)
	}
	raw := checkLinks(t, dir)
	md := spaced.ReplaceAllString(raw, " ")
	// The tail's own ``` is fenced by a longer fence.
	if !strings.Contains(raw, "  ````text\n  panic: ocaml: value mismatch\n  ```\n") {
		t.Error("REPORT.md does not fence the failed run's stderr tail")
	}
	charts := []string{"alpha-bars", "alpha-boxes", "alpha-scan-batch-size"}
	for i := range 3 { // 15 configurations: three progression charts of five
		charts = append(charts, fmt.Sprintf("alpha-progression-%d", i+1))
	}
	for _, chart := range charts {
		if !regexp.MustCompile(`(?m)^!\[[^]]*\]\(` + chart + `\.png\) \(\[SVG\]\(` + chart + `\.svg\)\)$`).MatchString(md) {
			t.Errorf("REPORT.md does not show %s.png as an image with its SVG linked", chart)
		}
	}
	checkContains(t, md,
		"## results/alpha.json",
		"| [results/alpha.json](#resultsalphajson) | msgpass, ns/cell | 15 | 118 (2 failed) | v0.1.0 (abc1234) | 2025-03-01 12:00, 1m30s |",
		"Machine: alpha, Test CPU @ 3.0GHz, 2 logical CPUs, linux/amd64, 6.1.0, governor performance, 8.0 GiB, go1.26.0.",
		"`max-delay=128` `niters=1000` `scheduler=parallel`",
		"Command: `rootbench run --parameter-list batch-size=16,256,4096`",
		// The fastest mean is 185 µs: every time in µs, none below 1.
		"| Configuration | Mean ± σ [µs] | Median [µs] | Min [µs] | Max [µs] | ns/cell | Relative per cell ± σ | Runs |",
		"| ocaml batch-size=16 | 185.4 ± 3.6 |", "| 6 (2 failed) |",
		"| Configuration | gc cycles | gc time [ms] | gc cpu [%] | total pause [ms] | max pause [ms] | stopping time [µs] | peak heap [MB] | peak RSS [MB] |",
		"Failed runs:", "- **ocaml batch-size=16**, run 0: worker exited with status 2",
	)
	// A scan compares unequal work: relatives per cell, one reference per
	// parameter set, never on wall time.
	if strings.Contains(md, "| Relative ± σ |") {
		t.Error("a batch-size scan shows wall-time relatives across unequal work")
	}
	if n := strings.Count(md, "1.00 (reference)"); n != 3 {
		t.Errorf("%d references marked, want one per batch size (3)", n)
	}
	// Every configuration has a summary row and a GC row: two rows each.
	for _, r := range f.Results {
		if n := strings.Count(md, "| "+r.Label+" |"); n != 2 {
			t.Errorf("%d rows for %s, want 2 (summary and GC)", n, r.Label)
		}
	}
	if strings.Contains(md, "modified") {
		t.Error("a file from a clean tree is called modified")
	}
}

// gcHeader is the start of a GC table's header row.
var gcHeader = regexp.MustCompile(`(?m)^\| Configuration +\| gc cycles +\|`)

// The committed results' shape fits in 400 lines, with one GC table and
// one counters table per file, a loud word on every modified file, and one
// time unit per column.
func TestLineBudgetAndOneGCTablePerFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files, names := committedShape()
	if err := write(dir, files, names, false); err != nil {
		t.Fatal(err)
	}
	md := readReport(t, dir)
	if n := strings.Count(md, "\n"); n > 400 {
		t.Errorf("REPORT.md of the committed results' shape is %d lines, want at most 400", n)
	}
	if n := len(gcHeader.FindAllString(md, -1)); n != len(files) {
		t.Errorf("%d GC tables for %d files, want one per file", n, len(files))
	}
	tables := regexp.MustCompile(`(?m)^\| Configuration +\|`)
	if n := len(tables.FindAllString(md, -1)) - 2*len(files); n != 5 {
		t.Errorf("%d counters tables, want 5 (one per file with boxroot cells)", n)
	}
	// Loud, beside each modified file and once at the top naming them all.
	if n := strings.Count(md, "**⚠ Modified working tree**"); n != 6 {
		t.Errorf("%d per-file modified warnings, want 6", n)
	}
	if !strings.Contains(md, "**⚠ Modified working tree: 6 of 7 files**") {
		t.Error("no warning at the top naming the modified files")
	}
	section := md[strings.Index(md, "## msgpass-full.json"):strings.Index(md, "## msgpass.json")]
	if strings.Contains(section, "Modified") {
		t.Error("msgpass-full.json, from a clean tree, is called modified")
	}
	// One unit per column: every time header names one unit, the same in
	// the four time columns of a table.
	units := regexp.MustCompile(`\| Mean ± σ \[(\S+)\] +\| Median \[(\S+)\] +\| Min \[(\S+)\] +\| Max \[(\S+)\]`)
	headers := units.FindAllStringSubmatch(md, -1)
	if len(headers) != len(files) {
		t.Fatalf("%d summary tables with units in their headers, want %d", len(headers), len(files))
	}
	for _, h := range headers {
		if h[1] != h[2] || h[1] != h[3] || h[1] != h[4] {
			t.Errorf("summary header mixes units: %q", h[0])
		}
	}
}

func TestWriteSeveralFilesSideBySide(t *testing.T) {
	if testing.Short() {
		t.Skip("renders every chart of several files: skipped in -short (the full suite runs it)")
	}
	t.Parallel()
	dir := t.TempDir()
	a, b := smallFile(1, "alpha", 1), scanFile(2, "beta", 1.3, 0)
	c := smallFile(3, "gamma", 1)
	c.Workload, c.Unit = "callback", "call"
	// Two files with the same base name get distinct chart names.
	names := []string{"m1/results.json", "m2/results.json", "c.json"}
	if err := Write(dir, []*harness.File{a, b, c}, names); err != nil {
		t.Fatal(err)
	}
	md := spaced.ReplaceAllString(checkLinks(t, dir), " ")
	checkContains(t, md,
		"## Side by side", "(all-msgpass-cell-bars.png)", "| File | Machine |", "| m1/results.json | alpha, ", "| m2/results.json | beta, ",
		"## m1/results.json", "## m2/results.json", "(results-bars.png)", "(results-2-bars.png)", "(results-2-scan-batch-size.png)",
		"| ocaml batch-size=4096 (reference) |",
	)
	// The callback file shares no chart with the message-passing ones.
	if strings.Contains(md, "all-callback") {
		t.Error("a side-by-side chart for a workload held by one file")
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
	t.Parallel()
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
	checkContains(t, readReport(t, dir), "## file 1", "No chart: no run succeeded.", "timeout after 30s", "| — | — |", "0 (8 failed)")
}

func TestWriteErrors(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	dir := t.TempDir()
	f := &harness.File{Schema: harness.Schema, Workload: "msgpass", Unit: "cell", Results: []harness.Result{{
		Cell: "boxroot", Label: "boxroot",
		Runs: []harness.Run{
			{WallNs: 1e6, Cells: 1000, Stats: map[string]int64{"peak_pools": 120, "remote_deletes": 1000, "live": 0}},
			{WallNs: 1e6, Cells: 1000, Stats: map[string]int64{"peak_pools": 128, "remote_deletes": 1000, "live": 0}},
			{WallNs: 1e6, Cells: 1000, Stats: map[string]int64{"peak_pools": 125, "remote_deletes": 1000, "live": 0}},
			{Failed: true, Stats: map[string]int64{"peak_pools": 999}},
		},
	}, {Cell: "ocaml", Label: "ocaml", Runs: []harness.Run{{WallNs: 1e6, Cells: 1000}}}}}
	harness.Summarize(f)
	if err := write(dir, []*harness.File{f}, []string{"r.json"}, false); err != nil {
		t.Fatal(err)
	}
	md := spaced.ReplaceAllString(readReport(t, dir), " ")
	checkContains(t, md,
		"Implementation counters (cell.Stater), median over each configuration's successful runs; zero in every run: `live`.",
		"| Configuration | peak_pools | remote_deletes |", "| boxroot | 125 | 1000 |")
	if strings.Contains(md, "999") {
		t.Error("a failed run's counters leaked into the table")
	}
	if strings.Contains(md, "| ocaml | —") {
		t.Error("a configuration without counters has a counters row")
	}
}

func TestVersion(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		tool harness.Tool
		want string
	}{
		{harness.Tool{Version: "v0.1.0", Revision: "abc1234"}, "v0.1.0 (abc1234)"},
		{harness.Tool{Version: "v0.0.0-20261202165221-d71b328bad32+dirty", Revision: "d71b328bad323244081afb2526506aa6a8bdf63e", Modified: true}, "d71b328bad32 **modified**"},
		{harness.Tool{Version: "(devel)"}, "(devel)"},
		{harness.Tool{}, "—"},
	} {
		if got := revision(tc.tool); got != tc.want {
			t.Errorf("revision(%+v) = %q, want %q", tc.tool, got, tc.want)
		}
	}
}
