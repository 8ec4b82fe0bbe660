package analysis

// This file is the relative figures of one results file: the groups of
// equal work, each group's reference, and each result's ratio of means to
// it with hyperfine's first-order error propagation. The σ of a ratio
// assumes the two means independent and their relative errors small; the
// figures describe the runs and test nothing.

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/harness/stats"
)

// Basis is what a relative figure divides.
type Basis string

// The bases.
const (
	// BasisTime divides mean wall times: every result of the file does the
	// same work (hyperfine's relative speed).
	BasisTime Basis = "time"
	// BasisPerUnit divides mean times per unit of work (ns/cell, ns/call):
	// the file's results do different amounts of work (a parameter scan).
	BasisPerUnit Basis = "per-unit"
)

// IncumbentCell is Go's incumbent root handle, runtime/cgo.Handle: when it
// is in a message-passing file, every result is also stated against it.
const IncumbentCell = "cgo-handle"

// Relatives is every relative figure of one file: how its results are
// grouped by equal work, each group's reference, and each result's ratio to
// it.
type Relatives struct {
	Basis Basis
	// Unit is what a unit of work is: "cell" or "call".
	Unit   string
	Groups []Group
	// Rows has one entry per f.Results, at the same index.
	Rows []Relative
	// Incumbent is IncumbentCell when the file is a message-passing file
	// holding it (Relative.Incumbent is then filled), else "".
	Incumbent string
	// Warnings explain a requested reference that could not be honoured.
	Warnings []string
}

// Group is a set of results compared with one reference.
type Group struct {
	// Name is the group's parameters that vary across the file
	// ("batch-size=16"); "" when the file has a single group.
	Name string
	// Params holds those parameters.
	Params map[string]string
	// Members are indices into f.Results, in input order.
	Members []int
	// Reference is the index of the group's reference in f.Results, -1 when
	// no member has a successful run.
	Reference int
}

// Ratio is a ratio of two means with its standard deviation by first-order
// error propagation (hyperfine's formula; 0 when either side has a single
// run). OK is false when there is no ratio (no successful run, a mean that
// is not positive).
type Ratio struct {
	Ratio, Stddev float64
	OK            bool
}

// Inverse is 1/r with its standard deviation by the same first-order error
// propagation, σ(1/r) = σ/r²: a ratio of times turned into a speed-up ("×
// faster than"). It is not OK when r is not OK or not positive.
func (r Ratio) Inverse() Ratio {
	if !r.OK || !(r.Ratio > 0) {
		return Ratio{}
	}
	return Ratio{Ratio: 1 / r.Ratio, Stddev: r.Stddev / (r.Ratio * r.Ratio), OK: true}
}

// Relative is one result's relative figures.
type Relative struct {
	// Group is the index of the result's group in Relatives.Groups.
	Group int
	// Reference is the index of the group's reference in f.Results (-1
	// when none), and IsReference marks the reference itself (1 ± 0).
	Reference   int
	IsReference bool
	// Ratio is this result over the reference, on the Basis.
	Ratio
	// Incumbent is this result over the group's IncumbentCell result.
	Incumbent Ratio
}

// BasisLabel names the basis for people: "" for BasisTime, "per cell" or
// "per call" for BasisPerUnit.
func (r *Relatives) BasisLabel() string {
	if r.Basis == BasisPerUnit {
		return "per " + r.Unit
	}
	return ""
}

// Unit returns what a unit of work is in f: "cell" (the default) or "call".
func Unit(f *harness.File) string {
	if f == nil || f.Unit == "" {
		return "cell"
	}
	return f.Unit
}

// UnitTimes returns the time per unit of work of every successful run, in
// nanoseconds (wall_ns / cells), in run order. Runs that did no work are
// left out.
func UnitTimes(r *harness.Result) []float64 {
	out := make([]float64, 0, len(r.Runs))
	for _, run := range r.Runs {
		if !run.Failed && run.Cells > 0 {
			out = append(out, float64(run.WallNs)/float64(run.Cells))
		}
	}
	return out
}

// workKey identifies the work a result does: its effective parameters
// (the file's merged with its own) without the one naming the cell.
func workKey(f *harness.File, r *harness.Result) map[string]string {
	m := make(map[string]string, len(f.Params)+len(r.Params))
	maps.Copy(m, f.Params)
	maps.Copy(m, r.Params)
	for k := range m {
		if strings.EqualFold(k, "cell") || strings.EqualFold(k, "variant") {
			delete(m, k)
		}
	}
	return m
}

func keyString(m map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(m)) {
		fmt.Fprintf(&b, "%s=%s\x00", k, m[k])
	}
	return b.String()
}

