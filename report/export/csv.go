package export

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/report"
)

// CSV writes one row per result, in input order, as hyperfine's CSV export:
//
//	label,cell,parameter_<name>...,mean,stddev,median,user,system,min,max,
//	ns_per_cell,[cpu_ns_per_cell,]relative,relative_stddev,relative_basis,
//	relative_to,runs,failed,partial
//
// There is one parameter_<name> column for every parameter name of any
// result or of the file (sorted; hyperfine's prefix keeps them apart from
// the fixed columns); a result's value is its own, else the file's common
// one. Times are in seconds, user and system are the mean process CPU times,
// ns_per_cell is per unit of work (cell or call), cpu_ns_per_cell the CPU
// time of the measured passes per unit (analysis.CPUPerUnit; the column is
// there when some result has it, empty for a result without); relative and
// relative_stddev are decided by analysis.Relate (1 and 0 for a reference),
// relative_basis says what they divide ("time", or "per cell"/"per call"
// when the results do different work) and relative_to names the reference
// of the result's group; runs counts successful runs and failed the failed
// ones; partial is true on every row of a file written before its run
// finished. Numbers are written in full precision. A result without a
// successful run has its statistics and relative fields left empty, and a
// single run's stddev is empty too (one run has no spread).
func CSV(w io.Writer, f *harness.File) error {
	if f == nil {
		return errors.New("CSV export: no results file")
	}
	params := paramNames(f)
	header := []string{"label", "cell"}
	for _, p := range params {
		header = append(header, "parameter_"+p)
	}
	header = append(header, "mean", "stddev", "median", "user", "system", "min", "max", "ns_per_cell")
	cpu := analysis.HasCPU(f)
	if cpu {
		header = append(header, "cpu_ns_per_cell")
	}
	header = append(header, "relative", "relative_stddev", "relative_basis", "relative_to", "runs", "failed", "partial")

	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return fmt.Errorf("write CSV header: %w", err)
	}
	rel := analysis.Relate(f)
	for i := range f.Results {
		r := &f.Results[i]
		row := []string{r.Label, r.Cell}
		for _, p := range params {
			row = append(row, paramValue(f, r, p))
		}
		ok := report.Successful(r)
		if ok > 0 {
			for _, x := range []float64{r.Mean, r.Stddev, r.Median, r.UserMean, r.SysMean, r.Min, r.Max, r.NsPerCell} {
				row = append(row, num(x))
			}
			if ok == 1 {
				row[len(row)-7] = "" // stddev: one run has no spread
			}
		} else {
			row = append(row, "", "", "", "", "", "", "", "")
		}
		if cpu {
			if ns, has := analysis.CPUPerUnit(r); has && ok > 0 {
				row = append(row, num(ns))
			} else {
				row = append(row, "")
			}
		}
		if x := rel.Rows[i]; x.OK {
			row = append(row, num(x.Ratio.Ratio), num(x.Stddev), rel.BasisString(), f.Results[x.Reference].Label)
		} else {
			row = append(row, "", "", "", "")
		}
		row = append(row, strconv.Itoa(ok), strconv.Itoa(len(r.Runs)-ok), strconv.FormatBool(f.Partial))
		if err := cw.Write(row); err != nil {
			return fmt.Errorf("write CSV row for %q: %w", r.Label, err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write CSV: %w", err)
	}
	return nil
}

// num formats x in full precision without an exponent.
func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// paramNames returns the sorted union of the parameter names of f and of
// every result.
func paramNames(f *harness.File) []string {
	seen := map[string]bool{}
	for k := range f.Params {
		seen[k] = true
	}
	for i := range f.Results {
		for k := range f.Results[i].Params {
			seen[k] = true
		}
	}
	return report.SortedKeys(seen)
}

// paramValue is r's value for parameter name: its own, else the file's.
func paramValue(f *harness.File, r *harness.Result, name string) string {
	if v, ok := r.Params[name]; ok {
		return v
	}
	return f.Params[name]
}
