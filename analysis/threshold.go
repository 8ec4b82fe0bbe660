package analysis

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseThreshold parses a regression threshold given in percent: "5%",
// "5" (a bare number is percent too) or "0.5%", and returns it as a
// fraction (0.05, 0.05, 0.005). It must be a finite number greater than 0.
func ParseThreshold(s string) (float64, error) {
	t := strings.TrimSpace(s)
	t = strings.TrimSpace(strings.TrimSuffix(t, "%"))
	if t == "" {
		return 0, fmt.Errorf("threshold %q: empty; expected a percentage such as 5%%, 5 or 0.5%%", s)
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(t, "_", ""), 64)
	if err != nil {
		return 0, fmt.Errorf("threshold %q: not a number; expected a percentage such as 5%%, 5 or 0.5%%", s)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
		return 0, fmt.Errorf("threshold %q: must be a finite percentage greater than 0, such as 5%% (leave the flag out to turn the gate off)", s)
	}
	return v / 100, nil
}
