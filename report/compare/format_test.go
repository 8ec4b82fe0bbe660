package compare

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/report"
)

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

// mdCells splits a Markdown table row on its unescaped pipes.
func mdCells(l string) []string {
	l = strings.TrimSpace(l)
	if !strings.HasPrefix(l, "|") || !strings.HasSuffix(l, "|") {
		return nil
	}
	l = strings.ReplaceAll(l[1:len(l)-1], `\|`, "\x00")
	var out []string
	for _, c := range strings.Split(l, "|") {
		out = append(out, strings.ReplaceAll(strings.TrimSpace(c), "\x00", `\|`))
	}
	return out
}

func TestText(t *testing.T) {
	c := sampleComparison(t, analysis.MethodHL)
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
	buf.Reset()
	if err := Text(&buf, c); err != nil {
		t.Fatal(err)
	}
	if out := buf.String(); !strings.Contains(out, "s ± ") || !strings.Contains(out, "ms ± ∞") || !strings.Contains(out, "no correction across rows") {
		t.Errorf("benchstat text:\n%s", out)
	}
}

func TestSummaryLine(t *testing.T) {
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

func TestMarkdown(t *testing.T) {
	c := sampleComparison(t, analysis.MethodHL)
	var buf bytes.Buffer
	if err := Markdown(&buf, c); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	first, _, _ := strings.Cut(out, "\n")
	if first != "**"+report.MdEscape(SummaryLine(c))+"**" {
		t.Errorf("first line %q, want the summary line", first)
	}
	table := strings.Index(out, "| benchmark")
	details := strings.Index(out, "<details>")
	if table < 0 || details < table || !strings.HasSuffix(out, "</details>\n") {
		t.Fatalf("want summary, table, then a <details> block:\n%s", out)
	}
	rows := map[string][]string{}
	for _, l := range strings.Split(out, "\n") {
		if cells := mdCells(l); len(cells) > 0 {
			if _, seen := rows[cells[0]]; !seen {
				rows[cells[0]] = cells
			}
		}
	}
	if r := rows["boxroot"]; len(r) != 8 || r[5] != "**slower**" || r[6] != "**REGRESSION**" || r[7] != Conclusion(c.Rows[0]) {
		t.Errorf("boxroot row %q", r)
	}
	if r := rows["ref"]; len(r) != 8 || r[6] != "pass" || !strings.HasPrefix(r[7], "no slowdown beyond +") {
		t.Errorf("ref row %q", r)
	}
	if r := rows[`bx\|boxed`]; len(r) != 8 || !strings.HasPrefix(r[6], "inconclusive (+") || r[7] != "nothing ruled out yet" {
		t.Errorf("bx|boxed row %q (escaped label)", r)
	}
	if r := rows["CPU"]; len(r) != 3 || r[1] != "Test CPU" || r[2] != "Other CPU" {
		t.Errorf("machines row %q", r)
	}
	if r := rows["scheduler"]; len(r) != 3 || r[1] != "parallel" {
		t.Errorf("parameters row %q", r)
	}
	for _, w := range []string{"| *geomean*", "<summary>Details (", "CPU model Test CPU in base.json, Other CPU in head.json",
		"**Tests**", "adjusted p", "Gate 5%: pass when the interval lies wholly below +5%"} {
		if !strings.Contains(out, w) {
			t.Errorf("markdown lacks %q:\n%s", w, out)
		}
	}
	// Every row of the main table has the header's number of columns.
	for _, l := range strings.Split(out[table:details], "\n") {
		if cells := mdCells(l); l != "" && len(cells) != 8 {
			t.Errorf("table row with a wrong column count: %q", l)
		}
	}
	// A blank line after <summary> lets GitHub render the Markdown inside.
	if !strings.Contains(out, "</summary>\n\n") {
		t.Error("no blank line after <summary>")
	}
}

func TestJSON(t *testing.T) {
	c := sampleComparison(t, analysis.MethodHL)
	var buf bytes.Buffer
	if err := JSON(&buf, c); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Schema     string
		Method     string
		Correction string
		Gate       string
		ExitCode   int `json:"exit_code"`
		Summary    string
		Rows       []struct {
			Label     string
			Verdict   string
			Gate      string
			MoreRuns  int `json:"more_runs"`
			Delta     float64
			DeltaLo   *float64 `json:"delta_lo"`
			DeltaHi   *float64 `json:"delta_hi"`
			PAdjusted float64  `json:"p_adjusted"`
			Base      struct{ Median, Lo *float64 }
			RuledOut  struct {
				Claim    string
				Bound    *float64
				Lo, Hi   *float64
				Level    float64
				MoreRuns int `json:"more_runs"`
				Text     string
			} `json:"ruled_out"`
		}
		Geomean  *struct{ Delta float64 }
		Warnings []string
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("JSON output does not parse: %v\n%s", err, buf.String())
	}
	if got.Schema != JSONSchema || got.Method != "hl" || got.Correction != "holm" || got.Gate != "regression" || got.ExitCode != 1 ||
		got.Summary != SummaryLine(c) || len(got.Rows) != 3 || got.Geomean == nil {
		t.Fatalf("schema %q method %q correction %q gate %q exit %d summary %q rows %d geomean %v",
			got.Schema, got.Method, got.Correction, got.Gate, got.ExitCode, got.Summary, len(got.Rows), got.Geomean)
	}
	r := got.Rows[0]
	if r.Label != "boxroot" || r.Verdict != "slower" || r.Gate != "regression" || r.DeltaLo == nil || *r.DeltaLo != c.Rows[0].DeltaLo {
		t.Errorf("row 0 = %+v", r)
	}
	if bx := got.Rows[2]; bx.DeltaLo != nil || bx.DeltaHi != nil || bx.Base.Lo != nil || bx.Base.Median == nil || bx.Gate != "inconclusive" || bx.MoreRuns < 1 {
		t.Errorf("infinite bounds should be null, the median present, the row inconclusive: %+v", bx)
	}
	if len(got.Warnings) != len(c.Warnings) {
		t.Errorf("%d warnings in JSON, %d in the comparison", len(got.Warnings), len(c.Warnings))
	}
	// Each row says what it ruled out: the regression its least slowdown,
	// the pass its largest, the row with too few runs nothing.
	for i, want := range []struct {
		claim analysis.Claim
		bound *float64
	}{{analysis.SlowerByAtLeast, &c.Rows[0].DeltaLo}, {analysis.NoSlowdownBeyond, &c.Rows[1].DeltaHi}, {analysis.NothingRuledOut, nil}} {
		ro := got.Rows[i].RuledOut
		if ro.Claim != string(want.claim) || (ro.Bound == nil) != (want.bound == nil) || want.bound != nil && *ro.Bound != *want.bound ||
			ro.Level != c.Rows[i].Level || ro.Text != Conclusion(c.Rows[i]) {
			t.Errorf("row %d ruled_out %+v, want claim %s bound %v at level %v", i, ro, want.claim, want.bound, c.Rows[i].Level)
		}
	}
	if bx := got.Rows[2].RuledOut; bx.Lo != nil || bx.Hi != nil || bx.MoreRuns != c.Rows[2].MoreRuns || bx.MoreRuns < 1 {
		t.Errorf("too few runs: ruled_out %+v, want no bounds and the runs still needed", bx)
	}
}

