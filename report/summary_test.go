package report

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
)

// lineIndex returns the index of the first line of out containing s, or -1.
func lineIndex(out, s string) int {
	for i, l := range strings.Split(out, "\n") {
		if strings.Contains(l, s) {
			return i
		}
	}
	return -1
}

func TestSummaryReferenceFastest(t *testing.T) {
	t.Parallel()
	f := seedFile()
	got := render(t, func(b *bytes.Buffer, o Options) { Summary(b, f, o) }, Options{})
	// The seed's published figures: boxroot 2.17 ± 0.04, ocaml-ref 3.45 ± 0.05
	// relative to ocaml, from the same means and deviations.
	want := "  'ocaml' ran 2.17 ± 0.04 times faster than 'boxroot'\n" +
		"  'ocaml' ran 3.45 ± 0.05 times faster than 'ocaml-ref'\n"
	if !strings.HasSuffix(got, want) {
		t.Errorf("summary sentences:\n%s\nwant suffix\n%s", got, want)
	}
	// The headline first: the control is fastest, so the fastest root
	// handle is named with its ratio to it (the table's 2.17 ± 0.04).
	if !strings.HasPrefix(got, "Summary\n  Fastest: ocaml (the control: no rooting work); among root handles, boxroot (2.17 ± 0.04 times its time).\n┌") {
		t.Errorf("summary should start with its title, the headline and a box table:\n%s", got)
	}
	for _, s := range []string{"│ Cell", "Mean [s]", "± σ", "ns/cell", "Relative (± σ)",
		"│ ocaml (reference) │    0.776 │ 0.012 │ 1.5% │    7.58 │           1.00 │",
		"│ boxroot           │    1.686 │ 0.013 │ 0.8% │   16.46 │    2.17 ± 0.04 │"} {
		if !strings.Contains(got, s) {
			t.Errorf("summary lacks %q:\n%s", s, got)
		}
	}
	// auto sorts a comparison of cells by mean: ocaml, boxroot, ocaml-ref.
	if a, b, c := lineIndex(got, "│ ocaml (reference)"), lineIndex(got, "│ boxroot"), lineIndex(got, "│ ocaml-ref"); !(a < b && b < c) {
		t.Errorf("rows not fastest first (lines %d %d %d):\n%s", a, b, c, got)
	}
}

func TestSummaryReferenceNotFastest(t *testing.T) {
	t.Parallel()
	f := seedFile()
	f.Reference = "boxroot"
	got := render(t, func(b *bytes.Buffer, o Options) { Summary(b, f, o) }, Options{})
	want := "  'boxroot' ran 2.17 ± 0.04 times slower than 'ocaml'\n" +
		"  'boxroot' ran 1.59 ± 0.01 times faster than 'ocaml-ref'\n"
	if !strings.HasSuffix(got, want) {
		t.Errorf("summary sentences:\n%s\nwant suffix\n%s", got, want)
	}
	if !strings.Contains(got, "│ boxroot (reference) │") || !strings.Contains(got, "0.46 ± 0.01") {
		t.Errorf("reference row or relative column wrong:\n%s", got)
	}
}

func TestSummaryOrderAndFailures(t *testing.T) {
	t.Parallel()
	f := seedFile()
	f.Results[2].Runs = f.Results[2].Runs[:2]
	for i := range f.Results[2].Runs {
		f.Results[2].Runs[i].Failed = true
	}
	f.Results[2].Mean = 0
	got := render(t, func(b *bytes.Buffer, o Options) { Summary(b, f, o) }, Options{Sort: SortCell, Unit: Millisecond})
	if a, b, c := lineIndex(got, "│ boxroot"), lineIndex(got, "│ ocaml (reference)"), lineIndex(got, "│ ocaml-ref"); !(a < b && b < c) {
		t.Errorf("--sort cell should keep the input order (lines %d %d %d):\n%s", a, b, c, got)
	}
	if !strings.Contains(got, "Mean [ms]") || !strings.Contains(got, "1686.0") {
		t.Errorf("explicit ms unit not used:\n%s", got)
	}
	if cells := strings.Join(rowCells(t, got, "ocaml-ref"), " "); cells != "failed — — — —" || strings.Contains(got, "than 'ocaml-ref'") {
		t.Errorf("a result without successful runs shows as failed, without a sentence:\n%s", got)
	}

	// A parameter scan keeps the input order under auto.
	f = seedFile()
	f.Results[0].Params = map[string]string{"batch-size": "16"}
	got = render(t, func(b *bytes.Buffer, o Options) { Summary(b, f, o) }, Options{})
	if a, b := lineIndex(got, "│ boxroot"), lineIndex(got, "│ ocaml (reference)"); !(a < b) {
		t.Errorf("auto should keep a scan in input order:\n%s", got)
	}
	got = render(t, func(b *bytes.Buffer, o Options) { Summary(b, f, o) }, Options{Sort: SortMean})
	if a, b := lineIndex(got, "│ boxroot"), lineIndex(got, "│ ocaml (reference)"); !(b < a) {
		t.Errorf("--sort mean should put the fastest first:\n%s", got)
	}

	// Nothing measured.
	for i := range f.Results {
		f.Results[i].Runs = nil
	}
	got = render(t, func(b *bytes.Buffer, o Options) { Summary(b, f, o) }, Options{})
	if !strings.Contains(got, "nothing to compare") {
		t.Errorf("summary of failures only:\n%s", got)
	}
}

