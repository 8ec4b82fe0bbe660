package analysis

import (
	"fmt"

	"github.com/rootbench/rootbench/parse"
)

// ParseThreshold parses a regression threshold, a percentage such as "5%"
// or "0.5%" (parse.Percent: digits with an optional fraction, '_' between
// digits, then '%'), and returns it as a fraction (0.05, 0.005). It must
// be greater than 0. A bare number is refused, since "5" could be 5% or
// the fraction 5 (500%); so are signs, exponents, hexadecimal, Inf, NaN
// and spaces. Every command's --fail-on-regression goes through it.
func ParseThreshold(s string) (float64, error) {
	v, err := parse.Percent(s)
	if err != nil {
		return 0, fmt.Errorf("threshold: %w", err)
	}
	if v <= 0 {
		return 0, fmt.Errorf("threshold %q: must be greater than 0%%, such as 5%%", s)
	}
	return v, nil
}
