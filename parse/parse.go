// Package parse turns numbers, durations and lists as users type them on the
// command line or in environment variables into values, with errors that
// quote the input and say what is accepted.
//
// Numbers accept '_' between digits, as Go literals and the OCaml
// benchmark's environment variables do (NITERS=100_000), and nothing else:
// no exponents, no hexadecimal, no surrounding spaces.
package parse

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

const intAccepted = "accepted: a decimal integer with an optional sign, '_' allowed between digits (e.g. 100_000)"

// Int parses a decimal integer as users write them: optional sign, digits,
// '_' allowed only between digits ("100_000").
//
// It rejects "", "1_0_", "_1", "1__0", "1e3", "0x10", "1.5" and " 1" with an
// error that quotes the input and says what is accepted. A well-formed number
// outside the int64 range is reported as out of range.
func Int(s string) (int64, error) {
	digits, ok := stripUnderscores(s)
	if !ok {
		return 0, fmt.Errorf("invalid number %q: %s", s, intAccepted)
	}
	v, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("number %q is out of range: accepted: %d to %d", s, int64(math.MinInt64), int64(math.MaxInt64))
		}
		// Unreachable for well-formed input; kept so a surprise is still an error.
		return 0, fmt.Errorf("invalid number %q: %s: %w", s, intAccepted, err)
	}
	return v, nil
}

// stripUnderscores checks that s is [+-]?digit+(_digit+)* and returns it
// without the underscores.
func stripUnderscores(s string) (string, bool) {
	body := s
	if body != "" && (body[0] == '+' || body[0] == '-') {
		body = body[1:]
	}
	if body == "" {
		return "", false
	}
	var b strings.Builder
	b.Grow(len(s))
	if len(body) != len(s) {
		b.WriteByte(s[0])
	}
	prevDigit := false
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c >= '0' && c <= '9':
			b.WriteByte(c)
			prevDigit = true
		case c == '_':
			// '_' must sit between two digits: a digit before it, and the
			// next byte must be a digit (checked on that byte via prevDigit).
			if !prevDigit || i+1 == len(body) {
				return "", false
			}
			prevDigit = false
		default:
			return "", false
		}
	}
	return b.String(), prevDigit
}

// Count parses a count such as a number of iterations or workers: Int, then
// it must be at least 1 and fit an int. The error names the parameter.
func Count(name, s string) (int, error) {
	v, err := Int(s)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	if v < 1 {
		return 0, fmt.Errorf("%s %s: must be at least 1", name, s)
	}
	if v > math.MaxInt {
		return 0, fmt.Errorf("%s %s: too large (at most %d)", name, s, math.MaxInt)
	}
	return int(v), nil
}

const percentAccepted = "accepted: a percentage: digits with an optional fraction after '.', '_' allowed between digits, then '%' (e.g. 5%, 0.5%, 12.5%)"

// Percent parses a percentage as users write a threshold and returns it as
// a fraction ("5%" is 0.05): an unsigned decimal number (digits with an
// optional fraction after '.', '_' allowed between digits, as Int allows
// them) followed by '%'. It rejects a bare number, whose meaning is
// ambiguous ("5": 5%, or 500% written as a fraction?), signs, exponents,
// hexadecimal, Inf, NaN and spaces, with an error that quotes the input
// and says what is accepted.
func Percent(s string) (float64, error) {
	body, hasPct := strings.CutSuffix(s, "%")
	v, ok := decimal(body)
	switch {
	case ok && !hasPct:
		return 0, fmt.Errorf("percentage %q lacks its '%%': write %s%% for %s percent, or %s%% if %s is a fraction; %s",
			s, body, body, strconv.FormatFloat(100*v, 'f', -1, 64), body, percentAccepted)
	case !ok:
		return 0, fmt.Errorf("invalid percentage %q: %s", s, percentAccepted)
	case math.IsInf(v, 0):
		return 0, fmt.Errorf("percentage %q is too large: %s", s, percentAccepted)
	}
	return v / 100, nil
}

const decimalAccepted = "accepted: digits with an optional fraction after '.', '_' allowed between digits (e.g. 0.05)"

// Decimal parses an unsigned decimal number as users write a level or a
// fraction: digits with an optional fraction after '.' ("0.05", ".05",
// "5."), '_' allowed between digits. It rejects signs, exponents,
// hexadecimal, Inf, NaN, spaces and numbers beyond float64, with an error
// that quotes the input and says what is accepted.
func Decimal(s string) (float64, error) {
	v, ok := decimal(s)
	switch {
	case !ok:
		return 0, fmt.Errorf("invalid number %q: %s", s, decimalAccepted)
	case math.IsInf(v, 0):
		return 0, fmt.Errorf("number %q is too large: %s", s, decimalAccepted)
	}
	return v, nil
}

// decimal parses an unsigned decimal number: digits with an optional
// fraction after '.' (either side may be empty, not both: "5", "0.5",
// ".5", "5."), '_' allowed between digits. ok is false for anything else.
// A number beyond float64 is +Inf.
func decimal(s string) (v float64, ok bool) {
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" && frac == "" {
		return 0, false
	}
	var parts [2]string
	for i, p := range []string{whole, frac} {
		if p == "" {
			continue
		}
		if p[0] < '0' || p[0] > '9' { // no sign: stripUnderscores allows one
			return 0, false
		}
		if parts[i], ok = stripUnderscores(p); !ok {
			return 0, false
		}
	}
	v, err := strconv.ParseFloat(cmp.Or(parts[0], "0")+"."+cmp.Or(parts[1], "0"), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false // unreachable for the digits checked above
	}
	return v, true
}

