package msgpass

import (
	"math"
	"testing"
)

func TestEstimateMemoryCellsInFlight(t *testing.T) {
	t.Parallel()
	p := DefaultParams() // MaxDelay 128, BatchSize 1024, one producer
	for _, c := range []struct {
		name   string
		change func(*Params)
		want   int64
	}{
		{"max-delay bounds the batches in flight", func(p *Params) {}, 128 * 1024},
		{"niters below max-delay", func(p *Params) { p.NIters = 3 }, 3 * 1024},
		{"max-delay 0: every batch may be in flight", func(p *Params) { p.MaxDelay = 0; p.NIters = 1000 }, 1000 * 1024},
		{"negative max-delay disables it too", func(p *Params) { p.MaxDelay = -1; p.NIters = 1000 }, 1000 * 1024},
		{"producers multiply", func(p *Params) { p.Producers = 4 }, 4 * 128 * 1024},
		{"max-outstanding bounds the whole run", func(p *Params) { p.Producers = 4; p.MaxOutstanding = 4096 }, 4096},
		{"max-outstanding above the delay bound changes nothing", func(p *Params) { p.MaxOutstanding = 1 << 30 }, 128 * 1024},
	} {
		q := p
		c.change(&q)
		if err := q.Validate(); err != nil {
			t.Fatalf("%s: invalid parameters: %v", c.name, err)
		}
		if got := EstimateMemory(q).CellsInFlight; got != c.want {
			t.Errorf("%s: %d cells in flight, want %d", c.name, got, c.want)
		}
	}
}

func TestEstimateMemoryBytes(t *testing.T) {
	t.Parallel()
	static := DefaultParams()
	fresh := static
	fresh.Payload = Fresh
	es, ef := EstimateMemory(static), EstimateMemory(fresh)
	if ef.BytesPerCell <= es.BytesPerCell {
		t.Errorf("fresh payload costs %d B/cell, static %d: fresh values must cost more", ef.BytesPerCell, es.BytesPerCell)
	}
	if es.BytesPerCell < CellSlotBytes+RootBytesPerCell {
		t.Errorf("static payload: %d B/cell, below the cell slot plus the rooting bound", es.BytesPerCell)
	}
	// The estimate covers twice the cells' bytes plus the base.
	if floor := BaseBytes + 2*es.CellsInFlight*es.BytesPerCell; es.Bytes < floor {
		t.Errorf("estimate %d B is below base + 2 × cells × bytes per cell = %d B", es.Bytes, floor)
	}
	// The OCaml benchmark's configuration must fit a small machine.
	if es.Bytes > 1<<30 {
		t.Errorf("the default configuration is estimated at %d B, more than 1 GiB", es.Bytes)
	}
	// More batches in flight never cost less.
	bigger := static
	bigger.MaxDelay = 0
	bigger.NIters = 100_000
	if eb := EstimateMemory(bigger); eb.Bytes <= es.Bytes {
		t.Errorf("max-delay 0 with 100_000 batches: %d B, not above the default's %d B", eb.Bytes, es.Bytes)
	}
}

func TestEstimateMemorySaturates(t *testing.T) {
	t.Parallel()
	p := DefaultParams()
	p.MaxDelay, p.NIters, p.BatchSize, p.Producers = 0, math.MaxInt/(MaxBatchSize*MaxWorkers), MaxBatchSize, MaxWorkers
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	if e := EstimateMemory(p); e.Bytes != math.MaxInt64 || e.CellsInFlight <= 0 {
		t.Errorf("absurd plan: estimate %+v, want Bytes saturated at MaxInt64", e)
	}
	// A plan far beyond any machine: 16_777_216 cells per batch, 64 producers, 1000 batches each.
	p = DefaultParams()
	p.MaxDelay, p.NIters, p.BatchSize, p.Producers = 0, 1000, 16_777_216, 64
	if e := EstimateMemory(p); e.Bytes < 1<<40 {
		t.Errorf("a trillion cells in flight estimated at only %d B", e.Bytes)
	}
}
