package harness

import (
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progress draws the progress bar. A nil *progress draws nothing, so the
// engine calls its methods unconditionally.
type progress struct {
	bar *progressbar.ProgressBar
}

func newProgress(w io.Writer, total int) *progress {
	bar := progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionUseANSICodes(true),
		progressbar.OptionSetItsString("runs"),
	)
	return &progress{bar: bar}
}

// describe shows which benchmark runs now, with its current estimate.
func (p *progress) describe(s *benchState, warmup bool, total, done int) {
	if p == nil {
		return
	}
	desc := s.b.Label
	switch {
	case warmup:
		desc += ": warm-up"
	default:
		var sum time.Duration
		n := 0
		for _, r := range s.runs {
			if !r.Failed {
				sum += time.Duration(r.WallNs)
				n++
			}
		}
		if n > 0 {
			desc += fmt.Sprintf(": current estimate %v", (sum / time.Duration(n)).Round(time.Microsecond))
		} else {
			desc += ": initial time measurement"
		}
	}
	p.bar.Describe(desc)
	p.set(total, done)
}

// set updates the planned total and the number of runs made.
func (p *progress) set(total, done int) {
	if p == nil {
		return
	}
	if total != p.bar.GetMax() {
		p.bar.ChangeMax(total)
	}
	_ = p.bar.Set(done) // a failed write to the terminal is not worth stopping for
}

// clear erases the bar before other output goes to the terminal.
func (p *progress) clear() {
	if p == nil {
		return
	}
	_ = p.bar.Clear()
}

// redraw draws the bar again after clear.
func (p *progress) redraw() {
	if p == nil {
		return
	}
	_ = p.bar.RenderBlank()
}

// finish removes the bar for good.
func (p *progress) finish() {
	if p == nil {
		return
	}
	_ = p.bar.Clear()
	_ = p.bar.Exit()
}
