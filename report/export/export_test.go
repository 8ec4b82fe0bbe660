package export

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/internal/harnesstest"
)

func TestJSONRoundTrip(t *testing.T) {
	f := fixture()
	f.Schema = "" // the exporter always writes the schema
	var b bytes.Buffer
	if err := JSON(&b, f); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "{\n  \"schema\": \"rootbench/v1\",\n") {
		t.Errorf("not indented, or schema missing:\n%.200s", b.String())
	}
	if !strings.Contains(b.String(), `panic: <boxroot> & co`) {
		t.Error("stderr tail HTML-escaped or lost")
	}
	back, err := harness.Decode(&b, "export")
	if err != nil {
		t.Fatalf("harness.Decode of the export: %v", err)
	}
	f.Schema = harness.Schema
	analysis.Annotate(f)         // the export carries the relatives the reports show
	harness.RecomputeWarnings(f) // and Decode gives the warnings of the runs, with their kinds
	if f.Results[0].RelativeBasis != "per cell" || f.Results[0].RelativeTo != "ocaml batch-size=1024" {
		t.Errorf("annotated %q to %q; want per cell to ocaml batch-size=1024", f.Results[0].RelativeBasis, f.Results[0].RelativeTo)
	}
	if !reflect.DeepEqual(back, f) {
		t.Errorf("round trip changed the file:\n got %+v\nwant %+v", back, f)
	}
	if got := len(back.Results[2].Runs); got != 3 {
		t.Errorf("%d runs kept, want every run (3, one failed)", got)
	}

	f.Results[0].Mean = math.NaN()
	if err := JSON(io.Discard, f); err == nil || !strings.Contains(err.Error(), "JSON") {
		t.Errorf("NaN should fail with a clear error, got %v", err)
	}
}

func TestCSV(t *testing.T) {
	f := fixture()
	var b bytes.Buffer
	if err := CSV(&b, f); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatalf("CSV does not parse back: %v", err)
	}
	wantHeader := "label,cell,parameter_batch-size,parameter_max-delay,parameter_niters,mean,stddev,median,user,system,min,max,ns_per_cell,relative,relative_stddev,relative_basis,relative_to,runs,failed,partial"
	if got := strings.Join(recs[0], ","); got != wantHeader {
		t.Fatalf("header = %s\nwant     %s", got, wantHeader)
	}
	if len(recs) != 1+len(f.Results) {
		t.Fatalf("%d rows, want a header and one per result", len(recs))
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	float := func(row []string, name string) float64 {
		t.Helper()
		x, err := strconv.ParseFloat(row[col[name]], 64)
		if err != nil {
			t.Fatalf("%s = %q: %v", name, row[col[name]], err)
		}
		return x
	}
	ref := &f.Results[1]
	rel := analysis.Relate(f)
	for i, row := range recs[1:] {
		r := &f.Results[i]
		if row[col["label"]] != r.Label || row[col["cell"]] != r.Cell || row[col["parameter_batch-size"]] != r.Params["batch-size"] ||
			row[col["parameter_max-delay"]] != "-1" || row[col["parameter_niters"]] != "100000" {
			t.Errorf("row %d identity = %q", i, row[:5])
		}
		for name, want := range map[string]float64{"mean": r.Mean, "stddev": r.Stddev, "median": r.Median, "user": r.UserMean,
			"system": r.SysMean, "min": r.Min, "max": r.Max, "ns_per_cell": r.NsPerCell} {
			if got := float(row, name); got != want {
				t.Errorf("row %d %s = %v, want %v (full precision)", i, name, got, want)
			}
		}
		// The batch sizes differ: relatives per cell, against ocaml.
		x := rel.Rows[i]
		wantRel, wantSD := x.Ratio.Ratio, x.Stddev
		if row[col["relative_basis"]] != "per cell" || row[col["relative_to"]] != ref.Label || row[col["partial"]] != "false" {
			t.Errorf("row %d basis %q to %q partial %q", i, row[col["relative_basis"]], row[col["relative_to"]], row[col["partial"]])
		}
		if r == ref && (wantRel != 1 || wantSD != 0) {
			t.Errorf("reference relative %v ± %v", wantRel, wantSD)
		}
		if got := float(row, "relative"); math.Abs(got-wantRel) > 1e-12 {
			t.Errorf("row %d relative = %v, want %v", i, got, wantRel)
		}
		if got := float(row, "relative_stddev"); math.Abs(got-wantSD) > 1e-12 {
			t.Errorf("row %d relative_stddev = %v, want %v", i, got, wantSD)
		}
	}
	if runs, failed := recs[3][col["runs"]], recs[3][col["failed"]]; runs != "2" || failed != "1" {
		t.Errorf("runs, failed = %s, %s; want 2, 1", runs, failed)
	}

	// A result without a successful run has empty statistics.
	for i := range f.Results[2].Runs {
		f.Results[2].Runs[i].Failed = true
	}
	b.Reset()
	if err := CSV(&b, f); err != nil {
		t.Fatal(err)
	}
	recs, _ = csv.NewReader(&b).ReadAll()
	if row := recs[3]; row[col["mean"]] != "" || row[col["relative"]] != "" || row[col["runs"]] != "0" || row[col["failed"]] != "3" {
		t.Errorf("failed result row = %q", row)
	}
}

