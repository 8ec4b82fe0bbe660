package compare

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/report"
)

func TestText(t *testing.T) {
	t.Parallel()
	c := sampleComparison(t, analysis.MethodHL)
	out := write(t, Text, c)
	lines := strings.Split(out, "\n")
	row := func(prefix string) string {
		for _, l := range lines {
			if strings.HasPrefix(strings.TrimSpace(l), prefix) {
				return l
			}
		}
		t.Fatalf("no line starting with %q in:\n%s", prefix, out)
		return ""
	}
	for prefix, wants := range map[string][]string{
		"benchmark": {"base", "head", "delta", "delta interval", "p", "verdict", "gate 5%", "conclusion"},
		"boxroot":   {"1.6", "s ", "+20.00%", "p=0.000 n=10", "slower", "REGRESSION", "slower by at least " + magnitude(c.Rows[0].DeltaLo)},
		"ref":       {"+0.00%", "p=1.000 n=10", "~", "pass", "no slowdown beyond " + bound(c.Rows[1].DeltaHi)},
		"bx|boxed":  {"ms", "[-∞, +∞]", "n=3", "inconclusive (+", "nothing ruled out yet"},
		"geomean":   {"%"},
	} {
		l := row(prefix)
		for _, w := range wants {
			if !strings.Contains(l, w) {
				t.Errorf("line %q lacks %q", l, w)
			}
		}
	}
	if strings.Contains(row("boxroot"), "±") {
		t.Errorf("the default method shows medians without their own intervals: %q", row("boxroot"))
	}
	// Columns are aligned: the header and rows put "delta" figures at the
	// same end column.
	end := func(l, s string) int { return utf8.RuneCountInString(l[:strings.Index(l, s)+len(s)]) }
	if h, r := row("benchmark"), row("boxroot"); end(h, "delta ") != end(r, "+20.00% ") {
		t.Errorf("delta column not right-aligned under its header:\n%s\n%s", h, r)
	}
	for _, w := range append([]string{SummaryLine(c), "warnings:", "method: Hodges-Lehmann", "Holm's correction across the 3 rows"}, c.Warnings...) {
		if !strings.Contains(out, w) {
			t.Errorf("text lacks %q:\n%s", w, out)
		}
	}
	for _, l := range lines {
		if strings.HasSuffix(l, " ") {
			t.Errorf("trailing blanks in %q", l)
		}
	}

	// benchstat mode: medians with benchstat's "± x%" and no correction.
	c = sampleComparison(t, analysis.MethodBenchstat)
	if out := write(t, Text, c); !strings.Contains(out, "s ± ") || !strings.Contains(out, "ms ± ∞") || !strings.Contains(out, "no correction across rows") {
		t.Errorf("benchstat text:\n%s", out)
	}
}

// On a narrow terminal the gate cells leave out the runs still needed (the
// summary line keeps them) and the prose lines wrap within the width; with
// no width the output is Text's.
func TestTextWidth(t *testing.T) {
	t.Parallel()
	c := sampleComparison(t, analysis.MethodHL)
	whole := write(t, Text, c)
	out := write(t, func(w io.Writer, c *analysis.Comparison) error { return TextWidth(w, c, 60) }, c)
	if !strings.Contains(whole, "inconclusive (+") {
		t.Fatalf("whole output lacks the runs still needed:\n%s", whole)
	}
	if strings.Contains(out, "inconclusive (+") || !strings.Contains(out, "inconclusive") {
		t.Errorf("narrow gate cells should read plain inconclusive:\n%s", out)
	}
	// Every row keeps its conclusion, however narrow the terminal (over
	// several lines in the narrowest layout, where only the conclusion
	// continues a row).
	flat := strings.Join(strings.Fields(out), " ")
	for _, r := range c.Rows {
		if !strings.Contains(flat, Conclusion(r)) {
			t.Errorf("narrow output lacks %s's conclusion %q:\n%s", r.Label, Conclusion(r), out)
		}
	}
	// Each layout fits where the one before it does not: a terminal as
	// wide as a layout gets that layout.
	for _, l := range textLayouts {
		want, err := textTable(c, l)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := TextWidth(&b, c, report.TextWidth(want)); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), string(trimLines([]byte(want)))) {
			t.Errorf("layout %d not chosen at its own width %d:\n%s", l, report.TextWidth(want), b.String())
		}
	}
	if !strings.Contains(strings.Join(strings.Fields(out), " "), strings.Join(strings.Fields(SummaryLine(c)), " ")) {
		t.Errorf("narrow output lost words of the summary line:\n%s", out)
	}
	inTable := true
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "method:") {
			inTable = false
		}
		if !inTable && utf8.RuneCountInString(l) > 60 && strings.Contains(strings.TrimSpace(l), " ") {
			t.Errorf("prose line of %d columns: %q", utf8.RuneCountInString(l), l)
		}
	}
}
