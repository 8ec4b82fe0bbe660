package boxroot

import (
	"sync"
	"testing"
)

func TestStatsKeys(t *testing.T) {
	t.Parallel()
	im := New(Options{})
	d := im.NewDomain()
	d.Delete(d.Create(1))
	d.Close()
	s := im.Stats()
	for _, k := range []string{"pools_allocated", "peak_pools", "pools_released", "live", "local_deletes",
		"remote_deletes", "delayed_flushes", "slow_creates", "orphans_adopted", "pools", "pools_empty",
		"pools_orphaned", "creates", "remote_publishes", "domains_open"} {
		if _, ok := s[k]; !ok {
			t.Errorf("Stats() has no %q", k)
		}
	}
	if s["creates"] != 1 || s["local_deletes"] != 1 || s["live"] != 0 || s["pools_allocated"] != 1 {
		t.Errorf("after one create and delete: %v", s)
	}
}

func TestVariants(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, v := range Variants() {
		if seen[v.Name] || v.Name == "" || v.Description == "" {
			t.Errorf("variant %+v: empty or duplicate name, or no description", v)
		}
		seen[v.Name] = true
		o := v.Options
		n := 0
		for _, b := range []bool{o.ForceRemote, o.NoReuse, o.EagerRemote, o.LockedRemote} {
			if b {
				n++
			}
		}
		if n != 1 || o.Name != "" {
			t.Errorf("variant %s changes %d things (%+v), want exactly one", v.Name, n, o)
		}
	}
	if len(seen) != 4 {
		t.Errorf("%d variants, want the 4 ablations", len(seen))
	}
}

// fill creates n handles in d holding their own index.
func fill(d interface{ Create(any) Handle }, n int) []Handle {
	hs := make([]Handle, n)
	for i := range hs {
		hs[i] = d.Create(i)
	}
	return hs
}

// TestRecycleAndRelease: a closed domain's wholly free pools are kept
// empty up to maxEmpty and released beyond; handles into them panic; a new
// domain reuses the kept pools instead of allocating.
func TestRecycleAndRelease(t *testing.T) {
	t.Parallel()
	im := New(Options{})
	d := im.NewDomain()
	const npools = maxEmpty + 5
	hs := fill(d, npools*poolSize)
	for _, h := range hs {
		d.Delete(h)
	}
	d.Close()
	s := im.Stats()
	if s["pools_allocated"] != npools || s["pools_empty"] != maxEmpty || s["pools_released"] != npools-maxEmpty {
		t.Fatalf("after closing a domain with %d wholly free pools: %v", npools, s)
	}
	for _, h := range []Handle{hs[0], hs[len(hs)-1]} {
		if err := expectPanic("Get of a handle into a recycled or released pool", func() { im.Get(h) }); err != nil {
			t.Error(err)
		}
	}
	e := im.NewDomain()
	hs = fill(e, maxEmpty*poolSize)
	if s := im.Stats(); s["pools_allocated"] != npools || s["pools_empty"] != 0 {
		t.Errorf("a new domain should reuse the %d kept pools: %v", maxEmpty, s)
	}
	for i, h := range hs {
		if got := e.Get(h); got != i {
			t.Fatalf("Get = %v, want %d", got, i)
		}
		e.Delete(h)
	}
	e.Close()
}

// TestOrphanAdoption: a closed domain's pools that still hold live handles
// are orphaned; a domain that needs room adopts one; the handles keep their
// values, and the adopter deletes them locally.
func TestOrphanAdoption(t *testing.T) {
	t.Parallel()
	im := New(Options{})
	a := im.NewDomain()
	hs := fill(a, 2*poolSize)
	for _, h := range hs[:poolSize/2] { // room in the first pool
		a.Delete(h)
	}
	a.Close()
	if s := im.Stats(); s["pools_orphaned"] != 2 {
		t.Fatalf("after closing a domain with live handles in 2 pools: %v", s)
	}
	b := im.NewDomain()
	b.Create("b")
	s := im.Stats()
	if s["orphans_adopted"] != 1 || s["pools_orphaned"] != 1 || s["pools_allocated"] != 2 {
		t.Fatalf("a new domain should adopt the orphan with room: %v", s)
	}
	for i, h := range hs[poolSize/2:] {
		if got := b.Get(h); got != poolSize/2+i {
			t.Fatalf("Get = %v, want %d", got, poolSize/2+i)
		}
		b.Delete(h)
	}
	b.Close()
	s = im.Stats()
	if s["live"] != 1 || s["local_deletes"] < poolSize/2 || s["remote_deletes"] == 0 {
		t.Errorf("b owned one pool (local deletes) and not the other (remote): %v", s)
	}
}