func TestMarkdown(t *testing.T) {
	f := fixture()
	f.Results[0].Label = "boxroot|odd"
	var b bytes.Buffer
	if err := Markdown(&b, f); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	if len(lines) != 2+len(f.Results) {
		t.Fatalf("%d lines, want header, separator and one per result:\n%s", len(lines), b.String())
	}
	// cells splits a row on unescaped pipes.
	cells := func(l string) []string {
		if !strings.HasPrefix(l, "|") || !strings.HasSuffix(l, "|") {
			t.Fatalf("row %q is not enclosed in pipes", l)
		}
		l = strings.ReplaceAll(l[1:len(l)-1], `\|`, "\x00")
		var out []string
		for _, c := range strings.Split(l, "|") {
			out = append(out, strings.ReplaceAll(strings.TrimSpace(c), "\x00", `\|`))
		}
		return out
	}
	want := [][]string{
		{"Cell", "Mean [s]", "Min [s]", "Max [s]", "Relative per cell"},
		nil,
		{"`boxroot\\|odd`", "1.686 ± 0.013", "1.670", "1.710", "2.18 ± 0.05"},
		{"`ocaml batch-size=1024`", "0.776 ± 0.012", "0.760", "0.790", "1.00"},
		{"`boxroot batch-size=16`", "2.500 ± 0.100", "2.400", "2.600", "3.22 ± 0.19"},
	}
	for i, l := range lines {
		got := cells(l)
		if i == 1 {
			if len(got) != 5 || !strings.HasPrefix(got[0], ":-") || strings.HasSuffix(got[0], ":") {
				t.Errorf("first column should be left-aligned: %q", l)
			}
			for _, c := range got[1:] {
				if !strings.HasSuffix(c, "-:") || strings.HasPrefix(c, ":") {
					t.Errorf("number columns should be right-aligned: %q", l)
				}
			}
			continue
		}
		if !reflect.DeepEqual(got, want[i]) {
			t.Errorf("line %d = %q, want %q", i, got, want[i])
		}
	}
}

func TestGoBench(t *testing.T) {
	f := fixture()
	var b bytes.Buffer
	if err := GoBench(&b, f); err != nil {
		t.Fatal(err)
	}
	rd := benchfmt.NewReader(&b, "export")
	count := map[string]int{}
	var iters []int
	var secs []float64
	for rd.Scan() {
		rec, ok := rd.Result().(*benchfmt.Result)
		if !ok {
			t.Fatalf("unexpected record %#v", rd.Result())
		}
		count[rec.Name.String()]++
		iters = append(iters, rec.Iters)
		for key, want := range map[string]string{"goos": "linux", "goarch": "amd64", "cpu": "Test CPU @ 2.0GHz", "workload": "msgpass",
			"unit": "cell", "machine": "bench-host", "go-version": "go1.26.0", "revision": "abc123", "niters": "100000", "max-delay": "-1"} {
			if got := rec.GetConfig(key); got != want {
				t.Errorf("config %s = %q, want %q", key, got, want)
			}
		}
		if got := rec.GetConfig("batch-size"); got != "" {
			t.Errorf("a varying parameter belongs in the name, not the config (%q)", got)
		}
		sec, ok1 := rec.Value("sec/op")
		bop, ok2 := rec.Value("B/op")
		allocs, ok3 := rec.Value("allocs/op")
		_, ok4 := rec.Value("gc-cpu-%")
		_, ok5 := rec.Value("peak-RSS-bytes")
		if !(ok1 && ok2 && ok3 && ok4 && ok5) || len(rec.Values) != 5 {
			t.Errorf("%s: units = %+v", rec.Name, rec.Values)
		}
		secs = append(secs, sec)
		// Every run of the fixture allocates the same per cell.
		run := f.Results[0].Runs[0]
		wantB, wantAllocs := float64(run.GC.HeapAllocBytes)/float64(run.Cells), float64(run.GC.HeapAllocObjs)/float64(run.Cells)
		if bop != wantB || allocs != wantAllocs {
			t.Errorf("%s: %v B/op %v allocs/op, want %v and %v per cell", rec.Name, bop, allocs, wantB, wantAllocs)
		}
		base, parts := rec.Name.Parts()
		if string(base) != "Msgpass" || len(parts) != 3 || string(parts[2]) != "-2" {
			t.Errorf("name %s: base %s parts %q", rec.Name, base, parts)
		}
	}
	if err := rd.Err(); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{
		"Msgpass/cell=boxroot/batch-size=1024-2": 3,
		"Msgpass/cell=ocaml/batch-size=1024-2":   3,
		"Msgpass/cell=boxroot/batch-size=16-2":   2, // one of its three runs failed
	}
	if !reflect.DeepEqual(count, want) {
		t.Errorf("results per name = %v, want one per successful run %v", count, want)
	}
	// iterations × sec/op is each successful run's wall time.
	var walls []float64
	for _, r := range f.Results {
		for _, run := range r.Runs {
			if !run.Failed {
				walls = append(walls, float64(run.WallNs)/1e9)
			}
		}
	}
	for i := range walls {
		if iters[i] != harnesstest.SeedCells || math.Abs(float64(iters[i])*secs[i]-walls[i]) > 1e-9 {
			t.Errorf("result %d: %d × %v sec/op, want %d cells and %v s in all", i, iters[i], secs[i], harnesstest.SeedCells, walls[i])
		}
	}
}

