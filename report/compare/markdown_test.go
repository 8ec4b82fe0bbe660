package compare

import (
	"strings"
	"testing"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/report"
)

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

func TestMarkdown(t *testing.T) {
	t.Parallel()
	c := sampleComparison(t, analysis.MethodHL)
	out := write(t, Markdown, c)
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
