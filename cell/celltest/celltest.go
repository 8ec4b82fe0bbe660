// Package celltest is the conformance kit every cell implementation's own
// test runs:
//
//	func TestConformance(t *testing.T) {
//		celltest.Run(t, "ref", ref.New, celltest.Detects(celltest.AllMisuse))
//	}
//
// Run checks, each in its own subtest: a single domain (values survive a
// garbage collection while rooted and are released after Delete), cells
// deleted by a domain other than their creator, a concurrent stress in which
// most deletes are remote (meaningful under -race), random operation
// sequences against a model (pgregory.net/rapid), the invalid uses the
// implementation declares it detects, and, when the implementation counts
// live cells (cell.Liver), an exact leak check.
//
// Every check is a function returning an error, which Run reports; the kit's
// own tests run the same functions against deliberately broken toys.
package celltest

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/rootbench/rootbench/cell"
)

// Misuse is a set of invalid uses of a cell that an implementation detects
// by panicking with a message naming the implementation.
type Misuse uint

const (
	// ZeroHandle: Get of the zero value of the cell type panics.
	ZeroHandle Misuse = 1 << iota
	// DoubleDelete: a second Delete of the same cell (by its creator) panics.
	DoubleDelete
	// UseAfterDelete: Get of a deleted cell panics.
	UseAfterDelete

	// AllMisuse is every invalid use the kit knows.
	AllMisuse = ZeroHandle | DoubleDelete | UseAfterDelete
)

var misuseNames = []struct {
	m    Misuse
	name string
}{
	{ZeroHandle, "zero-handle"},
	{DoubleDelete, "double-delete"},
	{UseAfterDelete, "use-after-delete"},
}

// String lists the set's members, e.g. "zero-handle|double-delete", or
// "none" for the empty set.
func (m Misuse) String() string {
	var parts []string
	for _, n := range misuseNames {
		if m&n.m != 0 {
			parts = append(parts, n.name)
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "|")
}

// Option adjusts what Run checks.
type Option func(*config)

// Detects declares the invalid uses the implementation detects; Run asserts
// that each of them panics with a message containing the implementation's
// name. Undeclared invalid uses are not exercised (the default is none: a
// control such as the value-as-cell implementation cannot detect any).
func Detects(m Misuse) Option {
	return func(c *config) { c.detects |= m }
}

type config struct {
	detects Misuse
}

// sizes scales the checks; testing.Short() shrinks them, never skips them.
type sizes struct {
	single  int // cells in the single-domain check
	cross   int // cells per batch in the cross-domain check
	workers int // goroutines (domains) in the stress check
	rounds  int // batches each stress worker creates
	batch   int // cells per stress batch
	leakA   int // cells created by domain A in the leak check
	leakB   int // cells created by domain B in the leak check
}

func defaultSizes() sizes {
	s := sizes{single: 4096, cross: 1024, workers: 4, rounds: 128, batch: 64, leakA: 300, leakB: 200}
	if testing.Short() {
		s.single, s.cross, s.rounds, s.batch = 1024, 256, 16, 32
	}
	return s
}

// Run runs the whole conformance suite against the implementation built by newImpl
// (called afresh for each subtest). name is the implementation's name, which invalid-use
// panic messages must contain.
func Run[C any](t *testing.T, name string, newImpl func() cell.Impl[C], opts ...Option) {
	t.Helper()
	if name == "" {
		t.Fatal("celltest.Run: empty implementation name (panic messages must contain it)")
	}
	if newImpl == nil {
		t.Fatal("celltest.Run: nil newImpl")
	}
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.detects&^AllMisuse != 0 {
		t.Fatalf("celltest.Run: unknown misuse bits %#x (accepted: ZeroHandle, DoubleDelete, UseAfterDelete)", uint(cfg.detects&^AllMisuse))
	}
	sz := defaultSizes()

	check := func(sub string, f func() error) {
		t.Run(sub, func(t *testing.T) {
			if err := f(); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		})
	}
	check("single-domain", func() error { return checkSingleDomain(newImpl, sz.single) })
	check("release", func() error { return checkRelease(newImpl, sz.single) })
	check("cross-domain", func() error { return checkCrossDomain(newImpl, sz.cross) })
	check("stress", func() error { return checkStress(newImpl, sz.workers, sz.rounds, sz.batch) })
	t.Run("model", rapid.MakeCheck(func(rt *rapid.T) { modelProperty(rt, newImpl) }))
	t.Run("misuse", func(t *testing.T) {
		for _, n := range misuseNames {
			if cfg.detects&n.m == 0 {
				t.Logf("%s: not exercised (not declared with celltest.Detects)", n.name)
				continue
			}
			t.Run(n.name, func(t *testing.T) {
				if err := checkMisuse(name, newImpl, n.m); err != nil {
					t.Fatal(err)
				}
			})
		}
	})
	t.Run("leak", func(t *testing.T) {
		if _, ok := liverOf(newImpl()); !ok {
			t.Logf("not exercised: neither the Impl nor its Domain implements cell.Liver")
			return
		}
		if err := checkLeak(newImpl, sz.leakA, sz.leakB); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	})
}

// liverOf returns the live-cell counter of impl: the Impl's own, or else the
// one of a fresh domain (which is then closed after its count is read).
func liverOf[C any](impl cell.Impl[C]) (func() int64, bool) {
	if l, ok := impl.(cell.Liver); ok {
		return l.Live, true
	}
	d := impl.NewDomain()
	defer d.Close()
	if _, ok := d.(cell.Liver); ok {
		return func() int64 {
			// Counting through a domain: open a fresh, idle one so every
			// domain that did work has been closed when the count is read.
			d := impl.NewDomain()
			defer d.Close()
			return d.(cell.Liver).Live()
		}, true
	}
	return nil, false
}
