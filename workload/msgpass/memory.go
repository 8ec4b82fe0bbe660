package msgpass

import "math"

// The memory model of one run, used to refuse a plan that cannot fit before
// any worker starts. It is an upper bound by design: a refused plan costs the
// user a flag (rootbench run --max-memory), an accepted plan that does not fit
// costs the machine.
//
// Cells in flight. A cell lives from Create (producer) to Delete (consumer),
// and a batch buffer is recycled only after its consumer is done, so the
// live cells and the allocated batch buffers are both bounded by the batches
// a producer has pushed and not yet seen consumed:
//
//   - MaxDelay d > 0: a producer blocks every d batches until all it pushed
//     are consumed, so at most min(d, NIters) of its batches are in flight;
//   - MaxDelay <= 0: nothing holds a producer back, and in the worst case
//     (consumers descheduled) all NIters of its batches are in flight;
//   - MaxOutstanding m > 0 bounds the cells in flight over all producers.
//
// in flight = min(Producers × BatchSize × min(NIters, d or NIters), m or ∞).
//
// Bytes per cell in flight:
//
//   - the cell in its batch buffer: CellSlotBytes (an interface value, the
//     largest cell representation in the catalog; handles and boxes are 8);
//   - payload fresh: the address check slot (8) and the value itself
//     (FreshValueBytes);
//   - what the implementation keeps to root one value: RootBytesPerCell, the
//     most any cell of the catalog needs.
//
// Fixed costs: the static payload tables (staticTableLen entries of 8 bytes
// per producer) and BaseBytes for the worker process itself (runtime, binary,
// goroutine stacks, the implementation's empty pools).
//
// The Go heap grows to about twice its live data before a collection
// (GOGC=100), so the variable part counts twice.
//
// The model is for binaries built without the race detector: its shadow
// memory multiplies a process's footprint by 5 to 10 and is not counted.
const (
	// CellSlotBytes is the size of the largest cell representation in a
	// batch buffer (an `any`: the control cell "ocaml").
	CellSlotBytes = 16
	// FreshValueBytes is one payload-fresh value (a freshValue, in the
	// 16-byte size class).
	FreshValueBytes = 16
	// RootBytesPerCell bounds the heap an implementation keeps per live cell.
	// The largest in the catalog is runtime/cgo.Handle (a sync.Map entry),
	// about 114 bytes; heap boxes take 16 to 34, boxroot's slots 18. Measure
	// a cell with 1<<20 live cells and runtime.ReadMemStats before and after
	// (HeapAlloc after runtime.GC) when adding one.
	RootBytesPerCell = 128
	// BaseBytes is the worker process without its cells.
	BaseBytes = 64 << 20
	// gcHeadroom is how far the heap grows past its live data (GOGC=100).
	gcHeadroom = 2
	// staticValueBytes is one entry of a static payload table.
	staticValueBytes = 8
	// wantSlotBytes is the payload-fresh address check kept per cell.
	wantSlotBytes = 8
)

// MemoryEstimate is an upper bound on one run's peak memory and how it was
// reached.
type MemoryEstimate struct {
	// CellsInFlight is the most cells created and not yet deleted at once.
	CellsInFlight int64
	// BytesPerCell is what one cell in flight costs, before GC headroom.
	BytesPerCell int64
	// Bytes is the estimated peak: BaseBytes + 2 × (cells in flight ×
	// bytes per cell + static tables). It saturates at math.MaxInt64.
	Bytes int64
}

// EstimateMemory bounds the peak memory of one run with p (see the model
// above). p should be valid (Validate); the estimate does not overflow for
// any p.
func EstimateMemory(p Params) MemoryEstimate {
	perProducer := float64(max(p.NIters, 0))
	if p.MaxDelay > 0 {
		perProducer = math.Min(perProducer, float64(p.MaxDelay))
	}
	inFlight := float64(max(p.Producers, 0)) * float64(max(p.BatchSize, 0)) * perProducer
	if p.MaxOutstanding > 0 {
		inFlight = math.Min(inFlight, float64(p.MaxOutstanding))
	}
	perCell := int64(CellSlotBytes + RootBytesPerCell)
	var tables float64
	if p.Payload == Fresh {
		perCell += wantSlotBytes + FreshValueBytes
	} else if p.BatchSize > 0 && p.Producers > 0 {
		tables = float64(p.Producers) * float64(staticTableLen(p.BatchSize, p.Producers)) * staticValueBytes
	}
	total := BaseBytes + gcHeadroom*(inFlight*float64(perCell)+tables)
	return MemoryEstimate{
		CellsInFlight: saturate(inFlight),
		BytesPerCell:  perCell,
		Bytes:         saturate(total),
	}
}

// saturate converts a non-negative float to int64, clamping at MaxInt64.
func saturate(f float64) int64 {
	if f >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(f)
}
