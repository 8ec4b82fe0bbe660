package celltest

import (
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"weak"

	"github.com/rootbench/rootbench/cell"
)

// fault selects how a toy implementation is broken.
type fault int

const (
	faultNone       fault = iota
	faultWrongGet         // every 97th Get returns a value nobody rooted
	faultLiveNoDec        // Delete forgets to decrement the live count
	faultSilent           // invalid uses go unnoticed
	faultAnonPanic        // invalid uses panic without naming the implementation
	faultWeak             // pointer values are held only weakly: not rooted
	faultKeepsValue       // Delete leaves the value reachable in its slot
)

var faultNames = []string{"none", "wrong-get", "live-no-dec", "silent", "anon-panic", "weak", "keeps-value"}

// toy is a small, obviously correct handle table (one mutex) that can be
// broken on purpose. Handles are slot index + 1, so 0 is invalid.
type toy struct {
	fault fault
	mu    sync.Mutex
	slots []toySlot
	free  []int
	live  int64
	gets  int
}

type toySlot struct {
	v    any
	wp   weak.Pointer[marker]
	weak bool
	used bool
}

type toyHandle int

func newToy(f fault) func() cell.Impl[toyHandle] {
	return func() cell.Impl[toyHandle] { return &toy{fault: f} }
}

func (t *toy) NewDomain() cell.Domain[toyHandle] { return toyDomain{t} }

func (t *toy) Live() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.live
}

func (t *toy) misuse(what string) {
	switch t.fault {
	case faultSilent:
	case faultAnonPanic:
		panic("invalid handle: " + what)
	default:
		panic("toy: invalid handle: " + what)
	}
}

// slot returns the used slot of h, or nil after reporting a misuse.
// t.mu is held.
func (t *toy) slot(h toyHandle, what string) *toySlot {
	i := int(h) - 1
	if i < 0 || i >= len(t.slots) || !t.slots[i].used {
		t.misuse(what) // panics (t.mu is released by the caller's defer) unless faultSilent
		return nil
	}
	return &t.slots[i]
}

type toyDomain struct{ t *toy }

func (d toyDomain) Create(v any) toyHandle {
	t := d.t
	t.mu.Lock()
	defer t.mu.Unlock()
	s := toySlot{v: v, used: true}
	if m, ok := v.(*marker); ok && t.fault == faultWeak {
		s = toySlot{wp: weak.Make(m), weak: true, used: true}
	}
	t.live++
	if n := len(t.free); n > 0 {
		i := t.free[n-1]
		t.free = t.free[:n-1]
		t.slots[i] = s
		return toyHandle(i + 1)
	}
	t.slots = append(t.slots, s)
	return toyHandle(len(t.slots))
}

func (d toyDomain) Get(h toyHandle) any {
	t := d.t
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.slot(h, "Get")
	if s == nil {
		return nil
	}
	t.gets++
	if t.fault == faultWrongGet && t.gets%97 == 0 {
		return newMarker(-7)
	}
	if s.weak {
		if p := s.wp.Value(); p != nil {
			return p
		}
		return nil
	}
	return s.v
}

func (d toyDomain) Delete(h toyHandle) {
	t := d.t
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.slot(h, "Delete")
	if s == nil {
		return
	}
	if t.fault == faultKeepsValue {
		s.used = false
	} else {
		*s = toySlot{}
	}
	t.free = append(t.free, int(h)-1)
	if t.fault != faultLiveNoDec {
		t.live--
	}
}

func (d toyDomain) Close() {}

// valueCell is a correct control: the cell is the value itself, no
// bookkeeping, no misuse detection.
type valueCell struct{}

func (valueCell) NewDomain() cell.Domain[any] { return valueCell{} }
func (valueCell) Create(v any) any            { return v }
func (valueCell) Get(c any) any               { return c }
func (valueCell) Delete(any)                  {}
func (valueCell) Close()                      {}

func TestRunCorrectToy(t *testing.T) {
	t.Parallel()
	Run(t, "toy", newToy(faultNone), Detects(AllMisuse))
}

func TestRunControlDetectsNothing(t *testing.T) {
	t.Parallel()
	Run(t, "value", func() cell.Impl[any] { return valueCell{} })
}

// seededModel runs the model check without rapid, on a fixed seed.
func seededModel(impl cell.Impl[toyHandle]) error {
	r := rand.New(rand.NewPCG(1, 2))
	return runModelSeeded(impl, 3, 3000, r.IntN)
}

