// Package faulty holds deliberately broken cells, for testing that rootbench
// notices: a cell that returns a wrong value, one that leaks, one that hangs,
// and workers that panic, crash, exit or print garbage; and Spin, the busy
// wait behind the planted slowdown (impls.SlowEnv).
//
// Only test binaries link this package: the catalog registers these cells
// in files built with the rootbench_faulty tag (go test -tags
// rootbench_faulty, go build -tags rootbench_faulty), so a shipped rootbench
// has no faulty:* cell. Even there they are hidden from `rootbench list` and
// from the default cell set; tests name them explicitly.
package faulty

import (
	"fmt"
	"os"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/rootbench/rootbench/cell"
)

// Cell is a heap box, as in the ref cell.
type Cell = *box

type box struct{ v any }

// Fault is one broken implementation.
type Fault struct {
	Name        string
	Description string
	New         func() cell.Impl[Cell]
}

// All returns every faulty cell.
func All() []Fault {
	mk := func(name, desc string, k kind) Fault {
		return Fault{Name: "faulty:" + name, Description: "test-only: " + desc,
			New: func() cell.Impl[Cell] { return &impl{kind: k} }}
	}
	return []Fault{
		mk("wrong-value", "Get returns a wrong value for one cell in 1000", wrongValue),
		mk("leak", "Delete forgets one cell in 1000, so cells stay live", leak),
		mk("hang", "Create blocks forever (for --timeout)", hang),
		mk("panic", "an unrecovered panic kills the worker", panicky),
		mk("crash", "the worker kills itself with SIGKILL", crash),
		mk("exit", "the worker exits with status 3 and no result", exit),
		mk("garbage", "the worker prints malformed output and exits 0", garbage),
	}
}

type kind int

const (
	wrongValue kind = iota
	leak
	hang
	panicky
	crash
	exit
	garbage
)

type impl struct {
	kind kind
	n    atomic.Int64 // operations seen, to misbehave once in a while
	live atomic.Int64
}

func (m *impl) NewDomain() cell.Domain[Cell] { return &domain{m} }

// Live implements cell.Liver.
func (m *impl) Live() int64 { return m.live.Load() }

type domain struct{ m *impl }

func (d *domain) Create(v any) Cell {
	n := d.m.n.Add(1)
	if n == 100 {
		switch d.m.kind {
		case hang:
			time.Sleep(time.Hour)
		case panicky:
			// A panic on a goroutine of our own: no workload can recover it.
			done := make(chan struct{})
			go func() {
				defer close(done)
				panic("faulty:panic: deliberate panic in Create")
			}()
			<-done
		case crash:
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			time.Sleep(time.Hour)
		case exit:
			fmt.Fprintln(os.Stderr, "faulty:exit: exiting with status 3")
			os.Exit(3)
		case garbage:
			fmt.Fprintln(os.Stdout, "this is not a JSON result line")
			os.Exit(0)
		}
	}
	d.m.live.Add(1)
	return &box{v}
}

func (d *domain) Get(c Cell) any {
	if d.m.kind == wrongValue && d.m.n.Add(1)%1000 == 0 {
		return &box{} // a value the producer never rooted
	}
	return c.v
}

func (d *domain) Delete(c Cell) {
	if d.m.kind == leak && d.m.n.Add(1)%1000 == 0 {
		return // forgotten: stays live
	}
	c.v = nil
	d.m.live.Add(-1)
}

func (d *domain) Close() {}
