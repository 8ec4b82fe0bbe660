package analysis

// This file is a comparison's headline: the answers a newcomer wants before
// the table, which result is fastest and how far boxroot is from
// cgo.Handle, decided from the same means and ratios as the table's.

import "github.com/rootbench/rootbench/harness"

// ControlCell is the message-passing workload's control, the value itself
// with no rooting work (the seed benchmark's ocaml): when it is fastest, the
// headline also names the fastest result that roots something.
const ControlCell = "ocaml"

// BoxrootCell is Go boxroot, which the headline states against
// IncumbentCell.
const BoxrootCell = "boxroot"

// Headline is what a comparison of equal work answers first. Indexes are
// into f.Results, -1 when absent.
type Headline struct {
	// Fastest is the result of least mean wall time, when the file's
	// results do equal work (one group on BasisTime) and at least two have
	// a successful run; -1 otherwise, and then the rest is absent too.
	Fastest int
	// FastestHandle, when Fastest is the control (ControlCell in a
	// message-passing file), is the fastest other result, and OverControl
	// its mean time over the control's.
	FastestHandle int
	OverControl   Ratio
	// Boxroot and Incumbent are BoxrootCell's and IncumbentCell's results
	// when both have a successful run, and BoxrootSpeedup the incumbent's
	// mean time over boxroot's (above 1: boxroot is that many times faster),
	// with the table's error propagation.
	Boxroot, Incumbent int
	BoxrootSpeedup     Ratio
}

// Lead decides f's headline from its relatives (Relate(f)).
func Lead(f *harness.File, rel *Relatives) Headline {
	h := Headline{Fastest: -1, FastestHandle: -1, Boxroot: -1, Incumbent: -1}
	if f == nil || rel == nil || rel.Basis != BasisTime || len(rel.Groups) != 1 || len(rel.Rows) != len(f.Results) {
		return h
	}
	values := make([]meanSD, len(f.Results))
	ok := 0
	for i := range f.Results {
		values[i] = basisValue(&f.Results[i], BasisTime)
		if values[i].ok {
			ok++
		}
	}
	if ok < 2 {
		return h
	}
	fastestExcept := func(skip int) int {
		best := -1
		for i, v := range values {
			if i != skip && v.ok && (best < 0 || v.mean < values[best].mean) {
				best = i
			}
		}
		return best
	}
	h.Fastest = fastestExcept(-1)
	msgpass := f.Workload == "msgpass"
	if msgpass && f.Results[h.Fastest].Cell == ControlCell {
		h.FastestHandle = fastestExcept(h.Fastest)
		h.OverControl = ratioOf(values[h.FastestHandle], values[h.Fastest], false)
	}
	if msgpass && rel.Incumbent != "" {
		for i := range f.Results {
			switch {
			case !values[i].ok:
			case f.Results[i].Cell == BoxrootCell && h.Boxroot < 0:
				h.Boxroot = i
			case f.Results[i].Cell == IncumbentCell && h.Incumbent < 0:
				h.Incumbent = i
			}
		}
		if h.Boxroot < 0 || h.Incumbent < 0 {
			h.Boxroot, h.Incumbent = -1, -1
		} else {
			h.BoxrootSpeedup = rel.Rows[h.Boxroot].Incumbent.Inverse()
		}
	}
	return h
}
