package boxroot

import (
	"reflect"
	"testing"
	"unsafe"

	"github.com/rootbench/rootbench/workload/msgpass"
)

// TestCrossCasesRun runs every case of BenchmarkHandleCrossThread once,
// small, with two producers and two consumers: the workload checks every
// value and that no cell stays live, so a floor that lost or mixed up a
// slot fails here rather than only skewing a benchmark.
func TestCrossCasesRun(t *testing.T) {
	for _, c := range crossCases {
		p := msgpass.DefaultParams()
		p.Producers, p.Consumers, p.NIters = 2, 2, 20
		if _, err := c.run(p); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// TestCrossCaseDomainsApart checks that no two workers' domains of a
// BenchmarkHandleCrossThread case can share a cache line. The workers
// allocate their domains one after another, often from the same span, and
// each writes its own per-cell counters: two domains in one cache line
// make the producer and the consumer write that line in turn at every
// cell, which costs more than the whole create and delete: without the
// padding, a floor's ratio to the domain API in BenchmarkHandleCrossThread
// depended on where its domains happened to be allocated, from one process
// to the next. So a case's domain type must begin and end with
// at least 64 bytes of blank padding. The domain API's own Domain is
// checked differently: the fields it writes per cell (the pending chain
// and the create count) must lie at least 64 bytes from either end.
func TestCrossCaseDomainsApart(t *testing.T) {
	t.Parallel()
	for _, c := range crossCases {
		typ := reflect.TypeOf(c.domain())
		if typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		switch {
		case typ == reflect.TypeFor[Domain]():
			var d Domain
			for name, off := range map[string]uintptr{
				"pend": unsafe.Offsetof(d.pend), "taken": unsafe.Offsetof(d.taken),
			} {
				if off < cacheLine || off+8 > unsafe.Sizeof(d)-cacheLine {
					t.Errorf("%s: Domain.%s at offset %d of %d: within a cache line of an end", c.name, name, off, unsafe.Sizeof(d))
				}
			}
		case typ.Kind() != reflect.Struct || typ.Size() == 0:
			// No state: nothing to share.
		default:
			if !padded(typ, 0) || !padded(typ, -1) {
				t.Errorf("%s: domain type %v does not begin and end with [64]byte padding", c.name, typ)
			}
		}
	}
}

// cacheLine is the padding a worker's domain needs at each end.
const cacheLine = 64

// padded reports whether struct type typ's first (end 0) or last (end -1)
// field is blank padding of at least cacheLine bytes, looking into an
// embedded or nested struct at that end.
func padded(typ reflect.Type, end int) bool {
	if typ.Kind() != reflect.Struct || typ.NumField() == 0 {
		return false
	}
	i := 0
	if end < 0 {
		i = typ.NumField() - 1
	}
	f := typ.Field(i)
	if f.Name == "_" && f.Type.Kind() == reflect.Array && f.Type.Size() >= cacheLine {
		return true
	}
	return padded(f.Type, end)
}