// TestConclusion pins each claim's wording, with the runs an undecided
// row needs left to the gate cell and the summary line.
func TestConclusion(t *testing.T) {
	inf := math.Inf(1)
	for _, tc := range []struct {
		row  analysis.Row
		want string
	}{
		{analysis.Row{DeltaLo: -0.02, DeltaHi: 0.031, Gate: analysis.Pass}, "no slowdown beyond +3.1%"},
		{analysis.Row{DeltaLo: -0.2, DeltaHi: -0.012, Gate: analysis.Pass}, "faster by at least 1.2%"},
		{analysis.Row{DeltaLo: 0.062, DeltaHi: 0.2, Gate: analysis.Regression}, "slower by at least 6.2%"},
		{analysis.Row{DeltaLo: -0.012, DeltaHi: 0.079, Gate: analysis.Inconclusive, MoreRuns: 12}, "-1.2% to +7.9% still possible"},
		{analysis.Row{DeltaLo: 0.00004, DeltaHi: 0.079, Gate: analysis.Inconclusive}, "+0.004% to +7.9% still possible"},
		{analysis.Row{DeltaLo: -inf, DeltaHi: inf, Gate: analysis.Inconclusive}, "nothing ruled out yet"},
		{analysis.Row{DeltaLo: -0.01, DeltaHi: 0.02, Gate: analysis.GateOff}, "-1.0% to +2.0% still possible"},
	} {
		if got := Conclusion(tc.row); got != tc.want {
			t.Errorf("Conclusion(%+v) = %q, want %q", tc.row, got, tc.want)
		}
		// A filled RuledOut and one read on the fly say the same.
		filled := tc.row
		filled.RuledOut = analysis.RuleOut(filled)
		if got := Conclusion(filled); got != tc.want {
			t.Errorf("Conclusion of the filled row = %q, want %q", got, tc.want)
		}
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

// A significant interval never prints as touching zero.
func TestIntervalBoundKeepsItsSign(t *testing.T) {
	if got := interval(analysis.Row{DeltaLo: 0.00004, DeltaHi: 0.01}); got != "[+0.004%, +1.0%]" {
		t.Errorf("interval = %s", got)
	}
}

// TestMethodNamesPairing: a paired comparison's footer names the paired
// estimator, not the two-sample one.
func TestMethodNamesPairing(t *testing.T) {
	c := &analysis.Comparison{Method: analysis.MethodHL, Correction: analysis.CorrectionHolm, Alpha: 0.05, Paired: true}
	if m := Method(c); !strings.Contains(m, "signed-rank") || strings.Contains(m, "Mann-Whitney") {
		t.Errorf("paired method line %q: want the signed-rank interval named, not Mann-Whitney", m)
	}
	c.Paired = false
	if m := Method(c); !strings.Contains(m, "Mann-Whitney") {
		t.Errorf("unpaired method line %q: want Mann-Whitney", m)
	}
}

// On a narrow terminal the gate cells leave out the runs still needed (the
// summary line keeps them) and the prose lines wrap within the width; with
// no width the output is Text's.
func TestTextWidth(t *testing.T) {
	c := sampleComparison(t, analysis.MethodHL)
	var whole, narrow bytes.Buffer
	if err := Text(&whole, c); err != nil {
		t.Fatal(err)
	}
	if err := TextWidth(&narrow, c, 60); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(whole.String(), "inconclusive (+") {
		t.Fatalf("whole output lacks the runs still needed:\n%s", whole.String())
	}
	out := narrow.String()
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
