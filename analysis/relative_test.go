package analysis

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/harness"
)

// scanFixture builds a file of cells crossed with batch sizes; cost(cell,
// size) is the time per cell in ns, and each run handles size*1000 cells.
func scanFixture(cells []string, sizes []int, cost func(cell string, size int) float64) *harness.File {
	f := fixture()
	for _, size := range sizes {
		for _, cell := range cells {
			label := cell + " batch-size=" + strconv.Itoa(size)
			r := harness.Result{Cell: cell, Label: label, Params: map[string]string{"batch-size": strconv.Itoa(size)}}
			work := int64(size) * 1000
			for i, jitter := range []float64{0.99, 1.0, 1.01} {
				r.Runs = append(r.Runs, harness.Run{Index: i, Cells: work, WallNs: int64(cost(cell, size) * jitter * float64(work))})
			}
			f.Results = append(f.Results, r)
		}
	}
	harness.Summarize(f)
	return f
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// A scan of one cell over batch sizes: the work differs, so the relatives
// are per cell and the cheapest per cell (the big batch) is the reference,
// although its runs take far longer.
func TestRelateScanOfOneCellIsPerUnit(t *testing.T) {
	t.Parallel()
	f := scanFixture([]string{"ref"}, []int{16, 4096}, func(_ string, size int) float64 {
		if size == 16 {
			return 604
		}
		return 53
	})
	rel := Relate(f)
	if rel.Basis != BasisPerUnit || rel.BasisLabel() != "per cell" || len(rel.Groups) != 1 {
		t.Fatalf("basis %q (%q), %d groups; want per-unit, one group", rel.Basis, rel.BasisLabel(), len(rel.Groups))
	}
	if ref := rel.Groups[0].Reference; f.Results[ref].Label != "ref batch-size=4096" {
		t.Errorf("reference %q, want the cheaper per cell, ref batch-size=4096", f.Results[ref].Label)
	}
	if r := rel.Rows[0]; !r.OK || !near(r.Ratio.Ratio, 604.0/53) || r.IsReference {
		t.Errorf("batch-size=16: %+v, want %v per cell", r, 604.0/53)
	}
	if f.Results[0].Mean > f.Results[1].Mean {
		t.Fatal("fixture: the small batch should take less wall time")
	}
}

// Cells crossed with parameters: one reference per parameter set (the
// requested cell), relatives per cell, and cgo-handle as the incumbent.
func TestRelateCellsCrossedWithParameters(t *testing.T) {
	t.Parallel()
	cost := map[string]float64{"ocaml": 10, "boxroot": 15, "cgo-handle": 100}
	f := scanFixture([]string{"ocaml", "boxroot", "cgo-handle"}, []int{16, 256}, func(cell string, size int) float64 {
		return cost[cell] * (1 + 16/float64(size))
	})
	f.Reference = "ocaml"
	rel := Relate(f)
	if rel.Basis != BasisPerUnit || len(rel.Groups) != 2 || rel.Incumbent != IncumbentCell {
		t.Fatalf("basis %q, %d groups, incumbent %q; want per-unit, 2 groups, cgo-handle", rel.Basis, len(rel.Groups), rel.Incumbent)
	}
	for gi, g := range rel.Groups {
		if f.Results[g.Reference].Cell != "ocaml" || len(g.Members) != 3 {
			t.Errorf("group %d (%q): reference %q, %d members", gi, g.Name, f.Results[g.Reference].Label, len(g.Members))
		}
	}
	if rel.Groups[0].Name != "batch-size=16" {
		t.Errorf("group name %q, want batch-size=16", rel.Groups[0].Name)
	}
	b := rel.Rows[1] // boxroot batch-size=16
	if !near(b.Ratio.Ratio, 1.5) || !b.Incumbent.OK || !near(b.Incumbent.Ratio, 0.15) {
		t.Errorf("boxroot: ratio %v, against cgo-handle %v; want 1.5 and 0.15", b.Ratio.Ratio, b.Incumbent.Ratio)
	}
	if b.Stddev <= 0 {
		t.Errorf("boxroot: no standard deviation on its ratio")
	}
}

// Equal work: hyperfine's relative on mean wall time, fastest reference.
func TestRelateEqualWorkIsWallTime(t *testing.T) {
	t.Parallel()
	f := fixture(spec{Label: "boxroot", Samples: []float64{2, 2.1, 1.9}}, spec{Label: "ocaml", Samples: []float64{1, 1.1, 0.9}})
	f.Workload = "callback" // no incumbent outside msgpass
	harness.Summarize(f)
	rel := Annotate(f)
	if rel.Basis != BasisTime || rel.BasisLabel() != "" || rel.Incumbent != "" {
		t.Fatalf("basis %q, incumbent %q", rel.Basis, rel.Incumbent)
	}
	// 2 ± 2·sqrt((0.1/2)² + (0.1/1)²), hyperfine's propagation.
	if r := f.Results[0]; !near(r.Relative, 2) || !near(r.RelativeStddev, 2*math.Hypot(0.05, 0.1)) || r.RelativeBasis != "time" || r.RelativeTo != "ocaml" {
		t.Errorf("boxroot annotated %v ± %v %q %q, want 2 ± %v time ocaml", r.Relative, r.RelativeStddev, r.RelativeBasis, r.RelativeTo, 2*math.Hypot(0.05, 0.1))
	}
	if r := f.Results[1]; r.Relative != 1 || r.RelativeStddev != 0 {
		t.Errorf("reference annotated %v ± %v", r.Relative, r.RelativeStddev)
	}
	if got := rel.Order(f, true); got[0] != 1 || got[1] != 0 {
		t.Errorf("fastest first = %v, want [1 0]", got)
	}
}

func TestRelateUnknownReferenceWarns(t *testing.T) {
	t.Parallel()
	f := fixture(spec{Label: "a", Samples: []float64{1, 2}}, spec{Label: "b", Samples: []float64{3, 4}})
	f.Reference = "zzz"
	rel := Relate(f)
	if len(rel.Warnings) != 1 || !strings.Contains(rel.Warnings[0], `"zzz"`) || f.Results[rel.Groups[0].Reference].Label != "a" {
		t.Errorf("warnings %q, reference %d; want a warning and the fastest", rel.Warnings, rel.Groups[0].Reference)
	}
}

// One successful run on a side: a ratio but no ± (as hyperfine).
func TestRelateSingleRunHasNoStddev(t *testing.T) {
	t.Parallel()
	f := fixture(spec{Label: "one", Samples: []float64{1}}, spec{Label: "two", Samples: []float64{2, 2.2}})
	rel := Relate(f)
	if r := rel.Rows[1]; !r.OK || !near(r.Ratio.Ratio, 2.1) || r.Stddev != 0 {
		t.Errorf("two against a single-run reference: %+v, want 2.1 ± 0", r)
	}
}