var sentence = regexp.MustCompile(`^'r(\d+)' ran (\d+\.\d\d)(?: ± (\d+\.\d\d))? times (faster|slower) than 'r(\d+)'$`)

// TestSentencesProperty checks, for random means and deviations and any
// reference, that there is one sentence per other result, that it says
// "faster" exactly when the other result is slower than the reference, and
// that its factor is the ratio of the slower mean over the faster one.
func TestSentencesProperty(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(2, 6).Draw(t, "n")
		f := &harness.File{Schema: harness.Schema, Unit: "cell"}
		for i := 0; i < n; i++ {
			mean := rapid.Float64Range(0.001, 100).Draw(t, fmt.Sprintf("mean%d", i))
			sd := rapid.Float64Range(0, mean/10).Draw(t, fmt.Sprintf("sd%d", i))
			f.Results = append(f.Results, harness.Result{Label: fmt.Sprintf("r%d", i), Mean: mean, Stddev: sd,
				Runs: []harness.Run{{WallNs: 1, Cells: 1}, {WallNs: 1, Cells: 1}}})
		}
		refIdx := rapid.IntRange(0, n-1).Draw(t, "ref")
		f.Reference = f.Results[refIdx].Label
		ref := f.Results[refIdx]
		sort := rapid.SampledFrom([]string{SortAuto, SortCell, SortMean}).Draw(t, "sort")
		lines := sentences(f, analysis.Summarize(f), Options{Sort: sort})
		if len(lines) != n-1 {
			t.Fatalf("%d sentences for %d results: %q", len(lines), n, lines)
		}
		seen := map[string]bool{}
		for _, l := range lines {
			m := sentence.FindStringSubmatch(l)
			if m == nil {
				if strings.Contains(l, "as fast as") {
					continue
				}
				t.Fatalf("sentence %q does not parse", l)
			}
			if "r"+m[1] != ref.Label {
				t.Fatalf("sentence %q does not start with the reference %s", l, ref.Label)
			}
			o, _ := strconv.Atoi(m[5])
			if seen[m[5]] || o == refIdx {
				t.Fatalf("sentence %q repeats a result or compares the reference with itself", l)
			}
			seen[m[5]] = true
			other := f.Results[o]
			factor, _ := strconv.ParseFloat(m[2], 64)
			wantWord, wantFactor := "faster", other.Mean/ref.Mean
			if other.Mean < ref.Mean {
				wantWord, wantFactor = "slower", ref.Mean/other.Mean
			}
			if m[4] != wantWord || math.Abs(factor-wantFactor) > 0.0051 || factor < 0.995 {
				t.Fatalf("sentence %q: want %s by %.4f (means %g and %g)", l, wantWord, wantFactor, ref.Mean, other.Mean)
			}
		}
	})
}

func TestTableUnitAndOrder(t *testing.T) {
	t.Parallel()
	f := seedFile()
	if u := TableUnit(f, Auto); u != Second {
		t.Errorf("TableUnit = %v, want s (slowest mean 2.681 s)", u)
	}
	if u := TableUnit(f, Nanosecond); u != Nanosecond {
		t.Errorf("explicit unit not kept: %v", u)
	}
	for i := range f.Results {
		f.Results[i].Mean /= 1000
	}
	if u := TableUnit(f, Auto); u != Millisecond {
		t.Errorf("TableUnit = %v, want ms", u)
	}
	rel := analysis.Relate(f)
	if got := fmt.Sprint(Order(f, rel, SortMean)); got != "[1 0 2]" {
		t.Errorf("Order(mean) = %s", got)
	}
	if got := fmt.Sprint(Order(f, rel, SortCell)); got != "[0 1 2]" {
		t.Errorf("Order(cell) = %s", got)
	}
}

