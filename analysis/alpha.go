package analysis

import (
	"fmt"

	"github.com/rootbench/rootbench/parse"
)

// DefaultAlpha is the false-alarm rate every command uses when --alpha is
// not given: across a comparison's rows (HL with Holm), per row
// (benchstat), over an ab session's looks and over a whole bisection.
const DefaultAlpha = 0.05

// alphaAccepted says what ParseAlpha and CheckAlpha accept.
const alphaAccepted = "accepted: a decimal number strictly between 0 and 1, such as 0.05"

// ParseAlpha parses an --alpha as users type it (parse.Decimal: digits with
// an optional fraction, '_' between digits) and checks it with CheckAlpha.
// "" gives DefaultAlpha. Every command's --alpha goes through it.
func ParseAlpha(s string) (float64, error) {
	if s == "" {
		return DefaultAlpha, nil
	}
	a, err := parse.Decimal(s)
	if err != nil {
		return 0, fmt.Errorf("alpha %q: %s", s, alphaAccepted)
	}
	return a, CheckAlpha(a)
}

// CheckAlpha reports whether a is a usable false-alarm rate: 0 < a < 1.
func CheckAlpha(a float64) error {
	if !(a > 0 && a < 1) {
		return fmt.Errorf("alpha %v: %s", a, alphaAccepted)
	}
	return nil
}
