package boxroot

import "testing"

// The benchmarks in this file call the concrete API (*Impl, *Domain from
// NewLocalDomain), as a Go user of boxroot does: direct calls, with Get
// inlined. They loop to b.N rather than with b.Loop, which keeps the calls
// in its loop from being inlined. bench_test.go times the same operations
// through cell.Domain, whose dynamic dispatch is the floor measured in
// calib_test.go. The loops repeat bench_test.go's on purpose: shared
// through a func value, an interface or a type parameter (whose methods a
// generic function calls through a dictionary), the calls would no longer
// be direct, which is what these benchmarks measure.

func BenchmarkConcreteLocalCreateDelete(b *testing.B) {
	d := New(Options{}).NewLocalDomain()
	defer d.Close()
	v := sinkValue
	b.ReportAllocs()
	defer cpuPerOp(b)()
	for range b.N {
		d.Delete(d.Create(v))
	}
}

// BenchmarkConcreteGet reads 4096 handles in turn (four pools), through a
// domain and through the Impl, and checks every value; "slice" is the
// floor under them: the same loop reading a plain slice of values.
func BenchmarkConcreteGet(b *testing.B) {
	im := New(Options{})
	d := im.NewLocalDomain()
	defer d.Close()
	hs := new([4096]Handle)
	vals := make([]any, len(hs))
	for i := range hs {
		hs[i] = d.Create(sinkValue)
		vals[i] = sinkValue
	}
	want := sinkValue.(*int)
	for _, c := range []struct {
		name string
		get  func(b *testing.B)
	}{
		{"domain", func(b *testing.B) {
			for i := range b.N {
				if p, _ := d.Get(hs[i&4095]).(*int); p != want {
					b.Fatalf("handle %#x: wrong value", hs[i&4095])
				}
			}
		}},
		{"impl", func(b *testing.B) {
			for i := range b.N {
				if p, _ := im.Get(hs[i&4095]).(*int); p != want {
					b.Fatalf("handle %#x: wrong value", hs[i&4095])
				}
			}
		}},
		{"slice", func(b *testing.B) {
			for i := range b.N {
				if p, _ := vals[i&4095].(*int); p != want {
					b.Fatalf("slot %d: wrong value", i&4095)
				}
			}
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			defer cpuPerOp(b)()
			c.get(b)
		})
	}
}

// BenchmarkConcreteRemoteDelete is BenchmarkRemoteDelete through *Domain:
// only the deletes are timed.
func BenchmarkConcreteRemoteDelete(b *testing.B) {
	im := New(Options{})
	owner, other := im.NewLocalDomain(), im.NewLocalDomain()
	defer owner.Close()
	defer other.Close()
	timeDeletes(b, func(hs []Handle) {
		for j := range hs {
			hs[j] = owner.Create(sinkValue)
		}
	}, func(hs []Handle) {
		for _, h := range hs {
			other.Delete(h)
		}
	})
}

// BenchmarkConcreteCreateRemoteDelete is BenchmarkCreateRemoteDelete
// through *Domain.
func BenchmarkConcreteCreateRemoteDelete(b *testing.B) {
	im := New(Options{})
	owner, other := im.NewLocalDomain(), im.NewLocalDomain()
	defer owner.Close()
	defer other.Close()
	hs := make([]Handle, 1024)
	b.ReportAllocs()
	defer cpuPerOp(b)()
	for i := range b.N {
		j := i & 1023
		hs[j] = owner.Create(sinkValue)
		if j == 1023 {
			for _, h := range hs {
				other.Delete(h)
			}
		}
	}
}
