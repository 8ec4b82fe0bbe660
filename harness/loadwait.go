package harness

import (
	"context"
	"fmt"
	"strconv"
	"time"
)

// Waiting for the load before a round (LoadWait): as the runner of
// golang.org/x/benchmarks waits before each benchmark, a session can wait
// until the machine's one-minute load average falls below a bound, so that
// its rounds run on a machine no busier than that.

// LoadPollInterval is how often a wait reads the load average: the kernel
// recomputes it every five seconds.
const LoadPollInterval = 5 * time.Second

// DefaultLoadWaitTimeout is how long a wait lasts at most when no timeout
// is given: a round then starts whatever the load.
const DefaultLoadWaitTimeout = 10 * time.Minute

// LoadWait says how a session waits for the load before each round.
type LoadWait struct {
	// Below is the one-minute load average a round waits for: it starts
	// once the load is below Below.
	Below float64
	// Timeout bounds one wait: when it passes, the round starts anyway,
	// and the wait is recorded as given up.
	Timeout time.Duration
	// Source reads the one-minute load average (nil: Load1); Sleep waits d
	// or until ctx ends (nil: a timer). Tests pass fakes, with a fake clock
	// that Sleep advances.
	Source func() (float64, error)
	Sleep  func(ctx context.Context, d time.Duration) error
}

// LoadWaitLog records a wait before a round: the load the round started
// at, and how long it waited for it. Rounds that found the load below the
// bound at once have none.
type LoadWaitLog struct {
	// Round is the round the wait preceded, from 1 (in `run`'s grouped
	// order, a round is one run).
	Round    int     `json:"round"`
	WaitedNs int64   `json:"waited_ns"`
	Load     float64 `json:"load"`
	// GaveUp is true when the timeout ended the wait: the round started
	// at a load at or above the bound.
	GaveUp bool `json:"gave_up,omitempty"`
}

func (w *LoadWait) check() error {
	switch {
	case w == nil:
		return nil
	case w.Below <= 0:
		return fmt.Errorf("wait for the load: bound %v: must be positive", w.Below)
	case w.Timeout <= 0:
		return fmt.Errorf("wait for the load: timeout %v: must be positive", w.Timeout)
	}
	return nil
}

// wait waits until the load is below w.Below, reading it every
// LoadPollInterval, for at most w.Timeout; show is called with the load and
// the time waited before every pause. It returns the wait's record (ok
// false when the load was below the bound at once), or ctx's error when ctx
// ended during the wait, or the error of a load that could not be read.
func (w *LoadWait) wait(ctx context.Context, round int, now func() time.Time, show func(load float64, waited time.Duration)) (log LoadWaitLog, ok bool, err error) {
	src, sleep := w.Source, w.Sleep
	if src == nil {
		src = Load1
	}
	if sleep == nil {
		sleep = sleepCtx
	}
	start := now()
	for first := true; ; first = false {
		load, err := src()
		if err != nil {
			return LoadWaitLog{}, false, err
		}
		waited := now().Sub(start)
		log = LoadWaitLog{Round: round, WaitedNs: waited.Nanoseconds(), Load: load}
		switch {
		case load < w.Below:
			return log, !first, nil
		case waited >= w.Timeout:
			log.GaveUp = true
			return log, true, nil
		}
		show(load, waited)
		if err := sleep(ctx, min(LoadPollInterval, w.Timeout-waited)); err != nil {
			return LoadWaitLog{}, false, err
		}
	}
}

// sleepCtx waits d, or until ctx ends (its error).
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// waitText says what a wait is doing: "waiting for the load to fall below
// 2.0: 5.3 now, waited 15s of at most 10m0s".
func (w *LoadWait) waitText(load float64, waited time.Duration) string {
	return fmt.Sprintf("waiting for the load to fall below %s: %.1f now, waited %s of at most %s",
		bound(w.Below), load, waited.Round(time.Second), w.Timeout)
}

// LogText says how a wait ended, in one line: "round 3 started at load 1.8
// after waiting 35s", or, when it gave up, "gave up waiting for the load to
// fall below 2.0 after 10m0s: round 3 started at load 5.3".
func (w *LoadWait) LogText(l LoadWaitLog) string {
	waited := time.Duration(l.WaitedNs).Round(time.Second)
	if l.GaveUp {
		return fmt.Sprintf("gave up waiting for the load to fall below %s after %s: round %d started at load %.1f",
			bound(w.Below), waited, l.Round, l.Load)
	}
	return fmt.Sprintf("round %d started at load %.1f after waiting %s for it to fall below %s", l.Round, l.Load, waited, bound(w.Below))
}

// bound writes a load bound as it was given: 2, 1.5, 0.25.
func bound(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// awaitLoad waits for the load before round (from 1), when the session
// waits (w not nil): the wait shows on the progress bar, or as a line on
// the notices when there is no bar; how it ended is a line on the notices
// when it gave up, or when there is no bar. The wait's time is kept out of
// the session's elapsed time (e.waited). A load that cannot be read ends
// waiting for the rest of the session, with a line saying so. It reports
// an interruption.
func (e *engine) awaitLoad(ctx context.Context, w *LoadWait, round int) bool {
	if w == nil || e.noWait {
		return ctx.Err() != nil
	}
	shown := false
	start := e.now()
	log, waited, err := w.wait(ctx, round, e.now, func(load float64, waited time.Duration) {
		text := w.waitText(load, waited)
		if e.bar != nil {
			e.bar.describeText(text, e.planned(), e.doneTotal())
			return
		}
		if !shown && e.notices != nil {
			fmt.Fprintln(e.notices, text)
		}
		shown = true
	})
	e.waited += e.now().Sub(start)
	switch {
	case err != nil && ctx.Err() != nil:
		return true
	case err != nil:
		e.noWait = true
		e.notice(fmt.Sprintf("cannot wait for the load any more (%v): the next rounds start without waiting", err))
		return false
	case !waited:
		return false
	}
	e.loadWaits = append(e.loadWaits, log)
	if log.GaveUp || e.bar == nil {
		e.notice(w.LogText(log))
	}
	return false
}

// notice prints one line on the notices, with the progress bar out of the
// way.
func (e *engine) notice(line string) {
	if e.notices == nil {
		return
	}
	e.bar.clear()
	fmt.Fprintln(e.notices, line)
	e.bar.redraw()
}
