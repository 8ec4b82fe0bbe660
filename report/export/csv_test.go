package export

import (
	"bytes"
	"encoding/csv"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/analysis"
)

func TestCSV(t *testing.T) {
	t.Parallel()
	f := fixture()
	var b bytes.Buffer
	if err := CSV(&b, f); err != nil {
		t.Fatal(err)
	}
	recs, col := readCSV(t, &b)
	wantHeader := "label,cell,parameter_batch-size,parameter_max-delay,parameter_niters,mean,stddev,median,user,system,min,max,ns_per_cell,relative,relative_stddev,relative_basis,relative_to,runs,failed,partial"
	if got := strings.Join(recs[0], ","); got != wantHeader {
		t.Fatalf("header = %s\nwant     %s", got, wantHeader)
	}
	if len(recs) != 1+len(f.Results) {
		t.Fatalf("%d rows, want a header and one per result", len(recs))
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
	recs, _ = readCSV(t, &b)
	if row := recs[3]; row[col["mean"]] != "" || row[col["relative"]] != "" || row[col["runs"]] != "0" || row[col["failed"]] != "3" {
		t.Errorf("failed result row = %q", row)
	}
}

// readCSV parses a CSV export and maps each name of its header to its
// column.
func readCSV(t *testing.T, r io.Reader) (recs [][]string, col map[string]int) {
	t.Helper()
	recs, err := csv.NewReader(r).ReadAll()
	if err != nil || len(recs) == 0 {
		t.Fatalf("CSV does not parse back: %v", err)
	}
	col = map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	return recs, col
}
