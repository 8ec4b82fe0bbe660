package msgpass

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkMsgPass measures the workload's own cost per cell with the
// control cell (the value itself, no rooting work), at BATCH_SIZE 1024 and
// MAX_DELAY 128: batches, stack, checks, wake-ups. Each op is one Run of
// 256 batches; ns/cell is Wall (setup and teardown excluded) per cell.
func BenchmarkMsgPass(b *testing.B) {
	for _, s := range allSchedulers {
		for _, pl := range allPayloads {
			for _, q := range allQueues {
				b.Run(fmt.Sprintf("sched=%s/payload=%s/queue=%s", s, pl, q), func(b *testing.B) {
					p := DefaultParams()
					p.Scheduler, p.Payload, p.Queue = s, pl, q
					p.NIters = 256
					benchRun(b, direct{}, p)
				})
			}
		}
	}
}

// BenchmarkMsgPassWorkers: the control cell with more workers than cores.
func BenchmarkMsgPassWorkers(b *testing.B) {
	for _, n := range []int{2, 8} {
		b.Run(fmt.Sprintf("workers=%dx%d", n, n), func(b *testing.B) {
			p := DefaultParams()
			p.Producers, p.Consumers = n, n
			p.NIters = 64
			benchRun(b, direct{}, p)
		})
	}
}

func benchRun(b *testing.B, impl direct, p Params) {
	var wall, cells float64
	for b.Loop() {
		res, err := Run(context.Background(), impl, p)
		if err != nil {
			b.Fatal(err)
		}
		wall += float64(res.Wall.Nanoseconds())
		cells += float64(res.Cells)
	}
	b.ReportMetric(wall/cells, "ns/cell")
}
