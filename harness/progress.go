package harness

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Progress bar layout. The library draws
//
//	<description><percent> |<bar>| (<done>/<total>) [<elapsed>:<remaining>]
//
// on one line, redrawn in place with "\r" and erased with ANSI codes. A line
// wider than the terminal wraps, and "\r" then returns only to the start of
// its last row, leaving stale rows behind; so the description is shortened
// until the whole line fits in the terminal's width minus one column.
const (
	barMaxWidth     = 30 // the bar itself, when there is room
	barMinWidth     = 8
	defaultColumns  = 80    // when the writer's width cannot be read
	timeFieldsWidth = 2 * 8 // "[1m23s:4m56s]": up to 8 characters per duration
)

// progress draws the progress bar. A nil *progress draws nothing, so the
// engine calls its methods unconditionally. After finish it draws nothing
// either, so that nothing redraws the bar below the final output.
type progress struct {
	w      io.Writer
	bar    *progressbar.ProgressBar
	closed bool
}

func newProgress(w io.Writer, total int) *progress {
	bar := progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetWidth(barMaxWidth),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionUseANSICodes(true),
		progressbar.OptionSetItsString("runs"),
	)
	return &progress{w: w, bar: bar}
}

// columns returns the width of the terminal w writes to.
func columns(w io.Writer) int {
	if f, ok := w.(*os.File); ok {
		if c, _, err := term.GetSize(int(f.Fd())); err == nil && c > 0 {
			return c
		}
	}
	return defaultColumns
}

// fitDescription shortens desc (ending it with "…") so that the bar's line
// fits in cols columns with a bar at least barMinWidth wide, for a bar whose
// counts go up to total. desc may become empty on a very narrow terminal.
func fitDescription(desc string, cols, total int) string {
	digits := len(strconv.Itoa(max(total, 1)))
	// "100% " + "||" + " (" + done + "/" + total + ")" + " [" + times + ":" + "]" + one spare column.
	fixed := 5 + 2 + 2 + 2*digits + 2 + 2 + timeFieldsWidth + 2 + 1
	room := cols - fixed - barMinWidth
	if utf8.RuneCountInString(desc) <= room {
		return desc
	}
	if room <= 1 {
		return ""
	}
	runes := []rune(desc)
	return string(runes[:room-2]) + "… "
}

// describeText shows desc (shortened to fit) and the counts.
func (p *progress) describeText(desc string, total, done int) {
	if p == nil || p.closed {
		return
	}
	p.bar.Describe(fitDescription(desc+" ", columns(p.w), total))
	p.set(total, done)
}

// estimate is the progress bar's note on a benchmark: "warm-up", "first
// run", or the mean workload time of its successful runs so far ("~1.61 s").
func estimate(s *benchState, warmup bool) string {
	if warmup {
		return "warm-up"
	}
	var sum time.Duration
	n := 0
	for _, r := range s.runs {
		if !r.Failed {
			sum += time.Duration(r.WallNs)
			n++
		}
	}
	if n == 0 {
		return "first run"
	}
	return "~" + FormatDuration(sum/time.Duration(n))
}

// FormatDuration prints d with three significant digits and a unit chosen
// so that the number lies in [1, 1000): "1.61 s", "16.1 ms", "161 µs",
// "999 ns". Durations of a minute or more stay in seconds ("75.3 s").
func FormatDuration(d time.Duration) string {
	v := float64(d)
	unit := "ns"
	for _, u := range []struct {
		name  string
		scale float64
	}{{"s", 1e9}, {"ms", 1e6}, {"µs", 1e3}} {
		if math.Abs(v) >= u.scale {
			v /= u.scale
			unit = u.name
			break
		}
	}
	// Round to three significant digits first: 999.7 ms becomes "1000 ms",
	// which reads correctly though it leaves the range.
	switch a := math.Abs(v); {
	case a == 0 || a >= 100:
		return fmt.Sprintf("%.0f %s", v, unit)
	case a >= 10:
		return fmt.Sprintf("%.1f %s", v, unit)
	default:
		return fmt.Sprintf("%.2f %s", v, unit)
	}
}

// set updates the planned total and the number of runs made.
func (p *progress) set(total, done int) {
	if p == nil || p.closed {
		return
	}
	if total != p.bar.GetMax() {
		p.bar.ChangeMax(total)
	}
	_ = p.bar.Set(done) // a failed write to the terminal is not worth stopping for
}

// clear erases the bar before other output goes to the terminal.
func (p *progress) clear() {
	if p == nil || p.closed {
		return
	}
	_ = p.bar.Clear()
}

// redraw draws the bar again after clear.
func (p *progress) redraw() {
	if p == nil || p.closed {
		return
	}
	_ = p.bar.RenderBlank()
}

// finish erases the bar for good: nothing draws it again.
func (p *progress) finish() {
	if p == nil || p.closed {
		return
	}
	_ = p.bar.Clear()
	_ = p.bar.Exit()
	p.closed = true
}
