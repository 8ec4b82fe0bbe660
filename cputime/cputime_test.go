package cputime

import (
	"testing"
	"time"
)

var sink uint64

// Self grows with work this process does, on any of its threads.
func TestSelfCountsWork(t *testing.T) {
	t.Parallel()
	start := Self()
	done := make(chan Times)
	go func() { // another goroutine, likely another thread: RUSAGE_SELF counts it
		x := uint64(1)
		for Self().Sub(start).Total() == 0 {
			for range 1 << 16 {
				x = x*6364136223846793005 + 1442695040888963407
			}
		}
		sink = x
		done <- Self()
	}()
	end := <-done
	if d := end.Sub(start); d.Total() <= 0 || d.User < 0 || d.Sys < 0 {
		t.Errorf("CPU time over a busy loop: %+v, want a positive total and no negative part", d)
	}
}

func TestArithmetic(t *testing.T) {
	t.Parallel()
	a := Times{User: 5 * time.Millisecond, Sys: time.Millisecond}
	b := Times{User: 2 * time.Millisecond, Sys: 3 * time.Millisecond}
	if got := a.Sub(b); got != (Times{User: 3 * time.Millisecond}) {
		t.Errorf("Sub = %+v, want the user part's 3ms and the system part clamped at 0", got)
	}
	if got := a.Add(b); got != (Times{User: 7 * time.Millisecond, Sys: 4 * time.Millisecond}) || got.Total() != 11*time.Millisecond {
		t.Errorf("Add = %+v (total %v), want 7ms + 4ms", got, got.Total())
	}
}
