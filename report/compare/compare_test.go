package compare

import (
	"io"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/analysis"
)

// write renders c in format (Text, Markdown, JSON) and returns the
// output.
func write(t *testing.T, format func(io.Writer, *analysis.Comparison) error, c *analysis.Comparison) string {
	t.Helper()
	var b strings.Builder
	if err := format(&b, c); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// sampleComparison has a regression, an unchanged row, a row with too few
// runs (inconclusive, infinite interval) and a label that needs Markdown
// escaping.
func sampleComparison(t *testing.T, m analysis.Method) *analysis.Comparison {
	t.Helper()
	b := noisy(3, 10, 1.686, 0.02)
	base := fixture(
		spec{Label: "boxroot", Samples: b},
		spec{Label: "ref", Samples: noisy(4, 10, 2.681, 0.02)},
		spec{Label: "bx|boxed", Samples: noisy(5, 3, 0.0107, 0.02)},
	)
	head := fixture(
		spec{Label: "boxroot", Samples: scaled(b, 1.2)},
		spec{Label: "ref", Samples: noisy(4, 10, 2.681, 0.02)},
		spec{Label: "bx|boxed", Samples: noisy(6, 3, 0.0107, 0.02)},
	)
	head.Machine.CPUModel = "Other CPU"
	c, err := analysis.CompareFiles(base, head, analysis.Options{Method: m, Threshold: 0.05, BaseName: "base.json", HeadName: "head.json"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestSummaryLine(t *testing.T) {
	t.Parallel()
	c := sampleComparison(t, analysis.MethodHL)
	if got := SummaryLine(c); !strings.HasPrefix(got, "1 slower, 0 faster, 2 unchanged; gate 5%: REGRESSION (boxroot +20.0% [") {
		t.Errorf("summary line %q", got)
	}
	c.Rows = c.Rows[1:] // without the regression: bx|boxed is undecided
	if got := SummaryLine(c); !strings.Contains(got, "gate 5%: INCONCLUSIVE (bx|boxed: about ") {
		t.Errorf("summary line %q", got)
	}
	c.Rows = c.Rows[:1]
	if got := SummaryLine(c); !strings.Contains(got, "gate 5%: pass") {
		t.Errorf("summary line %q", got)
	}
	c.Threshold = 0
	if got := SummaryLine(c); !strings.Contains(got, "gate off") {
		t.Errorf("summary line %q", got)
	}
}

// TestMethodNamesPairing: a paired comparison's footer names the paired
// estimator, not the two-sample one.
func TestMethodNamesPairing(t *testing.T) {
	t.Parallel()
	c := &analysis.Comparison{Method: analysis.MethodHL, Correction: analysis.CorrectionHolm, Alpha: 0.05, Paired: true}
	if m := Method(c); !strings.Contains(m, "signed-rank") || strings.Contains(m, "Mann-Whitney") {
		t.Errorf("paired method line %q: want the signed-rank interval named, not Mann-Whitney", m)
	}
	c.Paired = false
	if m := Method(c); !strings.Contains(m, "Mann-Whitney") {
		t.Errorf("unpaired method line %q: want Mann-Whitney", m)
	}
}
