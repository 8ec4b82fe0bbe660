package harness

import (
	"bytes"
	"fmt"
	"io"
	"math"

	"golang.org/x/perf/benchfmt"
)

// GoBenchWorkload is the Workload of a File read from Go benchmark text
// (DecodeGoBench): its results are the benchmarks, its unit of work is one
// op, and every comparison of it is per op.
const GoBenchWorkload = "go test -bench"

// GoBenchOps is the work a Run read from Go benchmark text stands for: ten
// million ops at the line's rate (see DecodeGoBench).
const GoBenchOps = 10_000_000

// DecodeGoBench reads Go benchmark text (the output of go test -bench, the
// format benchstat reads; golang.org/x/perf/benchfmt parses it) into a
// File, so that compare can judge it:
//
//   - one Result per benchmark, labelled with its full name as benchstat
//     shows it ("Encode/format=json-48"), prefixed by its package when the
//     text holds several ("pkg: ...");
//   - one Run per result line, holding its time per op (ns/op, or any
//     time unit benchfmt converts to sec/op) as the time of GoBenchOps ops
//     at that rate: Cells is GoBenchOps and WallNs the time per op in
//     nanoseconds times GoBenchOps, rounded. So WallNs/Cells is the
//     printed ns/op itself (go test prints at most seven decimals, which
//     the scale keeps, and an op of up to about 15 minutes fits) and
//     compare's samples are the ones benchstat reads, ties included;
//   - goos, goarch and cpu from the configuration lines fill Machine.
//
// Other units (B/op, allocs/op, custom metrics) are not compared. It fails
// on a syntax error, naming the line, and on text that holds no benchmark
// result.
func DecodeGoBench(r io.Reader, name string) (*File, error) {
	f := &File{Schema: Schema, Workload: GoBenchWorkload, Unit: "op", Tool: Tool{Name: "go test -bench"}}
	type key struct{ pkg, name string }
	index := map[key]int{}
	var order []key
	var runs [][]Run
	pkgs := map[string]bool{}
	rd := benchfmt.NewReader(r, name)
	seq := 0
	for rd.Scan() {
		switch rec := rd.Result().(type) {
		case *benchfmt.SyntaxError:
			return nil, fmt.Errorf("%s: not Go benchmark text: %w", name, rec)
		case *benchfmt.Result:
			_, line := rec.Pos()
			ns, ok := nsPerOp(rec)
			if !ok {
				return nil, fmt.Errorf("%s:%d: benchmark %s has no time per op (ns/op or sec/op)", name, line, rec.Name.Full())
			}
			wall := math.Round(ns * GoBenchOps)
			if !(ns > 0) || math.IsInf(ns, 0) || wall >= math.MaxInt64 {
				return nil, fmt.Errorf("%s:%d: benchmark %s: %v ns/op: need a positive finite time per op, below about 15 minutes",
					name, line, rec.Name.Full(), ns)
			}
			k := key{rec.GetConfig("pkg"), string(rec.Name.Full())}
			pkgs[k.pkg] = true
			i, seen := index[k]
			if !seen {
				i = len(order)
				index[k] = i
				order = append(order, k)
				runs = append(runs, nil)
			}
			seq++
			runs[i] = append(runs[i], Run{Index: seq, WallNs: max(int64(wall), 1), Cells: GoBenchOps})
			if f.Machine.OS == "" {
				f.Machine.OS, f.Machine.Arch, f.Machine.CPUModel = rec.GetConfig("goos"), rec.GetConfig("goarch"), rec.GetConfig("cpu")
			}
		}
	}
	if err := rd.Err(); err != nil {
		return nil, fmt.Errorf("%s: read: %w", name, err)
	}
	if len(order) == 0 {
		return nil, fmt.Errorf("%s: no benchmark result line (expected go test -bench output, e.g. \"BenchmarkX-8  1000  1234 ns/op\")", name)
	}
	for i, k := range order {
		label := k.name
		if len(pkgs) > 1 && k.pkg != "" {
			label = k.pkg + " " + k.name
		}
		f.Results = append(f.Results, Result{Cell: label, Label: label, Runs: runs[i]})
	}
	return f, nil
}

// DecodeAny reads a rootbench results file (JSON, see Decode) or Go
// benchmark text (DecodeGoBench), told apart by the first byte that is not
// white space: a results file starts with '{'.
func DecodeAny(r io.Reader, name string) (*File, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: read: %w", name, err)
	}
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] != '{' {
		return DecodeGoBench(bytes.NewReader(data), name)
	}
	return Decode(bytes.NewReader(data), name)
}

// LoadAny reads the results file or Go benchmark text at path ("-" reads
// standard input), with DecodeAny.
func LoadAny(path string) (*File, error) { return load(path, "results file", DecodeAny) }

// nsPerOp is a result line's time per op in nanoseconds: the ns/op value as
// printed when the line has one (so that no conversion rounds it), else
// benchfmt's sec/op (from another time unit) scaled.
func nsPerOp(rec *benchfmt.Result) (float64, bool) {
	for _, v := range rec.Values {
		switch {
		case v.Unit == "ns/op": // left untidied (benchfmt does so with 0)
			return v.Value, true
		case v.Unit == "sec/op" && v.OrigUnit == "ns/op":
			return v.OrigValue, true
		case v.Unit == "sec/op":
			return v.Value * 1e9, true
		}
	}
	return 0, false
}