// TestTrim: a domain whose working set shrinks hands its idle wholly free
// pools back while it is still open.
func TestTrim(t *testing.T) {
	t.Parallel()
	im := New(Options{})
	im.trimMin, im.idleFactor = 4, 1
	d := im.NewDomain()
	hs := fill(d, 40*poolSize)
	for _, h := range hs {
		d.Delete(h)
	}
	// A working set of two pools' worth of handles: the domain switches
	// pools, keeps reusing the same two, and trims the others.
	for range 200 {
		for _, h := range fill(d, 2*poolSize) {
			d.Delete(h)
		}
	}
	s := im.Stats()
	if s["pools_released"] == 0 || s["pools"] >= 40 {
		t.Errorf("idle pools were not handed back while the domain ran: %v", s)
	}
	d.Close()
}

// TestDropIn uses the cgo.Handle-shaped API across goroutines.
func TestDropIn(t *testing.T) {
	const n = 5000
	hs := make(chan Handle, n)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range n {
			hs <- NewHandle(i)
		}
		close(hs)
	}()
	i := 0
	for h := range hs {
		if got := h.Value(); got != i {
			t.Fatalf("Value() = %v, want %d", got, i)
		}
		h.Delete()
		i++
	}
	wg.Wait()
	h := NewHandle("x")
	other := NewHandle("y") // keeps the pool from being wholly free
	h.Delete()
	for what, f := range map[string]func(){
		"Value of a deleted handle":  func() { h.Value() },
		"Delete of a deleted handle": func() { h.Delete() },
		"Value of the zero handle":   func() { Handle(0).Value() },
		"Delete of the zero handle":  func() { Handle(0).Delete() },
	} {
		if err := expectPanic(what, f); err != nil {
			t.Error(err)
		}
	}
	other.Delete()
}

// TestFastPathModes follows Delete's fast path between its modes: remote
// deletes into one pool extend the pending chain without a call, a local
// delete meanwhile still counts, Close publishes the chain, and a domain
// closed with a chain open refuses further deletes instead of extending a
// chain nobody will publish.
func TestFastPathModes(t *testing.T) {
	t.Parallel()
	im := New(Options{})
	a, b := im.NewLocalDomain(), im.NewLocalDomain()
	hs := make([]Handle, 8)
	for i := range hs {
		hs[i] = a.Create(sinkValue)
	}
	own := b.Create(sinkValue)
	b.Delete(hs[0]) // remote: starts b's chain, remote mode
	b.Delete(hs[1]) // the fast path extends the chain
	if b.delList != &b.pend.list || b.pend.list.n != 2 {
		t.Fatalf("after two remote deletes: remote mode %v, chain length %d; want true, 2",
			b.delList == &b.pend.list, b.pend.list.n)
	}
	b.Delete(own) // local, through the slow path while in remote mode
	b.Delete(hs[2])
	if b.pend.list.n != 3 {
		t.Fatalf("chain length %d after a local delete and a third remote one, want 3", b.pend.list.n)
	}
	b.Close()
	if s := im.Stats(); s["local_deletes"] != 1 || s["remote_deletes"] != 3 {
		t.Fatalf("after b closed: %d local and %d remote deletes, want 1 and 3", s["local_deletes"], s["remote_deletes"])
	}
	if err := expectPanic("Delete on a closed domain", func() { b.Delete(hs[3]) }); err != nil {
		t.Fatal(err)
	}
	for _, h := range hs[3:] {
		a.Delete(h)
	}
	a.Close()
	if got := im.Live(); got != 0 {
		t.Fatalf("Live() = %d with everything deleted, want 0", got)
	}
}