const durationAccepted = `accepted: a Go duration ("3s", "500ms", "1m30s") or plain seconds ("3", "0.5"), not negative`

// Duration parses a duration: a Go duration ("3s", "500ms", "1m30s") or a
// plain number of seconds ("3", "0.5"). Negative durations are rejected.
func Duration(s string) (time.Duration, error) {
	if isPlainSeconds(s) {
		secs, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return 0, fmt.Errorf("invalid duration %q: %s: %w", s, durationAccepted, err)
		}
		ns := secs * float64(time.Second)
		if ns >= math.MaxInt64 {
			return 0, fmt.Errorf("duration %q is too long: at most %s", s, time.Duration(math.MaxInt64))
		}
		return time.Duration(math.Round(ns)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("invalid duration %q: %s", s, durationAccepted)
	}
	if d < 0 {
		return 0, fmt.Errorf("invalid duration %q: must not be negative; %s", s, durationAccepted)
	}
	return d, nil
}

// isPlainSeconds reports whether s is digits with an optional fraction:
// "3", "0.5", "3.", ".5".
func isPlainSeconds(s string) bool {
	digits, dots := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.':
			dots++
		default:
			return false
		}
	}
	return digits > 0 && dots <= 1
}

// List splits a comma-separated list, trimming spaces around each item.
// Empty items ("a,,b", "a,", "") are an error.
func List(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("empty list %q: accepted: comma-separated items, e.g. a,b,c", s)
	}
	parts := strings.Split(s, ",")
	out := make([]string, 0, len(parts))
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" {
			return nil, fmt.Errorf("empty item %d in list %q: accepted: comma-separated items, e.g. a,b,c", i+1, s)
		}
		out = append(out, p)
	}
	return out, nil
}

// ParameterList parses a parameter scan such as "batch-size=16,256,4096":
// a name (letters, digits, '-' and '_'), '=', then a List of values.
func ParameterList(s string) (name string, values []string, err error) {
	const accepted = "accepted: NAME=V1,V2,... e.g. batch-size=16,256,4096"
	n, v, ok := strings.Cut(s, "=")
	if !ok {
		return "", nil, fmt.Errorf("parameter list %q has no '=': %s", s, accepted)
	}
	n = strings.TrimSpace(n)
	if n == "" {
		return "", nil, fmt.Errorf("parameter list %q has no name before '=': %s", s, accepted)
	}
	for _, c := range n {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return "", nil, fmt.Errorf("parameter list %q: invalid character %q in name %q: names use letters, digits, '-' and '_'; %s", s, c, n, accepted)
		}
	}
	values, err = List(v)
	if err != nil {
		return "", nil, fmt.Errorf("parameter list %q: values: %w", s, err)
	}
	return n, values, nil
}

const sizeAccepted = `accepted: a whole number of bytes, '_' allowed between digits, with an optional unit B, KiB, MiB, GiB, TiB (powers of 1024) or kB, MB, GB, TB (powers of 1000), e.g. 512MiB or 8GB`

// sizeUnits are the units Size accepts, matched case-sensitively except that
// K, M, G, T alone and with "iB" are binary, as most tools write them.
var sizeUnits = []struct {
	suffix string
	factor int64
}{
	{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10},
	{"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"kB", 1e3}, {"KB", 1e3},
	{"T", 1 << 40}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"k", 1 << 10},
	{"B", 1},
}

// Size parses an amount of memory: a whole number of bytes ('_' allowed
// between digits) with an optional unit: B, KiB, MiB, GiB, TiB (powers of
// 1024; K, M, G, T alone mean the same) or kB, MB, GB, TB (powers of 1000).
// "512MiB", "8GB", "1_000_000". Negative sizes and sizes beyond int64 are
// rejected.
func Size(s string) (int64, error) {
	num, factor := s, int64(1)
	for _, u := range sizeUnits {
		if n, ok := strings.CutSuffix(s, u.suffix); ok {
			num, factor = strings.TrimSpace(n), u.factor
			break
		}
	}
	digits, ok := stripUnderscores(num)
	if !ok || digits[0] == '-' || digits[0] == '+' {
		return 0, fmt.Errorf("invalid size %q: %s", s, sizeAccepted)
	}
	v, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || v > math.MaxInt64/factor {
		return 0, fmt.Errorf("size %q is too large: at most %d bytes", s, int64(math.MaxInt64))
	}
	return v * factor, nil
}

// FormatBytes writes a byte count with a binary unit and three significant
// digits or so: 512 B, 1.50 KiB, 20.0 MiB, 1.25 TiB.
func FormatBytes(n int64) string {
	if n < 1024 && n > -1024 {
		return fmt.Sprintf("%d B", n)
	}
	v := float64(n)
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	i := -1
	for math.Abs(v) >= 1024 && i+1 < len(units) {
		v /= 1024
		i++
	}
	switch {
	case math.Abs(v) >= 100:
		return fmt.Sprintf("%.0f %s", v, units[i])
	case math.Abs(v) >= 10:
		return fmt.Sprintf("%.1f %s", v, units[i])
	}
	return fmt.Sprintf("%.2f %s", v, units[i])
}
