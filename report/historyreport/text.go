package historyreport

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/olekukonko/tablewriter/tw"

	"github.com/rootbench/rootbench/report"
)

// Width is the terminal width Text fits: every line is at most this many
// columns.
const Width = 80

// Text writes every series of d for a terminal of Width columns: a header
// (benchmark, metric and unit; workload and parameters; machine kind),
// one row per commit (its change point's mark on the first bad commit's
// row, short hash, date, median, interval, runs, subject cut to fit), then
// each change point: its range, magnitude with interval, p-value, the
// levels before and after, and the culprit a bisection named or the
// command that would bisect it. The method closes the output.
func Text(w io.Writer, d Document) error {
	var buf bytes.Buffer
	if len(d.Series) == 0 {
		fmt.Fprintln(&buf, report.WrapWords(emptyLine(d), Width, 0, "  "))
	}
	for i, s := range d.Series {
		if i > 0 {
			buf.WriteString("\n")
		}
		if err := seriesText(&buf, s); err != nil {
			return err
		}
	}
	if len(d.Series) > 0 && d.Method != "" {
		fmt.Fprintf(&buf, "\n%s\n", report.WrapWords("change points: "+d.Method, Width, 0, "  "))
	}
	if _, err := w.Write(trimLines(buf.Bytes())); err != nil {
		return fmt.Errorf("history: write text: %w", err)
	}
	return nil
}

// emptyLine says that no series was selected.
func emptyLine(d Document) string {
	if d.Since != nil {
		return fmt.Sprintf("no series in %s has a commit since %s", d.Store, d.Since.Short)
	}
	return fmt.Sprintf("no series in %s matches: add results files with 'rootbench history add', or measure past commits with 'rootbench history backfill'", d.Store)
}

// Title is a series' first line: "boxroot-handle, wall (ns/cell), series
// 12: 14 commits, 2 change points".
func Title(s Series) string {
	metric := s.Metric
	if s.Unit != "" {
		metric += " (" + s.Unit + ")"
	}
	return fmt.Sprintf("%s, %s, series %d: %s, %s", s.Benchmark, metric, s.ID,
		count(len(s.Points), "commit"), count(len(s.ChangePoints), "change point"))
}

// count is "1 commit" or "3 commits".
func count(n int, what string) string { return fmt.Sprintf("%d %s%s", n, what, report.Plural(n)) }

// seriesText writes one series.
func seriesText(buf *bytes.Buffer, s Series) error {
	fmt.Fprintln(buf, report.WrapWords(Title(s), Width, 0, "  "))
	fmt.Fprintf(buf, "  %s\n", report.WrapWords(s.Workload+": "+paramsText(s.Params), Width, 2, "    "))
	fmt.Fprintf(buf, "  %s\n\n", report.WrapWords("machine "+s.Machine+": "+s.MachineKind, Width, 2, "    "))
	table, err := pointsTable(s)
	if err != nil {
		return err
	}
	buf.WriteString(table)
	if s.Note != "" {
		fmt.Fprintf(buf, "\n  %s\n", report.WrapWords(s.Note, Width, 2, "  "))
	}
	if len(s.ChangePoints) == 0 {
		return nil
	}
	fmt.Fprintln(buf)
	for _, c := range s.ChangePoints {
		first := fmt.Sprintf("%s %s..%s: %s, p %s; %s → %s %s", Mark(c), c.LastGood.Short, c.FirstBad.Short,
			Magnitude(c), PValue(c.P), report.FourDigits(c.Before), report.FourDigits(c.After), s.Unit)
		fmt.Fprintf(buf, "  %s\n", report.WrapWords(first, Width, 2, "     "))
		fmt.Fprintf(buf, "     %s\n", report.WrapWords(Outcome(s, c), Width, 5, "     "))
	}
	return nil
}

// Mark is a change point's mark on its first bad commit's row: "↑1" for
// the first change point when the level rose, "↓2" for the second when it
// fell.
func Mark(c ChangePoint) string {
	if c.Up() {
		return fmt.Sprintf("↑%d", c.Number)
	}
	return fmt.Sprintf("↓%d", c.Number)
}

// Magnitude is a change as a percentage with its interval: "+72.3%
// [+60.1%, +85.0%]".
func Magnitude(c ChangePoint) string {
	return fmt.Sprintf("%s [%s, %s]", pct(c.Ratio), pct(c.Lo), pct(c.Hi))
}

// pct is a ratio's change as a signed percentage: 1.723 is "+72.3%".
func pct(ratio float64) string { return fmt.Sprintf("%+.1f%%", 100*(ratio-1)) }

// PValue is a p-value in two significant digits.
func PValue(p float64) string { return fmt.Sprintf("%.2g", p) }

