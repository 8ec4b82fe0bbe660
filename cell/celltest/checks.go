package celltest

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"weak"

	"github.com/rootbench/rootbench/cell"
)

// createN creates n cells in d holding the values first, first+1, ... and
// returns them with descriptions that do not keep the values alive.
//
//go:noinline
func createN[C any](d cell.Domain[C], first int64, n int) ([]C, []expect) {
	cells := make([]C, n)
	exps := make([]expect, n)
	for i := range cells {
		id := first + int64(i)
		v := makeValue(id)
		exps[i] = expectOf(id, v)
		cells[i] = d.Create(v)
	}
	return cells, exps
}

// getAll checks every cell's value through d.
func getAll[C any](d cell.Domain[C], cells []C, exps []expect, when string) error {
	for i, c := range cells {
		if err := exps[i].check(d.Get(c)); err != nil {
			return fmt.Errorf("%s: cell %d: %w", when, i, err)
		}
	}
	return nil
}

// deleteAll deletes every cell through d.
func deleteAll[C any](d cell.Domain[C], cells []C) {
	for _, c := range cells {
		d.Delete(c)
	}
}

// checkLive compares the implementation's live count, if it keeps one, with
// the number of cells created and not deleted.
func checkLive[C any](impl cell.Impl[C], want int64, when string) error {
	live, ok := liverOf(impl)
	if !ok {
		return nil
	}
	if got := live(); got != want {
		return fmt.Errorf("%s: Live() = %d, want %d (cells created and not deleted)", when, got, want)
	}
	return nil
}

// checkSingleDomain: one domain creates n distinct values, which must
// survive garbage collections while rooted (the check holds them only
// weakly); half are deleted and as many created again (slot reuse); every
// Get is checked; finally everything is deleted.
func checkSingleDomain[C any](newImpl func() cell.Impl[C], n int) error {
	impl := newImpl()
	d := impl.NewDomain()
	cells, exps := createN(d, 0, n)
	collect(n)
	if err := getAll(d, cells, exps, "after runtime.GC"); err != nil {
		return fmt.Errorf("single domain: %w (is the value rooted?)", err)
	}
	// Delete every other cell, then create as many again: the new cells may
	// reuse the freed slots, and must not disturb the survivors.
	var keep []C
	var keepExps []expect
	for i, c := range cells {
		if i%2 == 0 {
			d.Delete(c)
		} else {
			keep = append(keep, c)
			keepExps = append(keepExps, exps[i])
		}
	}
	more, moreExps := createN(d, int64(n), n/2)
	keep = append(keep, more...)
	keepExps = append(keepExps, moreExps...)
	collect(n)
	if err := getAll(d, keep, keepExps, "after deleting half and creating again"); err != nil {
		return fmt.Errorf("single domain: %w", err)
	}
	deleteAll(d, keep)
	d.Close()
	return checkLive(impl, 0, "single domain: after deleting every cell")
}

// createAndDeleteAll creates n cells in d, checks and deletes them, and
// returns weak pointers to the pointer values.
//
//go:noinline
func createAndDeleteAll[C any](d cell.Domain[C], n int) ([]weak.Pointer[marker], error) {
	cells, exps := createN(d, 0, n)
	if err := getAll(d, cells, exps, "release"); err != nil {
		return nil, err
	}
	var wps []weak.Pointer[marker]
	for i, c := range cells {
		d.Delete(c)
		if exps[i].val == nil {
			wps = append(wps, exps[i].wp)
		}
	}
	return wps, nil
}

// checkRelease: once a cell is deleted (and the caller has dropped it) the
// implementation must no longer keep its value reachable, or deleted roots
// leak memory that no live count shows.
func checkRelease[C any](newImpl func() cell.Impl[C], n int) error {
	impl := newImpl()
	d := impl.NewDomain()
	wps, err := createAndDeleteAll(d, n)
	if err != nil {
		return err
	}
	runtime.GC()
	runtime.GC()
	alive := 0
	for _, wp := range wps {
		if wp.Value() != nil {
			alive++
		}
	}
	runtime.KeepAlive(d)
	runtime.KeepAlive(impl)
	d.Close()
	if alive > 0 {
		return fmt.Errorf("release: %d of %d deleted values are still reachable after runtime.GC: Delete must drop the implementation's reference to the value", alive, len(wps))
	}
	return nil
}

