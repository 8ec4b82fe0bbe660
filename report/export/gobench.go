package export

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/perf/benchfmt"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/report"
)

// GoBench writes every successful run in the Go benchmark format
// (https://golang.org/design/14313-benchmark-format) through benchfmt, so
// benchstat can compare two files:
//
//	goos: linux
//	goarch: amd64
//	cpu: ...
//	workload: msgpass
//	unit: cell
//	batch-size: 1024
//	...
//
//	BenchmarkMsgpass/cell=boxroot-2   102400000   16.46 ns/op   0 B/op   0 allocs/op   1.2 gc-cpu-%   21000000 peak-RSS-bytes
//
// The convention is the testing package's: an op is one unit of work (one
// cell, or one call when the file's unit is "call", as the "unit"
// configuration line says), the iteration count is the number of cells the
// run processed, and every "/op" value is the run's total divided by it:
// ns/op is the workload wall time per cell, B/op and allocs/op the heap
// bytes and objects allocated per cell. So iterations × ns/op is the run's
// wall time, and benchstat's sec/op compares the time per cell, with one
// sample per run. gc-cpu-% (GC CPU as a percent of the process's CPU) and
// peak-RSS-bytes are per-run figures, not per op.
//
// Configuration lines come from the file's metadata (goos, goarch, cpu, and
// rootbench's workload, unit, machine, go-version, rootbench, revision,
// partial) and from every parameter that has one value across all results.
// The benchmark name is the capitalised workload, then sub-benchmark parts
// cell=<cell> and <param>=<value> for each parameter that varies (sorted by
// name), then -<GOMAXPROCS> as recorded in machine.gomaxprocs (1 when
// unknown). The suffix is always written, so that a value ending in
// "-<digits>" (max-delay=-1) is never taken for it. Whitespace and '/' in a
// part are replaced by '_'. Failed runs are left out. A successful run with
// no cells has no per-op figures and is an error.
func GoBench(w io.Writer, f *harness.File) error {
	if f == nil {
		return errors.New("gobench export: no results file")
	}
	common, varying := splitParams(f)
	var config []benchfmt.Config
	add := func(key, value string) {
		value = strings.Join(strings.Fields(value), " ")
		if value != "" {
			config = append(config, benchfmt.Config{Key: key, Value: []byte(value), File: true})
		}
	}
	add("goos", f.Machine.OS)
	add("goarch", f.Machine.Arch)
	add("cpu", f.Machine.CPUModel)
	add("workload", f.Workload)
	add("unit", analysis.Unit(f))
	add("machine", f.Machine.Hostname)
	add("go-version", f.Tool.GoVersion)
	add("rootbench", f.Tool.Version)
	rev := f.Tool.Revision
	if rev != "" && f.Tool.Modified {
		rev += " (modified)"
	}
	add("revision", rev)
	if f.Partial {
		add("partial", "true")
	}
	for _, k := range report.SortedKeys(common) {
		add(configKey(k), common[k])
	}

	procs := f.Machine.GOMAXPROCS
	if procs < 1 {
		procs = 1
	}
	base := benchBase(f.Workload)
	bw := benchfmt.NewWriter(w)
	for i := range f.Results {
		r := &f.Results[i]
		var name strings.Builder
		name.WriteString(base)
		name.WriteString("/cell=" + namePart(r.Cell))
		for _, k := range varying {
			name.WriteString("/" + namePart(k) + "=" + namePart(paramValue(f, r, k)))
		}
		name.WriteString("-" + strconv.Itoa(procs))
		for j := range r.Runs {
			run := &r.Runs[j]
			if run.Failed {
				continue
			}
			if run.Cells <= 0 {
				return fmt.Errorf("gobench export: result %q run %d succeeded with %d %ss: no per-op figures", r.Label, j+1, run.Cells, analysis.Unit(f))
			}
			n := float64(run.Cells)
			ns := float64(run.WallNs) / n
			res := &benchfmt.Result{
				Config: config,
				Name:   benchfmt.Name(name.String()),
				Iters:  int(run.Cells),
				Values: []benchfmt.Value{
					{Value: ns / 1e9, Unit: "sec/op", OrigValue: ns, OrigUnit: "ns/op"},
					{Value: float64(run.GC.HeapAllocBytes) / n, Unit: "B/op"},
					{Value: float64(run.GC.HeapAllocObjs) / n, Unit: "allocs/op"},
					{Value: run.GC.CPUPercent, Unit: "gc-cpu-%"},
					{Value: float64(run.PeakRSSBytes), Unit: "peak-RSS-bytes"},
				},
			}
			if err := bw.Write(res); err != nil {
				return fmt.Errorf("gobench export: write %s: %w", r.Label, err)
			}
		}
	}
	return nil
}

// splitParams separates the parameters with one value across every result
// (a result's own value, else the file's) from those that vary, which are
// returned sorted. "cell" is left out: the cell is always in the name.
func splitParams(f *harness.File) (common map[string]string, varying []string) {
	common = map[string]string{}
	for _, k := range paramNames(f) {
		if k == "cell" {
			continue
		}
		same := true
		first := ""
		for i := range f.Results {
			v := paramValue(f, &f.Results[i], k)
			if i == 0 {
				first = v
			} else if v != first {
				same = false
				break
			}
		}
		if len(f.Results) == 0 {
			first = f.Params[k]
		}
		if same {
			common[k] = first
		} else {
			varying = append(varying, k)
		}
	}
	return common, varying
}

// benchBase is the benchmark's base name: the workload, capitalised, with
// anything but letters and digits dropped ("Rootbench" when empty).
func benchBase(workload string) string {
	var b strings.Builder
	for _, c := range workload {
		if unicode.IsLetter(c) || unicode.IsDigit(c) {
			b.WriteRune(c)
		}
	}
	s := []rune(b.String())
	if len(s) == 0 {
		return "Rootbench"
	}
	s[0] = unicode.ToUpper(s[0])
	return string(s)
}

// namePart makes s safe inside a benchmark name: whitespace ends a name and
// '/' starts a new part, so both become '_'.
func namePart(s string) string {
	return strings.Map(func(c rune) rune {
		if unicode.IsSpace(c) || c == '/' {
			return '_'
		}
		return c
	}, s)
}

// configKey makes a parameter name a valid configuration key: lower case,
// no whitespace, no ':', and starting with a lower-case letter ("param-" is
// put in front otherwise).
func configKey(k string) string {
	k = strings.ToLower(strings.ReplaceAll(namePart(k), ":", "_"))
	if r, _ := utf8.DecodeRuneInString(k); !unicode.IsLower(r) {
		k = "param-" + k
	}
	return k
}
