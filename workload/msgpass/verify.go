package msgpass

import (
	"fmt"

	"github.com/rootbench/rootbench/cell"
)

// The end of a run and its checks: errors naming a wrong value, closing the
// domains, and counting that every cell was checked and deleted.

// wrongValue describes a failed check of cell i of bt. want is the static
// value expected, or nil for payload fresh (then it is rebuilt from bt).
func (r *run[C]) wrongValue(bt *batch[C], i int, got any, want *staticValue) error {
	var w string
	if want != nil {
		w = describe(want)
	} else {
		w = fmt.Sprintf("fresh value (producer %d, seq %d) at %#x", bt.producer, bt.index*r.batch+int64(i), bt.want[i])
	}
	return fmt.Errorf("wrong value: producer %d, batch %d, index %d: got %s, want %s",
		bt.producer, bt.index, i, describe(got), w)
}

// describe names a value for an error message without printing arbitrary
// (possibly huge) values.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case *staticValue:
		return fmt.Sprintf("static value (producer %d, slot %d) at %p", x.producer, x.slot, x)
	case *freshValue:
		return fmt.Sprintf("fresh value (producer %d, seq %d) at %p", x.producer, x.seq, x)
	default:
		return fmt.Sprintf("a value of type %T", v)
	}
}

// teardown closes every domain (consumers first, so their pending remote
// deletes are published before the producers' domains close) and returns the
// implementation's statistics. A panic in Close fails the run.
func (r *run[C]) teardown() map[string]int64 {
	var doms []cell.Domain[C]
	var names []string
	for i := range r.cons {
		doms = append(doms, r.cons[i].d)
		names = append(names, fmt.Sprintf("consumer %d's domain", i))
	}
	for i := range r.prods {
		doms = append(doms, r.prods[i].d)
		names = append(names, fmt.Sprintf("producer %d's domain", i))
	}
	// Domain-level statistics, summed, for implementations that keep them
	// per domain rather than on the Impl.
	var stats map[string]int64
	if _, ok := r.impl.(cell.Stater); !ok {
		for i, d := range doms {
			if s, ok := d.(cell.Stater); ok {
				r.guard("Stats of "+names[i], func() {
					if stats == nil {
						stats = map[string]int64{}
					}
					for k, v := range s.Stats() {
						stats[k] += v
					}
				})
			}
		}
	}
	for i, d := range doms {
		if d != nil { // nil: its worker failed before creating it
			r.guard("Close of "+names[i], d.Close)
		}
	}
	if s, ok := r.impl.(cell.Stater); ok {
		r.guard("Stats", func() { stats = s.Stats() })
	}
	return stats
}

// guard calls fn, turning a panic into a failure of the run.
func (r *run[C]) guard(what string, fn func()) {
	defer func() {
		if v := recover(); v != nil {
			r.fail(panicError(what, v))
		}
	}()
	fn()
}

// verifyCounts checks that every cell created was checked and deleted.
func (r *run[C]) verifyCounts() error {
	var created, checked, deleted int64
	for i := range r.prods {
		created += r.prods[i].created
	}
	for i := range r.cons {
		checked += r.cons[i].checked
		deleted += r.cons[i].deleted
	}
	want := r.p.TotalCells()
	if created != want || checked != created || deleted != created {
		return fmt.Errorf("cells lost: %d expected, %d created, %d checked, %d deleted", want, created, checked, deleted)
	}
	return nil
}