// checkCrossDomain: cells created by one domain are read and deleted by
// another (remote deletes), the creator keeps creating afterwards (reuse
// after remote free), and cells outlive the domain that created them.
func checkCrossDomain[C any](newImpl func() cell.Impl[C], n int) error {
	impl := newImpl()
	a, b := impl.NewDomain(), impl.NewDomain()

	// A creates, B reads and deletes.
	c1, e1 := createN(a, 0, n)
	if err := getAll(b, c1, e1, "B reads A's cells"); err != nil {
		return fmt.Errorf("cross domain: %w", err)
	}
	deleteAll(b, c1)
	// A creates again after the remote frees; B creates too.
	c2, e2 := createN(a, int64(n), n)
	c3, e3 := createN(b, int64(2*n), n)
	if err := getAll(a, c2, e2, "A reads its cells created after B's remote deletes"); err != nil {
		return fmt.Errorf("cross domain: %w", err)
	}
	if err := getAll(a, c3, e3, "A reads B's cells"); err != nil {
		return fmt.Errorf("cross domain: %w", err)
	}
	// Each deletes the other's cells.
	deleteAll(a, c3)
	deleteAll(b, c2)
	// A's cells outlive A: B reads and deletes them after A is closed.
	c4, e4 := createN(a, int64(3*n), n)
	a.Close()
	if err := getAll(b, c4, e4, "B reads cells of the closed domain A"); err != nil {
		return fmt.Errorf("cross domain: %w", err)
	}
	deleteAll(b, c4)
	b.Close()
	return checkLive(impl, 0, "cross domain: after every cell was deleted and both domains closed")
}

// errAborted marks a stress worker stopped because another one failed.
var errAborted = errors.New("stopped because another worker failed")

// stressBatch is a batch of cells in flight between stress workers, with the
// values they must hold. hops counts the workers that still only read it
// before one deletes it.
type stressBatch[C any] struct {
	cells []C
	vals  []*marker
	hops  int
}

// checkStress runs `workers` goroutines in a ring, each with its own domain.
// Each creates `rounds` batches of `size` cells, deletes one cell in four
// itself (local deletes) and sends the rest to the next worker; odd batches
// are read by the next worker and forwarded once more, so most deletes are
// remote and some cells are read by three domains. Halfway through, every
// worker closes its domain and opens a fresh one while its cells are in
// flight. Every Get is checked.
//
// Invariants relied on: a domain is used only by the goroutine that opened
// it; cells and values cross goroutines only through channel sends, so a
// cell's Create happens before every other worker's Get and Delete of it.
// No deadlock: a worker blocks only in a select that both sends its oldest
// outgoing batch and receives; if every running worker were blocked, every
// inbox would be both full (sends blocked) and empty (receives blocked).
func checkStress[C any](newImpl func() cell.Impl[C], workers, rounds, size int) error {
	impl := newImpl()
	inbox := make([]chan stressBatch[C], workers)
	for i := range inbox {
		inbox[i] = make(chan stressBatch[C], 4)
	}
	abort := make(chan struct{})
	var abortOnce sync.Once
	errs := make([]error, workers)
	// Each worker receives the predecessor's rounds batches plus the odd
	// batches of the worker two back, forwarded by the predecessor.
	expected := rounds + rounds/2
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := stressWorker(impl, w, inbox[w], inbox[(w+1)%workers], abort, rounds, size, expected)
			if err != nil {
				errs[w] = err
				abortOnce.Do(func() { close(abort) })
			}
		}()
	}
	wg.Wait()
	var real []error
	for w, err := range errs {
		if err != nil && !errors.Is(err, errAborted) {
			real = append(real, fmt.Errorf("worker %d: %w", w, err))
		}
	}
	if len(real) > 0 {
		return fmt.Errorf("stress: %w", errors.Join(real...))
	}
	return checkLive(impl, 0, "stress: after every cell was deleted and every domain closed")
}

