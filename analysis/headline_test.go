package analysis

import (
	"testing"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/internal/harnesstest"
)

// leadFile is a message-passing file of boxroot, the control (ocaml), ref
// and the incumbent (cgo-handle), in that order, each with 8 runs.
func leadFile() *harness.File {
	f := fixture(
		spec{Label: "boxroot", Samples: noisy(1, 8, 1.7, 0.05)},
		spec{Label: "ocaml", Samples: noisy(2, 8, 0.8, 0.05)},
		spec{Label: "ref", Samples: noisy(3, 8, 2.7, 0.05)},
		spec{Label: "cgo-handle", Samples: noisy(4, 8, 20, 0.05)},
	)
	f.Workload = "msgpass"
	return f
}

// The headline reads the same means as the table: its ratios are the
// relatives' own.
func TestLeadNamesTheFastestAndBoxrootAgainstTheIncumbent(t *testing.T) {
	t.Parallel()
	f := leadFile()
	rel := Relate(f)
	h := Lead(f, rel)
	if h.Fastest != 1 || h.FastestHandle != 0 {
		t.Fatalf("Lead = %+v; want the control (ocaml) fastest and boxroot the fastest root handle", h)
	}
	if want := ratioOf(basisValue(&f.Results[0], BasisTime), basisValue(&f.Results[1], BasisTime), false); h.OverControl != want || !(h.OverControl.Ratio > 1) {
		t.Errorf("OverControl = %+v, want boxroot's time over ocaml's %+v", h.OverControl, want)
	}
	if h.Boxroot != 0 || h.Incumbent != 3 || h.BoxrootSpeedup != rel.Rows[0].Incumbent.Inverse() || !(h.BoxrootSpeedup.Ratio > 1) {
		t.Errorf("Lead = %+v; want boxroot against cgo-handle as the table's column states it (%+v)", h, rel.Rows[0].Incumbent.Inverse())
	}

	// Without the control, the fastest is a root handle: nothing more to
	// name. Without cgo-handle, nothing to state boxroot against.
	g := fixture(spec{Label: "ref", Samples: noisy(3, 8, 2.7, 0.05)}, spec{Label: "boxroot", Samples: noisy(1, 8, 1.7, 0.05)})
	g.Workload = "msgpass"
	if h := Lead(g, Relate(g)); h.Fastest != 1 || h.FastestHandle != -1 || h.Boxroot != -1 || h.Incumbent != -1 {
		t.Errorf("Lead without control and incumbent = %+v; want boxroot fastest and nothing else", h)
	}
}

func TestLeadSaysNothingItCannotDecide(t *testing.T) {
	t.Parallel()
	none := Headline{Fastest: -1, FastestHandle: -1, Boxroot: -1, Incumbent: -1}
	one := fixture(spec{Label: "boxroot", Samples: noisy(1, 8, 1.7, 0.05)}, spec{Label: "cgo-handle", Failed: 3})
	one.Workload = "msgpass"
	scan := harnesstest.Scan(harnesstest.ScanOptions{Seed: 1, Rounds: 4})
	callback := fixture(spec{Label: "plain", Samples: noisy(1, 8, 1, 0.05)}, spec{Label: "pipe", Samples: noisy(2, 8, 9, 0.05)})
	callback.Workload = "callback"
	for name, h := range map[string]Headline{
		"one successful result": Lead(one, Relate(one)),
		"a scan":                Lead(scan, Relate(scan)),
		"nil":                   Lead(nil, nil),
	} {
		if h != none {
			t.Errorf("%s: Lead = %+v, want nothing decided", name, h)
		}
	}
	if h := Lead(callback, Relate(callback)); h.Fastest != 0 || h.FastestHandle != -1 || h.Boxroot != -1 {
		t.Errorf("callback: Lead = %+v; want the fastest variant and nothing about cells", h)
	}
}
