package export

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/report"
)

// CSV writes one row per result, in input order, as hyperfine's CSV export:
//
//	label,cell,parameter_<name>...,mean,stddev,median,user,system,min,max,
//	ns_per_cell,relative,relative_stddev,runs,failed
//
// There is one parameter_<name> column for every parameter name of any
// result or of the file (sorted; hyperfine's prefix keeps them apart from
// the fixed columns); a result's value is its own, else the file's common
// one. Times are in seconds, user and system are the mean process CPU times,
// ns_per_cell is per unit of work (cell or call), relative and
// relative_stddev are against harness.File.ReferenceResult (1 and 0 for the reference
// itself), runs counts successful runs and failed the failed ones. Numbers
// are written in full precision. A result without a successful run has its
// statistics and relative fields left empty.
func CSV(w io.Writer, f *harness.File) error {
	if f == nil {
		return errors.New("CSV export: no results file")
	}
	params := paramNames(f)
	header := []string{"label", "cell"}
	for _, p := range params {
		header = append(header, "parameter_"+p)
	}
	header = append(header, "mean", "stddev", "median", "user", "system", "min", "max",
		"ns_per_cell", "relative", "relative_stddev", "runs", "failed")

	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return fmt.Errorf("write CSV header: %w", err)
	}
	ref := f.ReferenceResult()
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
		} else {
			row = append(row, "", "", "", "", "", "", "", "")
		}
		if rel, sd, has := report.Relative(r, ref); has {
			row = append(row, num(rel), num(sd))
		} else {
			row = append(row, "", "")
		}
		row = append(row, strconv.Itoa(ok), strconv.Itoa(len(r.Runs)-ok))
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
	names := make([]string, 0, len(seen))
	for k := range seen {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// paramValue is r's value for parameter name: its own, else the file's.
func paramValue(f *harness.File, r *harness.Result, name string) string {
	if v, ok := r.Params[name]; ok {
		return v
	}
	return f.Params[name]
}
