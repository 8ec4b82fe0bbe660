package compare

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"unicode/utf8"
)

// sampleComparison has a regression, an unchanged row, a row with too few
// runs (infinite intervals) and a label that needs Markdown escaping.
func sampleComparison(t *testing.T) *Comparison {
	t.Helper()
	b := noisy(3, 10, 1.686, 0.02)
	base := fixture(
		spec{label: "boxroot", samples: b},
		spec{label: "ref", samples: noisy(4, 10, 2.681, 0.02)},
		spec{label: "bx|boxed", samples: noisy(5, 3, 0.0107, 0.02)},
	)
	head := fixture(
		spec{label: "boxroot", samples: scaled(b, 1.2)},
		spec{label: "ref", samples: noisy(4, 10, 2.681, 0.02)},
		spec{label: "bx|boxed", samples: noisy(6, 3, 0.0107, 0.02)},
	)
	head.Machine.CPUModel = "Other CPU"
	c, err := Files(base, head, Options{Threshold: 0.05, BaseName: "base.json", HeadName: "head.json"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestText(t *testing.T) {
	c := sampleComparison(t)
	var buf bytes.Buffer
	if err := Text(&buf, c); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
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
		"benchmark": {"base", "head", "delta", "delta interval", "p", "verdict", "gate 5%"},
		"boxroot":   {"1.7", "s ± ", "+20.00%", "p=0.000 n=10", "slower", "FAIL"},
		"ref":       {"+0.00%", "p=1.000 n=10", "~"},
		"bx|boxed":  {"ms ± ∞", "[-∞, +∞]", "n=3"},
		"geomean":   {"+6.27%"},
	} {
		l := row(prefix)
		for _, w := range wants {
			if !strings.Contains(l, w) {
				t.Errorf("line %q lacks %q", l, w)
			}
		}
	}
	if strings.Contains(row("ref"), "FAIL") {
		t.Errorf("unchanged row marked FAIL: %q", row("ref"))
	}
	// Columns are aligned: the header and rows put "delta" figures at the
	// same end column.
	end := func(l, s string) int { return utf8.RuneCountInString(l[:strings.Index(l, s)+len(s)]) }
	if h, r := row("benchmark"), row("boxroot"); end(h, "delta ") != end(r, "+20.00% ") {
		t.Errorf("delta column not right-aligned under its header:\n%s\n%s", h, r)
	}
	for _, w := range append([]string{c.SummaryLine(), "warnings:"}, c.Warnings...) {
		if !strings.Contains(out, w) {
			t.Errorf("text lacks %q", w)
		}
	}
	for _, l := range lines {
		if strings.HasSuffix(l, " ") {
			t.Errorf("trailing blanks in %q", l)
		}
	}
}

func TestMarkdown(t *testing.T) {
	c := sampleComparison(t)
	var buf bytes.Buffer
	if err := Markdown(&buf, c); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	first, _, _ := strings.Cut(out, "\n")
	if first != "**"+c.SummaryLine()+"**" {
		t.Errorf("first line %q, want the summary line", first)
	}
	if !strings.HasPrefix(c.SummaryLine(), "1 slower, 0 faster, 2 unchanged; gate 5%: FAIL (boxroot +20.0% [") {
		t.Errorf("summary line %q", c.SummaryLine())
	}
	table := strings.Index(out, "| benchmark |")
	details := strings.Index(out, "<details>")
	if table < 0 || details < table || !strings.HasSuffix(out, "</details>\n") {
		t.Fatalf("want summary, table, then a <details> block:\n%s", out)
	}
	for _, w := range []string{
		"| boxroot |", "| **slower** | **FAIL** |", `| bx\|boxed |`, "| *geomean* |",
		"<summary>Details (", "CPU model Test CPU in base.json, Other CPU in head.json",
		"| CPU | Test CPU | Other CPU |", "**Tests**", "| scheduler | parallel | parallel |",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("markdown lacks %q:\n%s", w, out)
		}
	}
	// Every table row has the header's number of columns.
	for _, l := range strings.Split(out[table:details], "\n") {
		if l != "" && strings.Count(strings.ReplaceAll(l, `\|`, ""), "|") != 8 {
			t.Errorf("table row with a wrong column count: %q", l)
		}
	}
	// A blank line after <summary> lets GitHub render the Markdown inside.
	if !strings.Contains(out, "</summary>\n\n") {
		t.Error("no blank line after <summary>")
	}
}

func TestJSON(t *testing.T) {
	c := sampleComparison(t)
	var buf bytes.Buffer
	if err := JSON(&buf, c); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Gate    string
		Summary string
		Rows    []struct {
			Label      string
			Verdict    string
			Regression bool
			Delta      float64
			DeltaLo    *float64 `json:"delta_lo"`
			DeltaHi    *float64 `json:"delta_hi"`
			P          float64
			Base       struct{ Median, Lo *float64 }
		}
		Geomean  *struct{ Delta float64 }
		Warnings []string
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("JSON output does not parse: %v\n%s", err, buf.String())
	}
	if got.Gate != "fail" || got.Summary != c.SummaryLine() || len(got.Rows) != 3 || got.Geomean == nil {
		t.Fatalf("gate %q summary %q rows %d geomean %v", got.Gate, got.Summary, len(got.Rows), got.Geomean)
	}
	r := got.Rows[0]
	if r.Label != "boxroot" || r.Verdict != "slower" || !r.Regression || r.DeltaLo == nil || *r.DeltaLo != c.Rows[0].DeltaLo {
		t.Errorf("row 0 = %+v", r)
	}
	if bx := got.Rows[2]; bx.DeltaLo != nil || bx.DeltaHi != nil || bx.Base.Lo != nil || bx.Base.Median == nil {
		t.Errorf("infinite bounds should be null, the median present: %+v", bx)
	}
	if len(got.Warnings) != len(c.Warnings) {
		t.Errorf("%d warnings in JSON, %d in the comparison", len(got.Warnings), len(c.Warnings))
	}
}

// TestSeconds pins the duration format: 4 significant digits in the unit
// report.UnitFor picks, with no space (benchstat's style).
func TestSeconds(t *testing.T) {
	for v, want := range map[float64]string{
		0:           "0.000s",
		1.5e-9:      "1.500ns",
		1e-6:        "1.000µs",
		2.5e-5:      "25.00µs",
		0.3016:      "301.6ms",
		-0.002:      "-2.000ms",
		1.686:       "1.686s",
		123.4:       "123.4s",
		math.Inf(1): "∞",
	} {
		if got := seconds(v); got != want {
			t.Errorf("seconds(%v) = %q, want %q", v, got, want)
		}
	}
}
