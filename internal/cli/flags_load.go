package cli

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/rootbench/rootbench/harness"
)

// loadFlags are --wait-for-load and --wait-timeout, which `run`, `callback`,
// `ab` and `bisect` share: wait before each round until the one-minute load
// average is below a bound (harness.LoadWait).
type loadFlags struct {
	flags   *pflag.FlagSet
	below   float64
	timeout time.Duration
}

func (l *loadFlags) register(f *pflag.FlagSet) {
	l.flags = f
	f.Var(&parsedValue[float64]{p: &l.below, parse: parseLoad, show: formatLoad, typ: "load"}, "wait-for-load",
		"before each round, wait until the one-minute load average is below this (e.g. 2), showing the wait; the time waited is not measured")
	f.Var(newDurationValue(&l.timeout, harness.DefaultLoadWaitTimeout), "wait-timeout",
		"with --wait-for-load: give up waiting after this long, say so and start the round")
}

// parseLoad reads a load average bound: a finite number above 0.
func parseLoad(s string) (float64, error) {
	x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || x <= 0 {
		return 0, fmt.Errorf("%q: accepted: a one-minute load average above 0, e.g. 2 or 1.5", s)
	}
	return x, nil
}

func formatLoad(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// resolve is the wait the flags ask for (nil: none), checked before
// anything runs: the timeout must be positive, and the load readable.
func (l *loadFlags) resolve() (*harness.LoadWait, error) {
	given := l.flags.Changed("wait-for-load")
	switch {
	case l.flags.Changed("wait-timeout") && !given:
		return nil, fmt.Errorf("--wait-timeout needs --wait-for-load LOAD: the load to wait for")
	case !given:
		return nil, nil
	case l.timeout <= 0:
		return nil, fmt.Errorf("--wait-timeout %v: accepted: a positive duration, e.g. %v", l.timeout, harness.DefaultLoadWaitTimeout)
	}
	if _, err := harness.Load1(); err != nil {
		return nil, fmt.Errorf("--wait-for-load: %w (the one-minute load average is read from /proc/loadavg)", err)
	}
	return &harness.LoadWait{Below: l.below, Timeout: l.timeout}, nil
}

// loadNow is "load now 2.3", the one-minute load average as a session
// starts, with the wait its rounds make, if any; "" when the load cannot
// be read.
func loadNow(w *harness.LoadWait) string {
	l, err := harness.Load1()
	if err != nil {
		return ""
	}
	s := fmt.Sprintf("load now %.1f", l)
	if w != nil {
		s += fmt.Sprintf("; each round waits for it to fall below %s (at most %s)", formatLoad(w.Below), w.Timeout)
	}
	return s
}