// Outcome says what is known of a change point's cause: the culprit of
// its last bisection, or how that bisection ended, or the command that
// would bisect it.
func Outcome(s Series, c ChangePoint) string {
	n := len(c.Bisections)
	if n == 0 {
		return fmt.Sprintf("bisect: rootbench history bisect --series %d --change %d", s.ID, c.Number)
	}
	b := c.Bisections[n-1]
	when := b.At.UTC().Format("2006-01-02")
	if b.Culprit != nil {
		return fmt.Sprintf("culprit: %s (history bisect, %s)", commitText(*b.Culprit), when)
	}
	return fmt.Sprintf("bisected %s..%s on %s: no single culprit (%s)", short(b.Good), short(b.Bad), when, b.Outcome)
}

// commitText is "3e8f312 its subject", or the short hash alone.
func commitText(c Commit) string { return report.JoinNonEmpty(" ", c.Short, c.Subject) }

// short is a hash's first seven digits.
func short(hash string) string {
	if len(hash) > 7 {
		return hash[:7]
	}
	return hash
}

// paramsText is "name=value" pairs sorted by name.
func paramsText(p map[string]string) string {
	var parts []string
	for _, k := range report.SortedKeys(p) {
		parts = append(parts, k+"="+p[k])
	}
	if len(parts) == 0 {
		return "no parameters"
	}
	return strings.Join(parts, " ")
}

// Date is a point's commit date, "2006-01-02", or "unknown".
func Date(c Commit) string {
	if c.Time == nil {
		return "unknown"
	}
	return c.Time.UTC().Format("2006-01-02")
}

// MedianCell is a point's median, or "failed" when every run failed.
func MedianCell(p Point) string {
	if p.Median == nil {
		return "failed"
	}
	return report.FourDigits(*p.Median)
}

// IntervalCell is a point's interval, "[9.712, 9.990]", or report.Missing
// when it has too few runs for one.
func IntervalCell(p Point) string {
	if p.Lo == nil || p.Hi == nil {
		return report.Missing
	}
	return fmt.Sprintf("[%s, %s]", report.FourDigits(*p.Lo), report.FourDigits(*p.Hi))
}

// RunsCell is a point's runs: "10", or "8 +2 failed".
func RunsCell(p Point) string {
	if p.Failed > 0 {
		return fmt.Sprintf("%d +%d failed", p.Runs, p.Failed)
	}
	return fmt.Sprint(p.Runs)
}

// ChangeCell is the mark of the change point whose first bad commit p is.
func ChangeCell(s Series, p Point) string {
	if p.Change == 0 || p.Change > len(s.ChangePoints) {
		return ""
	}
	return Mark(s.ChangePoints[p.Change-1])
}

// pointsTable renders a series' rows, the subjects cut so that every line
// fits Width.
func pointsTable(s Series) (string, error) {
	rows := make([][]string, len(s.Points))
	for i, p := range s.Points {
		rows[i] = []string{ChangeCell(s, p), p.Short, Date(p.Commit), MedianCell(p), IntervalCell(p), RunsCell(p), p.Subject}
	}
	header := []string{"", "commit", "date", "median", "interval", "runs", "subject"}
	bare, err := renderTable(header, rows, 0)
	if err != nil {
		return "", err
	}
	room := Width - (report.TextWidth(bare) - utf8.RuneCountInString("subject"))
	return renderTable(header, rows, max(room, len("subject")))
}

// renderTable renders a table without borders; subject > 0 cuts the last
// column to that many characters, 0 leaves it empty (to measure the
// others).
func renderTable(header []string, rows [][]string, subject int) (string, error) {
	var buf bytes.Buffer
	align := []tw.Align{tw.AlignLeft, tw.AlignLeft, tw.AlignLeft, tw.AlignRight, tw.AlignLeft, tw.AlignRight, tw.AlignLeft}
	t := report.PlainTable(&buf, align)
	t.Header(toAny(header)...)
	for _, r := range rows {
		cells := toAny(r)
		last := len(cells) - 1
		if subject == 0 {
			cells[last] = ""
		} else {
			cells[last] = cut(r[last], subject)
		}
		if err := t.Append(cells...); err != nil {
			return "", fmt.Errorf("history: text table: %w", err)
		}
	}
	if err := t.Render(); err != nil {
		return "", fmt.Errorf("history: text table: %w", err)
	}
	return buf.String(), nil
}

// cut shortens s to n characters, ending in "…" when cut.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:max(n-1, 0)]) + "…"
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// trimLines drops trailing blanks from every line.
func trimLines(b []byte) []byte {
	lines := bytes.Split(b, []byte("\n"))
	for i, l := range lines {
		lines[i] = bytes.TrimRight(l, " ")
	}
	return bytes.Join(lines, []byte("\n"))
}
