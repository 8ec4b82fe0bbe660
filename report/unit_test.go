package report

import (
	"strings"
	"testing"
)

func TestParseTimeUnit(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]TimeUnit{
		"": Auto, "auto": Auto, "s": Second, "Second": Second, "seconds": Second,
		"ms": Millisecond, "millisecond": Millisecond, "us": Microsecond, "µs": Microsecond,
		"μs": Microsecond, "microseconds": Microsecond, "ns": Nanosecond, "NS": Nanosecond, "nanosecond": Nanosecond,
	} {
		got, err := ParseTimeUnit(in)
		if err != nil || got != want {
			t.Errorf("ParseTimeUnit(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"min", "h", "1s"} {
		_, err := ParseTimeUnit(bad)
		if err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "auto, s, ms, us") {
			t.Errorf("ParseTimeUnit(%q) error = %v, want one naming it and the accepted units", bad, err)
		}
	}
	for _, u := range []TimeUnit{Auto, Second, Millisecond, Microsecond, Nanosecond} {
		if back, err := ParseTimeUnit(u.String()); err != nil || back != u {
			t.Errorf("ParseTimeUnit(%v.String()) = %v, %v", u, back, err)
		}
	}
}

func TestUnitForAndFormat(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		sec  float64
		unit TimeUnit
		text string
	}{
		{1.686, Second, "1.686 s"},
		{10.7314, Second, "10.731 s"},
		{0.3016, Millisecond, "301.6 ms"},
		{0.001, Millisecond, "1.0 ms"},
		{4.25e-6, Microsecond, "4.2 µs"},
		{93e-9, Nanosecond, "93.0 ns"},
		{0, Second, "0.000 s"},
	} {
		if got := UnitFor(c.sec); got != c.unit {
			t.Errorf("UnitFor(%g) = %v, want %v", c.sec, got, c.unit)
		}
		if got := Auto.Format(c.sec); got != c.text {
			t.Errorf("Auto.Format(%g) = %q, want %q", c.sec, got, c.text)
		}
	}
	// An explicit unit is kept whatever the magnitude, with its decimals.
	if got := Millisecond.Format(1.686); got != "1686.0 ms" {
		t.Errorf("Millisecond.Format(1.686) = %q", got)
	}
	if got := Second.Value(0.0123); got != "0.012" {
		t.Errorf("Second.Value(0.0123) = %q", got)
	}
	if got := Microsecond.Resolve(5); got != Microsecond {
		t.Errorf("Microsecond.Resolve = %v", got)
	}
}