func TestParseSort(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"": SortAuto, "AUTO": SortAuto, "cell": SortCell, "command": SortCell, "mean": SortMean, "mean-time": SortMean} {
		if got, err := ParseSort(in); err != nil || got != want {
			t.Errorf("ParseSort(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseSort("median"); err == nil || !strings.Contains(err.Error(), `"median"`) || !strings.Contains(err.Error(), "auto, cell") {
		t.Errorf("ParseSort(median) error = %v", err)
	}
}

func TestSummaryNamesCallbackVariants(t *testing.T) {
	t.Parallel()
	f := seedFile()
	f.Workload, f.Unit = "callback", "call"
	got := render(t, func(b *bytes.Buffer, o Options) { Summary(b, f, o) }, Options{})
	for _, want := range []string{"│ Variant", "ns/call", "│   CV │"} {
		if !strings.Contains(got, want) {
			t.Errorf("callback summary lacks %q:\n%s", want, got)
		}
	}
}

// A scan of one cell over batch sizes does different work per run: the
// relatives are per cell, and the big batch, slower per run but cheaper
// per cell, is the reference.
func TestSummaryScanIsPerCell(t *testing.T) {
	t.Parallel()
	f := seedFile()
	f.Results = f.Results[:1]
	small := result("ref batch-size=16", 0.0097, 0.0004, 0.0093, 0.0101, 0.0093, 0.0097, 0.0101)
	big := result("ref batch-size=4096", 0.217, 0.003, 0.214, 0.220, 0.214, 0.217, 0.220)
	for i := range small.Runs {
		small.Runs[i].Cells = 16 * 1000
		big.Runs[i].Cells = 4096 * 1000
	}
	small.Cell, big.Cell = "ref", "ref"
	small.Params = map[string]string{"batch-size": "16"}
	big.Params = map[string]string{"batch-size": "4096"}
	f.Results = []harness.Result{small, big}
	f.Reference = ""
	got := render(t, func(b *bytes.Buffer, o Options) { Summary(b, f, o) }, Options{})
	if !strings.Contains(got, "'ref batch-size=4096' ran") || !strings.Contains(got, "times faster per cell than 'ref batch-size=16'") {
		t.Errorf("scan summary should make batch-size=4096 the reference, faster per cell:\n%s", got)
	}
	if !strings.Contains(got, "Relative per cell (± σ)") || !strings.Contains(got, "ref batch-size=4096 (reference)") {
		t.Errorf("scan summary header or reference:\n%s", got)
	}
}

// Cells crossed with parameters: one reference per parameter set, a
// cost-per-cell table against the parameter, and cgo-handle stated as the
// incumbent.
func TestSummaryCellsByParameters(t *testing.T) {
	t.Parallel()
	f := seedFile()
	f.Reference = "ocaml"
	var rs []harness.Result
	for _, size := range []string{"16", "256"} {
		for _, cell := range []string{"ocaml", "cgo-handle"} {
			k := 1.0
			if cell == "cgo-handle" {
				k = 20
			}
			r := result(cell+" batch-size="+size, k, k/100, k*0.99, k*1.01, k*0.99, k, k*1.01)
			r.Cell = cell
			r.Params = map[string]string{"batch-size": size}
			for i := range r.Runs {
				if size == "256" {
					r.Runs[i].Cells *= 16
				}
			}
			rs = append(rs, r)
		}
	}
	f.Results = rs
	got := render(t, func(b *bytes.Buffer, o Options) { Summary(b, f, o) }, Options{})
	for _, want := range []string{
		"ocaml batch-size=16 (reference)", "ocaml batch-size=256 (reference)",
		"'ocaml batch-size=16' ran 20.00 ± 0.28 times faster per cell than 'cgo-handle batch-size=16'",
		"vs cgo-handle", "(incumbent)", "20.00 ± 0.28× faster",
		"Cost per cell against the parameters", "batch-size=256",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
}

// A single run has no spread: its σ reads "—", not 0.
func TestSummaryOneRunSigma(t *testing.T) {
	t.Parallel()
	f := seedFile()
	for i := range f.Results {
		f.Results[i].Runs = f.Results[i].Runs[:1]
		f.Results[i].Stddev = 0
	}
	got := render(t, func(b *bytes.Buffer, o Options) { Summary(b, f, o) }, Options{})
	if cells := rowCells(t, got, "boxroot"); cells[1] != Missing {
		t.Errorf("one-run σ = %q, want %q:\n%s", cells[1], Missing, got)
	}
}

// The headline states boxroot against cgo-handle with the factor of the
// table's column, and wraps to the terminal.
func TestSummaryHeadlineBoxrootAgainstCgoHandle(t *testing.T) {
	t.Parallel()
	f := seedFile()
	cgo := result("cgo-handle", 20, 0.2, 19.8, 20.2, 19.8, 20, 20.2)
	cgo.Cell = "cgo-handle"
	f.Results = append(f.Results, cgo)
	got := render(t, func(b *bytes.Buffer, o Options) { Summary(b, f, o) }, Options{})
	row := strings.Split(got, "\n")[lineIndex(got, "│ boxroot")]
	cells := strings.Split(row, "│")
	factor := strings.TrimSuffix(strings.TrimSpace(cells[len(cells)-2]), "× faster")
	if want := "  boxroot ran " + strings.TrimSpace(factor) + " times faster than cgo-handle (runtime/cgo.Handle).\n┌"; factor == "" || !strings.Contains(got, want) {
		t.Errorf("the headline does not state boxroot against cgo-handle as the table does (%q):\n%s", want, got)
	}
	narrow := render(t, func(b *bytes.Buffer, o Options) { Summary(b, f, o) }, Options{Width: 60})
	for _, line := range strings.Split(narrow[:strings.Index(narrow, "┌")], "\n") {
		if utf8.RuneCountInString(line) > 60 {
			t.Errorf("width 60: headline line of %d columns: %q", utf8.RuneCountInString(line), line)
		}
	}
}

// wideFile is seedFile with a long label and the incumbent: its summary
// table is wider than 80 columns.
func wideFile() *harness.File {
	f := seedFile()
	long := result("boxroot:locked-remote", 1.9, 0.3, 1.5, 2.4, 1.5, 1.9, 2.4)
	long.Cell = "boxroot:locked-remote"
	cgo := result("cgo-handle", 20, 0.2, 19.8, 20.2, 19.8, 20, 20.2)
	cgo.Cell = "cgo-handle"
	f.Results = append(f.Results, long, cgo)
	return f
}

// On a terminal narrower than the summary table, the table narrows until
// it fits (two-line headers and the factor against the incumbent, then
// without ± σ, then without the relative column), and warnings wrap at
// spaces; without a width the table and the warnings are whole.
func TestSummaryNarrowsToWidth(t *testing.T) {
	t.Parallel()
	f := wideFile()
	wide := render(t, func(b *bytes.Buffer, o Options) { Summary(b, f, o) }, Options{})
	if TextWidth(wide) <= 80 || !strings.Contains(wide, "vs cgo-handle") || !strings.Contains(wide, "× faster │") {
		t.Fatalf("without a width the whole table (wider than 80) is printed:\n%s", wide)
	}
	for _, cols := range []int{100, 80, 60} {
		got := render(t, func(b *bytes.Buffer, o Options) { Summary(b, f, o) }, Options{Width: cols})
		table := got[:strings.Index(got, "└")]
		if cols >= 80 && TextWidth(table) > cols {
			t.Errorf("width %d: table %d wide:\n%s", cols, TextWidth(table), got)
		}
		if cols == 100 && (!strings.Contains(table, "× faster than") || strings.Contains(table, "× faster │") || !strings.Contains(table, "± σ │")) {
			t.Errorf("width 100: want two-line headers, the incumbent column as factors, and ± σ:\n%s", got)
		}
		if cols == 80 && (!strings.Contains(table, "× faster than") || strings.Contains(table, "Relative")) {
			t.Errorf("width 80: the relative column goes first (the sentences state it), the incumbent's stays:\n%s", got)
		}
		if cols == 60 && (!strings.Contains(table, "× faster than") || strings.Contains(table, "Relative") || strings.Contains(table, "± σ │")) {
			t.Errorf("width 60: the narrowest table (no ± σ, no relative, the incumbent's factor) is the fallback:\n%s", got)
		}
		for _, line := range strings.Split(got[strings.Index(got, "┘"):], "\n") {
			if strings.Contains(line, "Warning") || strings.HasPrefix(line, "    ") {
				if utf8.RuneCountInString(line) > cols && strings.Contains(strings.TrimSpace(line), " ") {
					t.Errorf("width %d: warning line of %d columns: %q", cols, utf8.RuneCountInString(line), line)
				}
			}
		}
	}
}