func TestChecksCatchBrokenToys(t *testing.T) {
	t.Parallel()
	sz := defaultSizes()
	checks := map[string]func(f func() cell.Impl[toyHandle]) error{
		"single-domain": func(f func() cell.Impl[toyHandle]) error { return checkSingleDomain(f, sz.single) },
		"release":       func(f func() cell.Impl[toyHandle]) error { return checkRelease(f, sz.single) },
		"cross-domain":  func(f func() cell.Impl[toyHandle]) error { return checkCrossDomain(f, sz.cross) },
		"stress": func(f func() cell.Impl[toyHandle]) error {
			return checkStress(f, sz.workers, sz.rounds, sz.batch)
		},
		"model":            func(f func() cell.Impl[toyHandle]) error { return seededModel(f()) },
		"leak":             func(f func() cell.Impl[toyHandle]) error { return checkLeak(f, sz.leakA, sz.leakB) },
		"zero-handle":      func(f func() cell.Impl[toyHandle]) error { return checkMisuse("toy", f, ZeroHandle) },
		"double-delete":    func(f func() cell.Impl[toyHandle]) error { return checkMisuse("toy", f, DoubleDelete) },
		"use-after-delete": func(f func() cell.Impl[toyHandle]) error { return checkMisuse("toy", f, UseAfterDelete) },
	}
	cases := []struct {
		fault    fault
		caughtBy []string
		msg      string // a fragment every error must contain
	}{
		{faultWrongGet, []string{"single-domain", "cross-domain", "stress", "model"}, "Get returned"},
		{faultLiveNoDec, []string{"single-domain", "cross-domain", "stress", "model", "leak"}, "Live() = "},
		{faultSilent, []string{"zero-handle", "double-delete", "use-after-delete"}, "did not panic"},
		{faultAnonPanic, []string{"zero-handle", "double-delete", "use-after-delete"}, `does not contain the implementation name "toy"`},
		{faultWeak, []string{"single-domain"}, "is the value rooted?"},
		{faultKeepsValue, []string{"release"}, "still reachable"},
	}
	for name, check := range checks {
		t.Run("correct/"+name, func(t *testing.T) {
			if err := check(newToy(faultNone)); err != nil {
				t.Fatalf("correct toy failed: %v", err)
			}
		})
	}
	for _, c := range cases {
		for _, name := range c.caughtBy {
			t.Run(faultNames[c.fault]+"/"+name, func(t *testing.T) {
				err := checks[name](newToy(c.fault))
				if err == nil {
					t.Fatalf("fault %s not caught", faultNames[c.fault])
				}
				if !strings.Contains(err.Error(), c.msg) {
					t.Fatalf("fault %s caught with %q, want an error containing %q", faultNames[c.fault], err, c.msg)
				}
			})
		}
	}
}

func TestStressSmallRings(t *testing.T) {
	t.Parallel()
	for _, workers := range []int{1, 2, 3} {
		if err := checkStress(newToy(faultNone), workers, 9, 5); err != nil {
			t.Errorf("%d workers: %v", workers, err)
		}
	}
}

func TestMisuseString(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		m    Misuse
		want string
	}{
		{0, "none"},
		{ZeroHandle, "zero-handle"},
		{DoubleDelete | UseAfterDelete, "double-delete|use-after-delete"},
		{AllMisuse, "zero-handle|double-delete|use-after-delete"},
	} {
		if got := c.m.String(); got != c.want {
			t.Errorf("Misuse(%d).String() = %q, want %q", uint(c.m), got, c.want)
		}
	}
}

func TestCheckMisuseRejectsUnknown(t *testing.T) {
	t.Parallel()
	err := checkMisuse("toy", newToy(faultNone), Misuse(64))
	if err == nil || !strings.Contains(err.Error(), "unknown misuse") {
		t.Fatalf("checkMisuse(unknown) = %v, want an 'unknown misuse' error", err)
	}
}

// TestWrongValueSaysWhy checks what a wrong marker from Get is blamed on:
// reused memory, a value never given, an earlier cell's value (surely the
// wrong slot), or a later one (either).
func TestWrongValueSaysWhy(t *testing.T) {
	t.Parallel()
	e := expectOf(10, newMarker(10))
	for _, c := range []struct {
		got  *marker
		want string
	}{
		{&marker{id: 3, check: 12345}, "memory reused"},
		{newMarker(churnID), "memory reused"},
		{newMarker(-7), "was not given"},
		{newMarker(4), "the cell resolves to the wrong slot"},
		{newMarker(25), "either the cell resolves to the wrong slot, or the cell did not keep its value alive"},
	} {
		err := e.check(c.got)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("check(marker id %d check %#x) = %v, want an error containing %q", c.got.id, c.got.check, err, c.want)
		}
	}
}
