package boxroot

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rootbench/rootbench/cell"
)

// TestStress runs 8 goroutines, each with its own domain, that create
// batches of handles, pass each batch to another goroutine, and check and
// delete the batches they receive (remote deletes), with some local
// create/delete churn in between; a ninth goroutine reads Stats and Live
// all along. Meaningful under -race. At the end every count must be exact.
func TestStress(t *testing.T) {
	const workers = 8
	rounds, batch := 120, 300
	if testing.Short() {
		rounds, batch = 30, 100
	}
	impls := []struct {
		name string
		impl cell.Impl[Handle]
	}{{"boxroot", New(Options{})}, {"boxroot-handle", HandleImpl()}}
	for _, v := range Variants() {
		impls = append(impls, struct {
			name string
			impl cell.Impl[Handle]
		}{v.Name, New(v.Options)})
	}
	for _, c := range impls {
		t.Run(c.name, func(t *testing.T) {
			stress(t, c.impl, workers, rounds, batch)
		})
	}
}

type stressBatch struct {
	from int
	hs   []Handle
	ids  []int64
}

func stress(t *testing.T, impl cell.Impl[Handle], workers, rounds, batch int) {
	inbox := make([]chan stressBatch, workers)
	for i := range inbox {
		inbox[i] = make(chan stressBatch, rounds) // sends never block: no deadlock
	}
	var wg sync.WaitGroup
	var nextID atomic.Int64
	// A worker that finds an error reports it and carries on (without
	// checking further), so that the others are not left waiting.
	errs := make(chan error, workers)
	report := func(failed *bool, err error) {
		if !*failed {
			*failed = true
			errs <- err
		}
	}
	stop := make(chan struct{})
	readerDone := make(chan struct{})
	go func() { // Stats and Live must be race-free while domains run
		defer close(readerDone)
		for {
			select {
			case <-stop:
				return
			default:
			}
			if s, ok := impl.(cell.Stater); ok {
				_ = s.Stats()
			}
			_ = impl.(cell.Liver).Live()
			time.Sleep(20 * time.Microsecond)
		}
	}()
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := impl.NewDomain()
			defer d.Close()
			var local []Handle
			var localIDs []int64
			var failed bool
			for r := range rounds {
				b := stressBatch{from: w, hs: make([]Handle, batch), ids: make([]int64, batch)}
				for i := range batch {
					id := nextID.Add(1)
					b.ids[i] = id
					b.hs[i] = d.Create(&payload{id: id})
				}
				// For a given round, w -> w+1+r%7 is a permutation: each
				// worker receives exactly one batch per round.
				inbox[(w+1+r%(workers-1))%workers] <- b
				in := <-inbox[w]
				for i, h := range in.hs {
					if p, ok := d.Get(h).(*payload); !failed && (!ok || p.id != in.ids[i]) {
						report(&failed, fmt.Errorf("worker %d, round %d: cell %d from worker %d: got %v, want payload %d",
							w, r, i, in.from, d.Get(h), in.ids[i]))
					}
					d.Delete(h) // remote: another worker created it
				}
				// Local churn: keep a window of own handles, delete the
				// oldest half locally.
				for range batch / 4 {
					id := nextID.Add(1)
					local = append(local, d.Create(&payload{id: id}))
					localIDs = append(localIDs, id)
				}
				if len(local) > batch {
					for i, h := range local[:len(local)/2] {
						if p, ok := d.Get(h).(*payload); !failed && (!ok || p.id != localIDs[i]) {
							report(&failed, fmt.Errorf("worker %d: local cell %d: got %v, want payload %d", w, i, d.Get(h), localIDs[i]))
						}
						d.Delete(h)
					}
					local = append(local[:0], local[len(local)/2:]...)
					localIDs = append(localIDs[:0], localIDs[len(localIDs)/2:]...)
				}
			}
			for _, h := range local {
				d.Delete(h)
			}
		}()
	}
	wg.Wait()
	close(stop)
	<-readerDone
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := impl.(cell.Liver).Live(); got != 0 {
		t.Errorf("Live() = %d after every handle was deleted and every domain closed", got)
	}
	if im, ok := impl.(*Impl); ok {
		s := im.Stats()
		if s["pools_orphaned"] != 0 || s["pools"] != s["pools_empty"] {
			t.Errorf("at the end: %d pools, %d empty, %d orphaned; want all empty or released", s["pools"], s["pools_empty"], s["pools_orphaned"])
		}
		// A domain that adopted an orphan deletes its cells locally, so
		// only the sum is exact.
		if s["remote_deletes"]+s["local_deletes"] != s["creates"] || s["remote_deletes"] == 0 {
			t.Errorf("remote_deletes %d + local_deletes %d != creates %d, or no remote delete",
				s["remote_deletes"], s["local_deletes"], s["creates"])
		}
		t.Logf("stats: %v", s)
	}
}
