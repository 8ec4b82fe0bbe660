package harness

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
	"golang.org/x/perf/benchunit"
)

// GoBenchWorkload is the Workload of a File read from Go benchmark text
// (DecodeGoBench): its results are the benchmarks, its unit of work is one
// op, and every comparison of it is per op.
const GoBenchWorkload = "go test -bench"

// GoBenchOps is the work a Run read from Go benchmark text stands for: ten
// million ops at the line's rate (see DecodeGoBench).
const GoBenchOps = 10_000_000

// GoBenchText is what a File read from Go benchmark text holds beyond its
// runs.
type GoBenchText struct {
	// Units are the units the text carries, in the order they first
	// appear, with what its `Unit` lines declare of them.
	Units []GoBenchUnit
}

// GoBenchUnit is one unit of Go benchmark text, named as benchfmt tidies it
// (sec/op for ns/op, B/s for MB/s; others as written), with what benchfmt
// reads of it from the text's `Unit NAME key=value` lines.
type GoBenchUnit struct {
	Name string
	// Exact is true when the unit is declared assume=exact
	// (benchmath.AssumeExact: every run measures the same value).
	Exact bool
	// Better is +1 when higher values are better (B/s, or better=higher),
	// -1 when lower values are (sec/op, B/op, allocs/op, or better=lower),
	// 0 when the text does not say (benchfmt's GetBetter).
	Better int
}

// DecodeGoBench reads Go benchmark text (the output of go test -bench, the
// format benchstat reads; golang.org/x/perf/benchfmt parses it) into a
// File, so that compare can judge it:
//
//   - one Result per benchmark and configuration (the file's `key: value`
//     lines in force, which benchstat's tables are keyed by), labelled with
//     its full name as benchstat shows it ("Encode/format=json-48"),
//     prefixed by its package when the text holds several ("pkg: ..."),
//     and followed by the configuration keys that tell it apart when the
//     text holds the same name under several configurations; Params holds
//     the configuration;
//   - one Run per result line, its Values every value of the line by unit
//     as benchfmt tidies it (sec/op, B/op, allocs/op, B/s, custom units),
//     the values benchstat reads; GoBench lists the units and what the
//     text's `Unit` lines declare of them;
//   - a line with a positive time per op (ns/op, or any time unit benchfmt
//     converts to sec/op) also holds it as the time of GoBenchOps ops at
//     that rate: Cells is GoBenchOps and WallNs the time per op in
//     nanoseconds times GoBenchOps, rounded, so that WallNs/Cells is the
//     printed ns/op itself (go test prints at most seven decimals, which
//     the scale keeps, and an op of up to about 15 minutes fits);
//   - goos, goarch and cpu from the configuration lines fill Machine.
//
// It fails on a syntax error and on a value that is not finite, naming the
// line, and on text that holds no benchmark result.
func DecodeGoBench(r io.Reader, name string) (*File, error) {
	f := &File{Schema: Schema, Workload: GoBenchWorkload, Unit: "op", Tool: Tool{Name: "go test -bench"}, GoBench: &GoBenchText{}}
	type key struct{ config, name string }
	index := map[key]int{}
	var order []key
	var configs []map[string]string
	var runs [][]Run
	pkgs := map[string]bool{}
	var units []string
	rd := benchfmt.NewReader(r, name)
	seq := 0
	for rd.Scan() {
		switch rec := rd.Result().(type) {
		case *benchfmt.SyntaxError:
			return nil, fmt.Errorf("%s: not Go benchmark text: %w", name, rec)
		case *benchfmt.Result:
			_, line := rec.Pos()
			run := Run{Values: map[string]float64{}}
			for _, v := range rec.Values {
				if math.IsNaN(v.Value) || math.IsInf(v.Value, 0) {
					return nil, fmt.Errorf("%s:%d: benchmark %s: %v %s: need a finite value", name, line, rec.Name.Full(), v.Value, cmp.Or(v.OrigUnit, v.Unit))
				}
				// benchfmt leaves a 0 in its unit as written (0 ns/op):
				// its tidied unit is the one its other lines have.
				_, unit := benchunit.Tidy(1, v.Unit)
				run.Values[unit] = v.Value
				if !slices.Contains(units, unit) {
					units = append(units, unit)
				}
			}
			if ns, ok := nsPerOp(rec); ok && ns > 0 && ns*GoBenchOps < math.MaxInt64/2 {
				run.WallNs, run.Cells = max(int64(math.Round(ns*GoBenchOps)), 1), GoBenchOps
			}
			config := fileConfig(rec)
			k := key{fmt.Sprintf("%q", config), string(rec.Name.Full())} // fmt sorts a map's keys
			pkgs[config["pkg"]] = true
			i, seen := index[k]
			if !seen {
				i = len(order)
				index[k] = i
				order = append(order, k)
				configs = append(configs, config)
				runs = append(runs, nil)
			}
			seq++
			run.Index = seq
			runs[i] = append(runs[i], run)
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
	meta := rd.Units()
	for _, u := range units {
		f.GoBench.Units = append(f.GoBench.Units, GoBenchUnit{Name: u, Exact: meta.GetAssumption(u) == benchmath.AssumeExact, Better: meta.GetBetter(u)})
	}
	labels := make([]string, len(order))
	for i, k := range order {
		labels[i] = k.name
		if len(pkgs) > 1 && configs[i]["pkg"] != "" {
			labels[i] = configs[i]["pkg"] + " " + k.name
		}
	}
	distinguish(labels, configs)
	for i := range order {
		f.Results = append(f.Results, Result{Cell: labels[i], Label: labels[i], Params: configs[i], Runs: runs[i]})
	}
	return f, nil
}

// fileConfig is a result's file configuration: the `key: value` lines in
// force where it was read (benchstat's .config), without the keys of the
// benchmark's name.
func fileConfig(rec *benchfmt.Result) map[string]string {
	m := map[string]string{}
	for _, c := range rec.Config {
		if c.File {
			m[c.Key] = string(c.Value)
		}
	}
	return m
}

// distinguish appends to every label that several results share the
// configuration keys whose values tell them apart ("Size note=before").
func distinguish(labels []string, configs []map[string]string) {
	byLabel := map[string][]int{}
	for i, l := range labels {
		byLabel[l] = append(byLabel[l], i)
	}
	for _, idx := range byLabel {
		if len(idx) < 2 {
			continue
		}
		keys := map[string]bool{}
		for _, i := range idx {
			for k := range configs[i] {
				keys[k] = true
			}
		}
		var differ []string
		for _, k := range slices.Sorted(maps.Keys(keys)) {
			first, had := configs[idx[0]][k]
			for _, i := range idx[1:] {
				if v, ok := configs[i][k]; ok != had || v != first {
					differ = append(differ, k)
					break
				}
			}
		}
		for _, i := range idx {
			var parts []string
			for _, k := range differ {
				parts = append(parts, k+"="+configs[i][k])
			}
			labels[i] += " " + strings.Join(parts, " ")
		}
	}
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