func stressWorker[C any](impl cell.Impl[C], w int, in <-chan stressBatch[C], out chan<- stressBatch[C],
	abort <-chan struct{}, rounds, size, expected int) (err error) {
	d := impl.NewDomain()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r) // d is abandoned: its state is unknown
			return
		}
		d.Close()
	}()
	var outq []stressBatch[C]
	produced, received := 0, 0
	nextID := int64(w) << 32
	for produced < rounds || len(outq) > 0 || received < expected {
		if produced < rounds && len(outq) < 2 {
			if produced == rounds/2 {
				d.Close()
				d = impl.NewDomain()
			}
			b := stressBatch[C]{hops: produced % 2}
			for j := range size {
				m := newMarker(nextID)
				nextID++
				c := d.Create(m)
				if j%4 == 3 {
					if err := checkSame(d.Get(c), m); err != nil {
						return fmt.Errorf("own fresh cell: %w", err)
					}
					d.Delete(c)
					continue
				}
				b.cells = append(b.cells, c)
				b.vals = append(b.vals, m)
			}
			produced++
			outq = append(outq, b)
			continue
		}
		var send chan<- stressBatch[C]
		var head stressBatch[C]
		if len(outq) > 0 {
			send, head = out, outq[0]
		}
		var recv <-chan stressBatch[C]
		if received < expected {
			recv = in
		}
		select {
		case send <- head:
			outq = outq[1:]
		case b := <-recv:
			received++
			for j, c := range b.cells {
				if err := checkSame(d.Get(c), b.vals[j]); err != nil {
					return fmt.Errorf("received cell: %w", err)
				}
			}
			if b.hops > 0 {
				b.hops--
				outq = append(outq, b)
			} else {
				deleteAll(d, b.cells)
			}
		case <-abort:
			return errAborted
		}
	}
	return nil
}

// expectPanic runs f and reports an error unless it panics with a message
// containing name.
func expectPanic(name, what string, f func()) (err error) {
	defer func() {
		r := recover()
		if r == nil {
			err = fmt.Errorf("%s did not panic, but the implementation declares it detects it", what)
			return
		}
		if msg := fmt.Sprint(r); !strings.Contains(msg, name) {
			err = fmt.Errorf("%s panicked with %q, which does not contain the implementation name %q", what, msg, name)
		}
	}()
	f()
	return nil
}

// checkMisuse asserts that one declared invalid use panics with a message
// naming the implementation. The domain is abandoned afterwards, unclosed:
// its state after a misuse is unspecified.
func checkMisuse[C any](name string, newImpl func() cell.Impl[C], m Misuse) error {
	d := newImpl().NewDomain()
	// A few neighbours, so the victim is not the only cell.
	cells, _ := createN(d, 0, 3)
	victim := cells[1]
	switch m {
	case ZeroHandle:
		var zero C
		return expectPanic(name, "Get of the zero cell", func() { d.Get(zero) })
	case DoubleDelete:
		d.Delete(victim)
		return expectPanic(name, "a second Delete of a cell", func() { d.Delete(victim) })
	case UseAfterDelete:
		d.Delete(victim)
		return expectPanic(name, "Get of a deleted cell", func() { d.Get(victim) })
	}
	return fmt.Errorf("unknown misuse %v (accepted: %v)", m, AllMisuse)
}

// checkLeak: two domains create cells and delete some of their own and of
// each other's; once both are closed, Live() must count exactly the cells
// not deleted, and 0 once a third domain has deleted the rest.
func checkLeak[C any](newImpl func() cell.Impl[C], na, nb int) error {
	impl := newImpl()
	if err := checkLive(impl, 0, "leak: fresh implementation"); err != nil {
		return err
	}
	a, b := impl.NewDomain(), impl.NewDomain()
	ca, ea := createN(a, 0, na)
	cb, eb := createN(b, int64(na), nb)
	deleted := map[int]bool{} // indexes into ca, then cb shifted by na
	del := func(d cell.Domain[C], i int) {
		if i < na {
			d.Delete(ca[i])
		} else {
			d.Delete(cb[i-na])
		}
		deleted[i] = true
	}
	for i := 0; i < na/10; i++ {
		del(a, i) // local
	}
	for i := na / 10; i < na/10+na/5; i++ {
		del(b, i) // remote
	}
	for i := 0; i < nb/10; i++ {
		del(a, na+i) // remote
	}
	for i := nb / 10; i < nb/10+nb/5; i++ {
		del(b, na+i) // local
	}
	a.Close()
	b.Close()
	remaining := int64(na + nb - len(deleted))
	if err := checkLive(impl, remaining, fmt.Sprintf("leak: %d created, %d deleted, all domains closed", na+nb, len(deleted))); err != nil {
		return err
	}
	c := impl.NewDomain()
	for i := range na + nb {
		if deleted[i] {
			continue
		}
		if i < na {
			if err := ea[i].check(c.Get(ca[i])); err != nil {
				return fmt.Errorf("leak: %w", err)
			}
		} else if err := eb[i-na].check(c.Get(cb[i-na])); err != nil {
			return fmt.Errorf("leak: %w", err)
		}
		del(c, i)
	}
	c.Close()
	return checkLive(impl, 0, "leak: after a third domain deleted the rest")
}