func TestGoBenchNames(t *testing.T) {
	f := fixture()
	f.Workload, f.Unit = "call back", "call"
	f.Machine.GOMAXPROCS = 0
	f.Results[0].Cell = "boxroot:force remote/x"
	for i := range f.Results {
		f.Results[i].Params["max-delay"] = strconv.Itoa(-i - 1) // varies, and ends in -digits
	}
	var b bytes.Buffer
	if err := GoBench(&b, f); err != nil {
		t.Fatal(err)
	}
	rd := benchfmt.NewReader(&b, "export")
	var names []string
	for rd.Scan() {
		rec := rd.Result().(*benchfmt.Result)
		if rec.GetConfig("unit") != "call" {
			t.Errorf("unit config = %q", rec.GetConfig("unit"))
		}
		base, parts := rec.Name.Parts()
		if string(base) != "Callback" || len(parts) != 4 || string(parts[3]) != "-1" || !strings.HasPrefix(string(parts[2]), "/max-delay=-") {
			t.Errorf("name %s: base %s parts %q", rec.Name, base, parts)
		}
		names = append(names, rec.Name.String())
	}
	if len(names) == 0 || names[0] != "Callback/cell=boxroot:force_remote_x/batch-size=1024/max-delay=-1-1" {
		t.Errorf("names = %q", names)
	}

	f.Results[1].Runs[0].Cells = 0
	if err := GoBench(io.Discard, f); err == nil || !strings.Contains(err.Error(), "ocaml") {
		t.Errorf("a successful run without cells should fail naming the result, got %v", err)
	}
}

func TestByName(t *testing.T) {
	for _, c := range []struct {
		name string
		want Exporter
	}{{"json", JSON}, {"CSV", CSV}, {"markdown", Markdown}, {"md", Markdown}, {"gobench", GoBench}, {"benchstat", GoBench}} {
		got, err := ByName(c.name)
		if err != nil || reflect.ValueOf(got).Pointer() != reflect.ValueOf(c.want).Pointer() {
			t.Errorf("ByName(%q) = %p, %v", c.name, got, err)
		}
	}
	for _, fm := range Formats {
		if _, err := ByName(string(fm)); err != nil {
			t.Errorf("ByName(%q): %v", fm, err)
		}
	}
	if _, err := ByName("xml"); err == nil || !strings.Contains(err.Error(), `"xml"`) || !strings.Contains(err.Error(), "json, csv, markdown and gobench") {
		t.Errorf("ByName(xml) error = %v", err)
	}
}