// Relate decides every relative figure of f:
//
//   - Results doing the same work (equal parameters apart from the cell)
//     form a group. When the whole file is one group, the relatives divide
//     mean wall times (BasisTime), as hyperfine's do.
//   - When the file holds several groups each with two results or more (a
//     scan crossing cells with parameters), each group has its own
//     reference and the relatives divide mean times per unit of work
//     (BasisPerUnit), labelled so.
//   - Otherwise (a scan of one cell, or groups of one), the whole file is
//     one group compared per unit of work: which parameter costs least per
//     cell.
//
// The reference of a group is f.Reference when it names one of its
// members (a label), or its member of the cell f.Reference names (or of
// the cell of the result it labels); otherwise, or when that member has no
// successful run, the group's fastest member on the basis, with a warning
// when a request was not honoured.
func Relate(f *harness.File) *Relatives {
	if f == nil {
		return &Relatives{Basis: BasisTime, Unit: Unit(f)}
	}
	rel := &Relatives{Basis: BasisTime, Unit: Unit(f), Rows: make([]Relative, len(f.Results))}
	keys := make([]map[string]string, len(f.Results))
	index := map[string]int{}
	var groups []Group
	for i := range f.Results {
		keys[i] = workKey(f, &f.Results[i])
		k := keyString(keys[i])
		g, ok := index[k]
		if !ok {
			g = len(groups)
			index[k] = g
			groups = append(groups, Group{})
		}
		groups[g].Members = append(groups[g].Members, i)
	}
	varying := varyingKeys(keys)
	perGroup := len(groups) > 1
	for _, g := range groups {
		if len(g.Members) < 2 {
			perGroup = false
		}
	}
	switch {
	case len(groups) <= 1:
		// One group of equal work: wall time.
	case perGroup:
		rel.Basis = BasisPerUnit
		for gi := range groups {
			p := map[string]string{}
			for _, k := range varying {
				p[k] = keys[groups[gi].Members[0]][k]
			}
			groups[gi].Params = p
			groups[gi].Name = paramsName(p, varying)
		}
	default:
		rel.Basis = BasisPerUnit
		all := make([]int, len(f.Results))
		for i := range all {
			all[i] = i
		}
		groups = []Group{{Members: all}}
	}
	if len(groups) == 0 {
		return rel
	}
	rel.Groups = groups

	values := make([]meanSD, len(f.Results))
	for i := range f.Results {
		values[i] = basisValue(&f.Results[i], rel.Basis)
	}
	refLabel, refCell := resolveRequest(f)
	if f.Reference != "" && refLabel == "" && refCell == "" {
		rel.Warnings = append(rel.Warnings, fmt.Sprintf("reference %q names no benchmark; each group is compared with its fastest instead", f.Reference))
	}
	if f.Workload == "msgpass" {
		for i := range f.Results {
			if f.Results[i].Cell == IncumbentCell {
				rel.Incumbent = IncumbentCell
			}
		}
	}
	for gi := range rel.Groups {
		g := &rel.Groups[gi]
		g.Reference = pickReference(f, g.Members, values, refLabel, refCell, &rel.Warnings)
		inc := -1
		if rel.Incumbent != "" {
			for _, i := range g.Members {
				if f.Results[i].Cell == IncumbentCell && values[i].ok {
					inc = i
					break
				}
			}
		}
		for _, i := range g.Members {
			row := Relative{Group: gi, Reference: g.Reference, IsReference: i == g.Reference}
			if g.Reference >= 0 {
				row.Ratio = ratioOf(values[i], values[g.Reference], i == g.Reference)
			}
			if inc >= 0 {
				row.Incumbent = ratioOf(values[i], values[inc], i == inc)
			}
			rel.Rows[i] = row
		}
	}
	return rel
}

