package boxroot

import (
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/rootbench/rootbench/cell"
)

// mpParams are the message-passing benchmark's parameters.
type mpParams struct {
	cells, batch, maxDelay int
}

// msgPass is a minimal parallel message-passing run: a producer domain
// creates batches of cells and sends them over a channel to a consumer
// domain, which checks every value and deletes every cell. Every maxDelay
// batches the producer waits until the consumer has caught up. Producer
// and consumer are each locked to an OS thread.
func msgPass[C any](impl cell.Impl[C], p mpParams) error {
	prod, cons := impl.NewDomain(), impl.NewDomain()
	vals := make([]any, p.batch)
	for i := range vals {
		vals[i] = new(int)
	}
	nb := (p.cells + p.batch - 1) / p.batch
	batches := make(chan []C, p.maxDelay+1)
	spare := make(chan []C, p.maxDelay+2)
	ack := make(chan struct{})
	var wg sync.WaitGroup
	var cerr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		defer cons.Close()
		for batch := range batches {
			if batch == nil {
				ack <- struct{}{}
				continue
			}
			for j, c := range batch {
				if cons.Get(c) != vals[j] && cerr == nil {
					cerr = fmt.Errorf("cell %d of a batch: wrong value", j)
				}
				cons.Delete(c)
			}
			select {
			case spare <- batch[:0]:
			default:
			}
		}
	}()
	runtime.LockOSThread()
	for i := range nb {
		var batch []C
		select {
		case batch = <-spare:
		default:
			batch = make([]C, 0, p.batch)
		}
		for j := range p.batch {
			batch = append(batch, prod.Create(vals[j]))
		}
		batches <- batch
		if p.maxDelay > 0 && (i+1)%p.maxDelay == 0 {
			batches <- nil
			<-ack
		}
	}
	runtime.UnlockOSThread()
	close(batches)
	wg.Wait()
	prod.Close()
	return cerr
}

// mpCase is one cell implementation in the message-passing benchmark.
type mpCase struct {
	name string
	run  func(mpParams) error
}

func mpCaseOf[C any](name string, newImpl func() cell.Impl[C]) mpCase {
	return mpCase{name, func(p mpParams) error { return msgPass(newImpl(), p) }}
}

// mpCases lists the cells compared; cgo_test.go adds cgo-handle.
var mpCases = func() []mpCase {
	cs := []mpCase{
		mpCaseOf("ocaml", func() cell.Impl[any] { return directImpl{} }),
		mpCaseOf("boxroot", func() cell.Impl[Handle] { return New(Options{}) }),
		mpCaseOf("ref", func() cell.Impl[*refBox] { return refImpl{} }),
		mpCaseOf("boxroot-handle", HandleImpl),
		mpCaseOf("bxboxed", func() cell.Impl[Handle] { return boxedImpl{New(Options{})} }),
	}
	for _, v := range Variants() {
		opts := v.Options
		cs = append(cs, mpCaseOf("boxroot:"+v.Name, func() cell.Impl[Handle] { return New(opts) }))
	}
	return cs
}()

// BenchmarkMsgPass is the parallel message-passing workload with the
// default parameters (BATCH_SIZE=1024, MAX_DELAY=128); one op is one cell.
func BenchmarkMsgPass(b *testing.B) {
	for _, c := range mpCases {
		b.Run(c.name, func(b *testing.B) { benchMsgPass(b, c) })
	}
}

// benchMsgPass runs c through b.N cells of the message-passing workload
// (BATCH_SIZE=1024, MAX_DELAY=128), reporting every thread's CPU time per
// cell beside the wall time.
func benchMsgPass(b *testing.B, c mpCase) {
	b.ReportAllocs()
	defer processCPUPerOp(b)()
	if err := c.run(mpParams{cells: b.N, batch: 1024, maxDelay: 128}); err != nil {
		b.Fatal(err)
	}
}

// directImpl is the control: the cell is the value itself.
type directImpl struct{}

func (directImpl) NewDomain() cell.Domain[any] { return directImpl{} }
func (directImpl) Create(v any) any            { return v }
func (directImpl) Get(c any) any               { return c }
func (directImpl) Delete(any)                  {}
func (directImpl) Close()                      {}

// refImpl is a fresh heap box per cell, as the ref cell.
type refImpl struct{}

type refBox struct{ v any }

func (refImpl) NewDomain() cell.Domain[*refBox] { return refImpl{} }
func (refImpl) Create(v any) *refBox            { return &refBox{v} }
func (refImpl) Get(c *refBox) any               { return c.v }
func (refImpl) Delete(c *refBox)                { c.v = nil }
func (refImpl) Close()                          {}

// boxedImpl is bx-boxed (impls/bxboxed) restated here, as that package
// imports this one: a heap box per cell, rooted through boxroot.
type boxedImpl struct{ im *Impl }

type boxedDomain struct{ d cell.Domain[Handle] }

func (b boxedImpl) NewDomain() cell.Domain[Handle] { return boxedDomain{b.im.NewDomain()} }
func (b boxedDomain) Create(v any) Handle          { return b.d.Create(&refBox{v}) }
func (b boxedDomain) Get(h Handle) any             { return b.d.Get(h).(*refBox).v }
func (b boxedDomain) Delete(h Handle)              { b.d.Delete(h) }
func (b boxedDomain) Close()                       { b.d.Close() }
