package report

import (
	"fmt"
	"os"
	"strings"

	"golang.org/x/term"
)

// Style is how much decoration the terminal output carries, as hyperfine's
// --style: colour and an interactive progress bar.
type Style int

// The styles, as hyperfine names them. AutoStyle is the zero value and is
// turned into one of the others by ResolveStyle; unresolved, it behaves as
// Basic (no colour, no progress bar).
const (
	// AutoStyle picks Full on a terminal and Basic otherwise (see ResolveStyle).
	AutoStyle Style = iota
	// Full enables colour and the progress bar.
	Full
	// Basic disables colour and the progress bar: plain text for logs and pipes.
	Basic
	// NoColor keeps the progress bar but prints no colour.
	NoColor
	// ColorOnly keeps colour but shows no progress bar (hyperfine's "color").
	ColorOnly
	// None prints nothing (the exports are still written).
	None
)

var styleNames = []struct {
	name  string
	style Style
}{
	{"auto", AutoStyle}, {"full", Full}, {"basic", Basic},
	{"nocolor", NoColor}, {"color", ColorOnly}, {"none", None},
}

// ParseStyle parses a --style value: auto (or empty), full, basic, nocolor,
// color or none (case-insensitive; "no-color" is accepted for nocolor).
func ParseStyle(s string) (Style, error) {
	v := strings.ToLower(strings.TrimSpace(s))
	switch v {
	case "":
		v = "auto"
	case "no-color":
		v = "nocolor"
	}
	for _, n := range styleNames {
		if n.name == v {
			return n.style, nil
		}
	}
	return AutoStyle, fmt.Errorf("unknown style %q: accepted values are auto, full, basic, nocolor, color and none", s)
}

// String returns the style's --style name.
func (s Style) String() string {
	for _, n := range styleNames {
		if n.style == s {
			return n.name
		}
	}
	return fmt.Sprintf("Style(%d)", int(s))
}

// ResolveStyle turns AutoStyle into a concrete style for output written to out;
// any other style is returned unchanged (an explicit --style wins).
// AutoStyle becomes Basic when out is nil or not a terminal; on a terminal it becomes
// Full, or NoColor when the NO_COLOR environment variable is set to any
// non-empty value (https://no-color.org).
func ResolveStyle(requested Style, out *os.File) Style {
	if requested != AutoStyle {
		return requested
	}
	if out == nil || !term.IsTerminal(int(out.Fd())) {
		return Basic
	}
	if os.Getenv("NO_COLOR") != "" {
		return NoColor
	}
	return Full
}

// Color reports whether output in this style carries ANSI colour codes.
func (s Style) Color() bool { return s == Full || s == ColorOnly }

// Progress reports whether this style shows an interactive progress bar.
func (s Style) Progress() bool { return s == Full || s == NoColor }

// ANSI escape sequences; painted only when the style has colour.
const (
	ansiReset   = "\x1b[0m"
	ansiBold    = "\x1b[1m"
	ansiDim     = "\x1b[2m"
	ansiGreen   = "\x1b[32m"
	ansiYellow  = "\x1b[33m"
	ansiBlue    = "\x1b[34m"
	ansiMagenta = "\x1b[35m"
	ansiCyan    = "\x1b[36m"
)

// painter wraps text in ANSI codes when colour is on.
type painter bool

func (p painter) paint(s string, codes ...string) string {
	if !p || len(codes) == 0 {
		return s
	}
	return strings.Join(codes, "") + s + ansiReset
}
