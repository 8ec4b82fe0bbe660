package boxroot

import (
	"sync/atomic"

	"github.com/rootbench/rootbench/cell"
)

// HandleImpl returns the drop-in API as a cell ("boxroot-handle"): its
// domains' Create and Delete are NewHandle's and Delete's fast paths
// themselves (cache_norace.go), Get is Value; a domain holds nothing but
// its counts. Its Live counts the cells created and deleted through its
// own domains, exactly once they are closed.
func HandleImpl() cell.Impl[Handle] { return &handleImpl{} }

type handleImpl struct {
	creates, deletes atomic.Int64 // totals of closed domains
}

func (hi *handleImpl) NewDomain() cell.Domain[Handle] { return &handleDomain{hi: hi} }

// Live implements cell.Liver.
func (hi *handleImpl) Live() int64 { return hi.creates.Load() - hi.deletes.Load() }

// Stats implements cell.Stater: StdStats, with this cell's own exact
// counts of creates, deletes and live handles (the drop-in API counts
// nothing itself).
func (hi *handleImpl) Stats() map[string]int64 {
	s := StdStats()
	s["creates"] = hi.creates.Load()
	s["deletes"] = hi.deletes.Load()
	s["live"] = hi.Live()
	return s
}

type handleDomain struct {
	_                [64]byte // a producer's counts and its consumer's apart
	hi               *handleImpl
	creates, deletes int64
	_                [64]byte
}

// handleDomain's Create and Delete are the drop-in API's fast paths
// themselves (cache_norace.go; wrappers under -race, cache_race.go).

func (hd *handleDomain) Get(h Handle) any { return h.Value() }

func (hd *handleDomain) Close() {
	hd.hi.creates.Add(hd.creates)
	hd.hi.deletes.Add(hd.deletes)
	hd.creates, hd.deletes = 0, 0
}
