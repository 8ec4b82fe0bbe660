package boxroot

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/rootbench/rootbench/cell"
)

// payload is a rooted value. The machine remembers only its id, never the
// pointer, so a payload stays alive only if boxroot roots it; it has no
// pointers and 24 bytes, so the tiny allocator does not batch it.
type payload struct {
	id int64
	_  [16]byte
}

// machine drives an implementation through operations on several domains
// and checks it against a model: the live handles and their values.
type machine struct {
	impl cell.Impl[Handle]
	im   *Impl // nil for the drop-in cell
	doms []cell.Domain[Handle]
	// live maps each live handle to its value's id; order lists them for
	// random choice.
	live  map[Handle]int64
	order []Handle
	// dead are handles deleted: never valid again, their slots reused or
	// not.
	dead   []Handle
	nextID int64
	// deletes counts the model's deletes (nextID counts its creates).
	deletes int64
	gcs     int
}

func newMachine(impl cell.Impl[Handle], ndom int) *machine {
	m := &machine{impl: impl, live: map[Handle]int64{}}
	m.im, _ = impl.(*Impl)
	for range ndom {
		m.doms = append(m.doms, impl.NewDomain())
	}
	return m
}

func (m *machine) dom(i int) cell.Domain[Handle] { return m.doms[i%len(m.doms)] }

func (m *machine) create(di int) error {
	m.nextID++
	h := m.dom(di).Create(&payload{id: m.nextID})
	if h == 0 {
		return fmt.Errorf("Create returned the zero handle")
	}
	if id, ok := m.live[h]; ok {
		return fmt.Errorf("Create returned handle %#x, already live with value %d", h, id)
	}
	// A reused slot comes with a new tag: a dead handle never comes back.
	for _, x := range m.dead {
		if x == h {
			return fmt.Errorf("Create returned handle %#x again after its Delete", h)
		}
	}
	m.live[h] = m.nextID
	m.order = append(m.order, h)
	return nil
}

func (m *machine) check(di int, h Handle) error {
	v := m.dom(di).Get(h)
	p, ok := v.(*payload)
	if !ok || p.id != m.live[h] {
		return fmt.Errorf("Get(%#x) = %v, want payload %d", h, v, m.live[h])
	}
	return nil
}

func (m *machine) get(di, k int) error {
	if len(m.order) == 0 {
		return nil
	}
	return m.check(di, m.order[k%len(m.order)])
}

func (m *machine) del(di, k int) error {
	if len(m.order) == 0 {
		return nil
	}
	k %= len(m.order)
	h := m.order[k]
	if err := m.check(di, h); err != nil {
		return err
	}
	m.dom(di).Delete(h)
	m.deletes++
	delete(m.live, h)
	m.order[k] = m.order[len(m.order)-1]
	m.order = m.order[:len(m.order)-1]
	m.dead = append(m.dead, h)
	return nil
}

// misuse checks that a Get or Delete of a dead handle panics naming the
// implementation. Not for the drop-in cell: its allocator is shared with
// the runtime cleanups that close dropped domains, which may recycle the
// dead handle's pool at that very moment (a use after free racing with
// reuse, which the race detector rightly reports); the conformance kit
// checks its misuse detection on pools that cannot be recycled.
func (m *machine) misuse(di, k int, del bool) error {
	if len(m.dead) == 0 || m.im == nil {
		return nil
	}
	h := m.dead[k%len(m.dead)]
	d := m.dom(di)
	op, f := "Get", func() { d.Get(h) }
	if del {
		op, f = "Delete", func() { d.Delete(h) }
	}
	return expectPanic(fmt.Sprintf("%s of deleted handle %#x", op, h), f)
}

func expectPanic(what string, f func()) (err error) {
	defer func() {
		r := recover()
		if r == nil {
			err = fmt.Errorf("%s did not panic", what)
		} else if !strings.Contains(fmt.Sprint(r), "boxroot") {
			err = fmt.Errorf("%s panicked with %q, which does not name boxroot", what, r)
		}
	}()
	f()
	return nil
}

