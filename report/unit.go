package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// TimeUnit is the unit times are printed in (--time-unit).
type TimeUnit int

// The time units. Auto, the zero value, picks one from the magnitude of the
// figure being shown (see UnitFor).
const (
	Auto TimeUnit = iota
	Second
	Millisecond
	Microsecond
	Nanosecond
)

// ParseTimeUnit parses a --time-unit value: auto (or empty), s, ms, us (µs),
// ns, or their long names (second, millisecond, microsecond, nanosecond,
// singular or plural), case-insensitively.
func ParseTimeUnit(s string) (TimeUnit, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return Auto, nil
	case "s", "sec", "secs", "second", "seconds":
		return Second, nil
	case "ms", "msec", "millisecond", "milliseconds":
		return Millisecond, nil
	case "us", "µs", "μs", "usec", "microsecond", "microseconds": // micro sign and Greek mu
		return Microsecond, nil
	case "ns", "nsec", "nanosecond", "nanoseconds":
		return Nanosecond, nil
	}
	return Auto, fmt.Errorf("unknown time unit %q: accepted values are auto, s, ms, us (or µs) and ns", s)
}

// String returns the unit's symbol ("s", "ms", "µs", "ns"), or "auto".
func (u TimeUnit) String() string {
	switch u {
	case Auto:
		return "auto"
	case Second:
		return "s"
	case Millisecond:
		return "ms"
	case Microsecond:
		return "µs"
	case Nanosecond:
		return "ns"
	}
	return fmt.Sprintf("TimeUnit(%d)", int(u))
}

// Seconds returns the length of one unit in seconds (0 for Auto).
func (u TimeUnit) Seconds() float64 {
	switch u {
	case Second:
		return 1
	case Millisecond:
		return 1e-3
	case Microsecond:
		return 1e-6
	case Nanosecond:
		return 1e-9
	}
	return 0
}

// UnitFor picks the largest unit in which seconds is at least 1, as hyperfine
// picks seconds or milliseconds from a mean (rootbench goes on down to µs
// and ns, since a cell can take nanoseconds). Zero, negative and non-finite
// figures get Second.
func UnitFor(seconds float64) TimeUnit {
	switch {
	case !(seconds > 0) || math.IsInf(seconds, 0) || seconds >= 1:
		return Second
	case seconds >= 1e-3:
		return Millisecond
	case seconds >= 1e-6:
		return Microsecond
	}
	return Nanosecond
}

// Resolve returns u, or UnitFor(seconds) when u is Auto.
func (u TimeUnit) Resolve(seconds float64) TimeUnit {
	if u == Auto {
		return UnitFor(seconds)
	}
	return u
}

// Value formats seconds as a number in unit u with hyperfine's fixed
// decimals: three for seconds, one for the smaller units. Auto resolves the
// unit from seconds itself.
func (u TimeUnit) Value(seconds float64) string {
	u = u.Resolve(seconds)
	decimals := 1
	if u == Second {
		decimals = 3
	}
	return strconv.FormatFloat(seconds/u.Seconds(), 'f', decimals, 64)
}

// Format formats seconds with its unit symbol: "1.686 s", "301.6 ms".
func (u TimeUnit) Format(seconds float64) string {
	u = u.Resolve(seconds)
	return u.Value(seconds) + " " + u.String()
}