func TestWriteFileReplacesAtomically(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	f := fixture()
	if err := WriteFile(path, f, JSON); err != nil {
		t.Fatal(err)
	}
	old, _ := os.ReadFile(path)
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("new file mode = %v, want 0644", fi.Mode().Perm())
	}

	// A failing exporter, even after writing half its output, leaves the
	// previous file intact and no temporary file behind.
	boom := errors.New("boom")
	failing := func(w io.Writer, f *harness.File) error {
		io.WriteString(w, "{\"schema\": \"rootb")
		return boom
	}
	err := WriteFile(path, f, failing)
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), path) {
		t.Errorf("error = %v, want boom naming %s", err, path)
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, old) {
		t.Error("a failing exporter changed the file")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only the export (temporary file left behind?)", len(entries))
	}

	// An existing file keeps its mode.
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, f, CSV); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode after rewrite = %v, want 0600 kept", fi.Mode().Perm())
	}

	// Errors name the path.
	for _, bad := range []string{filepath.Join(dir, "missing", "out.csv"), dir} {
		if err := WriteFile(bad, f, CSV); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("WriteFile(%s) error = %v, want one naming the path", bad, err)
		}
	}
	if err := WriteFile(path, f, nil); err == nil {
		t.Error("nil exporter accepted")
	}
}

// TestWriteFileNeverPartial rewrites a large file again and again, with two
// different contents, while another goroutine reads it: every read must be
// one of the two complete contents.
func TestWriteFileNeverPartial(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.json")
	big := func(fill byte) Exporter {
		return func(w io.Writer, _ *harness.File) error {
			chunk := bytes.Repeat([]byte{fill}, 64<<10)
			for i := 0; i < 16; i++ { // 1 MiB, written in pieces
				if _, err := w.Write(chunk); err != nil {
					return err
				}
			}
			return nil
		}
	}
	f := fixture()
	if err := WriteFile(path, f, big('a')); err != nil {
		t.Fatal(err)
	}
	rounds := 30
	if testing.Short() {
		rounds = 10
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	var reads, bad atomic.Int64
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			data, err := os.ReadFile(path)
			if err != nil {
				bad.Add(1)
				continue
			}
			reads.Add(1)
			if len(data) != 1<<20 || (bytes.Count(data, []byte{'a'}) != len(data) && bytes.Count(data, []byte{'b'}) != len(data)) {
				bad.Add(1)
			}
		}
	}()
	for i := 0; i < rounds; i++ {
		if err := WriteFile(path, f, big("ab"[i%2])); err != nil {
			t.Error(err)
		}
	}
	stop.Store(true)
	wg.Wait()
	if bad.Load() != 0 || reads.Load() == 0 {
		t.Errorf("%d of %d reads saw a missing or partial file", bad.Load(), reads.Load()+bad.Load())
	}
}

func TestWriteFileStdout(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stdout
	os.Stdout = w
	werr := WriteFile("-", fixture(), Markdown)
	failErr := WriteFile("-", fixture(), func(w io.Writer, _ *harness.File) error {
		io.WriteString(w, "half")
		return errors.New("boom")
	})
	os.Stdout = saved
	w.Close()
	out, _ := io.ReadAll(r)
	if werr != nil {
		t.Fatal(werr)
	}
	var want bytes.Buffer
	if err := Markdown(&want, fixture()); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, want.Bytes()) {
		t.Errorf("stdout = %q, want the Markdown export %q", out, want.String())
	}
	if failErr == nil || !strings.Contains(failErr.Error(), "standard output") {
		t.Errorf("failing exporter to stdout: error = %v", failErr)
	}
}

func TestMarkdownNamesCallbackVariants(t *testing.T) {
	f := fixture()
	f.Workload, f.Unit = "callback", "call"
	var b strings.Builder
	if err := Markdown(&b, f); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "| Variant") {
		t.Errorf("callback Markdown does not start with a Variant column:\n%s", b.String())
	}
}

// A partial file's Markdown and CSV exports say so, as the JSON does; a
// single run's spread is not shown as zero.
func TestPartialAndSingleRun(t *testing.T) {
	f := fixture()
	f.Partial = true
	f.Results[0].Runs = f.Results[0].Runs[:1]
	harness.Summarize(f)
	var md bytes.Buffer
	if err := Markdown(&md, f); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(md.String(), "> **Partial results**") {
		t.Errorf("partial Markdown not marked:\n%s", md.String())
	}
	if !strings.Contains(md.String(), "± —") {
		t.Errorf("one-run σ not shown as —:\n%s", md.String())
	}
	var csvOut bytes.Buffer
	if err := CSV(&csvOut, f); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&csvOut).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for i, row := range recs[1:] {
		if row[col["partial"]] != "true" {
			t.Errorf("row %d: partial %q, want true", i, row[col["partial"]])
		}
	}
	if sd := recs[1][col["stddev"]]; sd != "" {
		t.Errorf("one-run stddev %q, want empty", sd)
	}
	f.Partial = false
	md.Reset()
	if err := Markdown(&md, f); err != nil || strings.Contains(md.String(), "Partial") {
		t.Errorf("complete file marked partial (%v):\n%s", err, md.String())
	}
}