// reopen closes domain di and puts a fresh one in its place: its pools are
// orphaned, to be adopted or recycled.
func (m *machine) reopen(di int) {
	i := di % len(m.doms)
	m.doms[i].Close()
	m.doms[i] = m.impl.NewDomain()
}

// checkpoint closes every domain, checks the exact live count and pool
// accounting, and opens fresh domains.
func (m *machine) checkpoint() error {
	for i := range m.doms {
		m.doms[i].Close()
	}
	if err := m.checkClosed(); err != nil {
		return err
	}
	for i := range m.doms {
		m.doms[i] = m.impl.NewDomain()
	}
	return nil
}

// checkClosed checks the counters once every domain is closed.
func (m *machine) checkClosed() error {
	if got := m.impl.(cell.Liver).Live(); got != int64(len(m.live)) {
		return fmt.Errorf("Live() = %d with every domain closed, want %d", got, len(m.live))
	}
	if m.im == nil {
		return nil
	}
	s := m.im.Stats()
	if s["creates"] != m.nextID || s["local_deletes"]+s["remote_deletes"] != m.deletes {
		return fmt.Errorf("creates %d, local %d + remote %d deletes; want %d creates, %d deletes",
			s["creates"], s["local_deletes"], s["remote_deletes"], m.nextID, m.deletes)
	}
	if s["pools_allocated"]-s["pools_released"] != s["pools"] {
		return fmt.Errorf("pools: %d allocated - %d released != %d", s["pools_allocated"], s["pools_released"], s["pools"])
	}
	if s["pools_empty"] > maxEmpty {
		return fmt.Errorf("%d empty pools kept, more than %d", s["pools_empty"], maxEmpty)
	}
	if len(m.live) == 0 && (s["pools_orphaned"] != 0 || s["pools"] != s["pools_empty"]) {
		return fmt.Errorf("nothing live, every domain closed, yet %d pools: %d empty, %d orphaned",
			s["pools"], s["pools_empty"], s["pools_orphaned"])
	}
	if s["domains_open"] != 0 {
		return fmt.Errorf("domains_open = %d, want 0", s["domains_open"])
	}
	return nil
}

// gc collects and re-checks every live value: they must have survived.
func (m *machine) gc() error {
	if m.gcs >= 3 { // a few per sequence: a collection costs
		return nil
	}
	m.gcs++
	runtime.GC()
	for h := range m.live {
		if err := m.check(0, h); err != nil {
			return fmt.Errorf("after runtime.GC: %w", err)
		}
	}
	return nil
}

// finish deletes every live handle, spreading the deletes over the
// domains, closes them, and checks that nothing is left.
func (m *machine) finish() error {
	for i := 0; len(m.order) > 0; i++ {
		if err := m.del(i, 0); err != nil {
			return err
		}
	}
	for _, d := range m.doms {
		d.Close()
	}
	return m.checkClosed()
}

// newImplFor returns the implementation selected by v: boxroot, one of its
// variants, or the drop-in cell. With eager, the domains' periodic sweeps
// run at every pool switch instead of every few dozen, so that short
// sequences exercise them.
func newImplFor(v int, eager bool) (string, cell.Impl[Handle]) {
	vs := Variants()
	opts, name := Options{}, "boxroot"
	switch {
	case v == 0:
	case v <= len(vs):
		opts, name = vs[v-1].Options, vs[v-1].Name
	default:
		return "boxroot-handle", HandleImpl()
	}
	im := New(opts)
	if eager {
		im.trimMin, im.flushEvery, im.idleFactor = 1, 1, 0
		name += " (eager sweeps)"
	}
	return name, im
}

