package harness

import (
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"pgregory.net/rapid"
)

func TestFormatDuration(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{
		1605855 * time.Microsecond: "1.61 s",
		16058 * time.Microsecond:   "16.1 ms",
		160585 * time.Nanosecond:   "161 µs",
		999:                        "999 ns",
		0:                          "0 ns",
		75300 * time.Millisecond:   "75.3 s",
		2 * time.Millisecond:       "2.00 ms",
	} {
		if got := FormatDuration(d); got != want {
			t.Errorf("FormatDuration(%d) = %q, want %q", int64(d), got, want)
		}
	}
}

// The bar's whole line fits the terminal for any description, terminal
// width from 60 columns and run count.
func TestFitDescriptionFits(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		desc := rapid.StringMatching(`[a-zµ:=~ ,.0-9-]{0,200}`).Draw(t, "desc")
		cols := rapid.IntRange(60, 300).Draw(t, "cols")
		total := rapid.IntRange(1, 1_000_000).Draw(t, "total")
		got := fitDescription(desc, cols, total)
		digits := len(strconv.Itoa(total))
		line := utf8.RuneCountInString(got) + 5 + barMinWidth + 2 + 2 + 2*digits + 2 + 2 + timeFieldsWidth + 2
		if line > cols-1 {
			t.Fatalf("line of %d columns on a %d-column terminal: description %q", line, cols, got)
		}
		if utf8.RuneCountInString(desc) < cols-60 && got != desc {
			t.Fatalf("a short description was shortened: %q -> %q", desc, got)
		}
		if got != desc && !strings.HasSuffix(got, "… ") {
			t.Fatalf("a shortened description does not say so: %q", got)
		}
	})
}