// varyingKeys returns the parameter names whose values differ across keys,
// sorted.
func varyingKeys(keys []map[string]string) []string {
	seen := map[string]bool{}
	for _, k := range keys {
		for name := range k {
			seen[name] = true
		}
	}
	var out []string
	for name := range seen {
		for _, k := range keys[1:] {
			a, aok := keys[0][name]
			b, bok := k[name]
			if a != b || aok != bok {
				out = append(out, name)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

func paramsName(p map[string]string, order []string) string {
	parts := make([]string, 0, len(order))
	for _, k := range order {
		if v, ok := p[k]; ok {
			parts = append(parts, k+"="+v)
		}
	}
	return strings.Join(parts, " ")
}

// meanSD is a result's mean and standard deviation on a basis, over n runs.
type meanSD struct {
	mean, sd float64
	n        int
	ok       bool
}

// basisValue is r's mean and standard deviation on basis b: the
// harness's statistics of its wall times (harness.Summarize, the figures
// the tables show) for BasisTime, those of its times per unit of work
// (UnitTimes) for BasisPerUnit.
func basisValue(r *harness.Result, b Basis) meanSD {
	if b == BasisPerUnit {
		s := stats.Describe(UnitTimes(r))
		return meanSD{mean: s.Mean, sd: s.Stddev, n: s.N, ok: s.N > 0 && s.Mean > 0}
	}
	n := len(r.WallSeconds())
	return meanSD{mean: r.Mean, sd: r.Stddev, n: n, ok: n > 0 && r.Mean > 0}
}

func ratioOf(x, ref meanSD, same bool) Ratio {
	if !x.ok || !ref.ok {
		return Ratio{}
	}
	if same {
		return Ratio{Ratio: 1, OK: true}
	}
	r, sd, ok := stats.Relative(x.mean, x.sd, ref.mean, ref.sd)
	if !ok {
		return Ratio{}
	}
	if x.n < 2 || ref.n < 2 {
		sd = 0 // as hyperfine: no uncertainty without a spread on both sides
	}
	return Ratio{Ratio: r, Stddev: sd, OK: true}
}

// resolveRequest resolves f.Reference into the label it names (if any) and
// the cell whose result is each group's reference.
func resolveRequest(f *harness.File) (label, cell string) {
	if f.Reference == "" {
		return "", ""
	}
	for i := range f.Results {
		if f.Results[i].Label == f.Reference {
			return f.Reference, f.Results[i].Cell
		}
	}
	for i := range f.Results {
		if f.Results[i].Cell == f.Reference {
			return "", f.Reference
		}
	}
	return "", ""
}

// pickReference chooses a group's reference (see Relate).
func pickReference(f *harness.File, members []int, values []meanSD, label, cell string, warnings *[]string) int {
	fastest := -1
	for _, i := range members {
		if values[i].ok && (fastest < 0 || values[i].mean < values[fastest].mean) {
			fastest = i
		}
	}
	want := -1
	for _, i := range members {
		if label != "" && f.Results[i].Label == label {
			want = i
			break
		}
	}
	if want < 0 && cell != "" {
		for _, i := range members {
			if f.Results[i].Cell == cell {
				want = i
				break
			}
		}
	}
	if want >= 0 && !values[want].ok {
		if fastest >= 0 {
			*warnings = append(*warnings, fmt.Sprintf("reference %q has no successful runs; its group is compared with its fastest, %q, instead",
				f.Results[want].Label, f.Results[fastest].Label))
		}
		return fastest
	}
	if want < 0 {
		return fastest
	}
	return want
}

// Order returns the indices of f.Results group by group (groups in input
// order); within a group members keep their input order, or when
// fastestFirst they go fastest first on the basis, results without a
// successful run last.
func (r *Relatives) Order(f *harness.File, fastestFirst bool) []int {
	out := make([]int, 0, len(r.Rows))
	for _, g := range r.Groups {
		m := slices.Clone(g.Members)
		if fastestFirst {
			vals := map[int]meanSD{}
			for _, i := range m {
				vals[i] = basisValue(&f.Results[i], r.Basis)
			}
			sort.SliceStable(m, func(a, b int) bool {
				va, vb := vals[m[a]], vals[m[b]]
				if va.ok != vb.ok {
					return va.ok
				}
				return va.ok && va.mean < vb.mean
			})
		}
		out = append(out, m...)
	}
	return out
}

// BasisString is the RelativeBasis recorded in a results file: "time", or
// "per cell" / "per call".
func (r *Relatives) BasisString() string {
	if r.Basis == BasisPerUnit {
		return r.BasisLabel()
	}
	return string(BasisTime)
}

// Annotate fills every Result's Relative, RelativeStddev, RelativeBasis and
// RelativeTo from Relate, and its CPUNsPerCell (CPUPerUnit), so that an
// exported file carries the figures the reports show. Results without a
// ratio get zeros and empty strings, without CPU time a zero.
func Annotate(f *harness.File) *Relatives {
	rel := Relate(f)
	if f == nil {
		return rel
	}
	for i := range f.Results {
		r, row := &f.Results[i], rel.Rows[i]
		r.Relative, r.RelativeStddev, r.RelativeBasis, r.RelativeTo = 0, 0, "", ""
		r.CPUNsPerCell, _ = CPUPerUnit(r)
		if row.OK {
			r.Relative, r.RelativeStddev = row.Ratio.Ratio, row.Stddev
			r.RelativeBasis = rel.BasisString()
			r.RelativeTo = f.Results[row.Reference].Label
		}
	}
	return rel
}