// TestModel interleaves creates, gets, local and remote deletes, invalid
// uses, domain closes and collections on several domains, and checks every
// value, the panics, and Live() against the model.
func TestModel(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		name, impl := newImplFor(rapid.IntRange(0, len(Variants())+1).Draw(rt, "impl"), rapid.Bool().Draw(rt, "eager"))
		m := newMachine(impl, rapid.IntRange(1, 4).Draw(rt, "domains"))
		rt.Logf("implementation %s, %d domains", name, len(m.doms))
		di := func() int { return rapid.IntRange(0, len(m.doms)-1).Draw(rt, "domain") }
		k := func() int { return rapid.IntRange(0, 1<<20).Draw(rt, "k") }
		must := func(err error) {
			if err != nil {
				rt.Fatal(err)
			}
		}
		rt.Repeat(map[string]func(*rapid.T){
			"create": func(*rapid.T) { must(m.create(di())) },
			// Bursts fill whole pools, so that slow paths, reuse and
			// release are exercised too.
			"burst": func(rt *rapid.T) {
				d, n := di(), rapid.IntRange(1, 3*poolSize).Draw(rt, "n")
				for range n {
					must(m.create(d))
				}
			},
			"get":    func(*rapid.T) { must(m.get(di(), k())) },
			"delete": func(*rapid.T) { must(m.del(di(), k())) },
			"delete-many": func(rt *rapid.T) {
				d, n := di(), rapid.IntRange(1, 2*poolSize).Draw(rt, "n")
				for range min(n, len(m.order)) {
					must(m.del(d, k()))
				}
			},
			"get-dead":    func(*rapid.T) { must(m.misuse(di(), k(), false)) },
			"delete-dead": func(*rapid.T) { must(m.misuse(di(), k(), true)) },
			"reopen":      func(*rapid.T) { m.reopen(di()) },
			"checkpoint":  func(*rapid.T) { must(m.checkpoint()) },
			"gc":          func(*rapid.T) { must(m.gc()) },
		})
		must(m.finish())
	})
}

// FuzzOps runs the machine over operation sequences read from bytes: the
// first byte picks the implementation, each further pair an operation and
// its argument.
func FuzzOps(f *testing.F) {
	f.Add([]byte{0, 0, 1, 0, 2, 2, 0, 3, 1, 4, 0, 5, 0})
	f.Add([]byte{1, 8, 3, 9, 7, 2, 1, 6, 0, 7, 0, 3, 2, 8, 0})
	f.Add([]byte{2, 8, 200, 8, 200, 9, 5, 3, 0, 6, 1, 7, 2})
	f.Add([]byte{3, 8, 255, 2, 1, 2, 2, 3, 3, 5, 1, 4, 1})
	f.Add([]byte{4, 8, 255, 9, 255, 3, 1, 6, 2, 7, 0, 3, 0})
	f.Add([]byte{5, 0, 0, 0, 1, 2, 1, 5, 0, 4, 1})
	f.Add([]byte{128, 8, 255, 8, 255, 9, 255, 8, 255, 9, 200, 8, 255, 3, 1})
	f.Add([]byte{130, 8, 255, 8, 255, 9, 255, 8, 255, 9, 200, 8, 255, 3, 1})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) == 0 {
			return
		}
		_, impl := newImplFor(int(ops[0])%(len(Variants())+2), ops[0]&128 != 0)
		m := newMachine(impl, 3)
		var err error
		for i := 1; i+1 < len(ops) && err == nil; i += 2 {
			op, a := ops[i], int(ops[i+1])
			d := a % 3
			switch op % 10 {
			case 0, 1:
				err = m.create(d)
			case 2:
				err = m.get(d, a)
			case 3, 4:
				err = m.del(d, a)
			case 5:
				err = m.misuse(d, a, op&16 != 0)
			case 6:
				m.reopen(d)
			case 7:
				err = m.checkpoint()
			case 8: // a burst of a..4a creates, past pool boundaries
				for range 1 + a*4 {
					if err = m.create(d); err != nil {
						break
					}
				}
			case 9: // many deletes by one domain
				for j := 0; j < 1+a*4 && len(m.order) > 0 && err == nil; j++ {
					err = m.del(d, j*7)
				}
			}
		}
		if err == nil {
			err = m.finish()
		}
		if err != nil {
			t.Fatal(err)
		}
	})
}
