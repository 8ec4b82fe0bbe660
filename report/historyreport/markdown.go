package historyreport

import (
	"bytes"
	"fmt"
	"io"

	"github.com/olekukonko/tablewriter/tw"

	"github.com/rootbench/rootbench/report"
)

// Markdown writes d for a job summary or an issue: per series a heading,
// its workload, parameters and machine, the table of its change points
// (range, change with interval, p-value, levels, culprit or the command
// that bisects it) and its commits in a collapsed table; the method last.
// heading is the Markdown heading's level for the series (3: "###").
func Markdown(w io.Writer, d Document, heading int) error {
	var buf bytes.Buffer
	h := "###"
	if heading > 0 {
		h = string(bytes.Repeat([]byte("#"), heading))
	}
	if len(d.Series) == 0 {
		fmt.Fprintf(&buf, "%s\n", report.MdEscape(emptyLine(d)))
	}
	for _, s := range d.Series {
		if err := SeriesMarkdown(&buf, s, h, ""); err != nil {
			return err
		}
	}
	if len(d.Series) > 0 && d.Method != "" {
		fmt.Fprintf(&buf, "_Change points: %s_\n", report.MdEscape(d.Method))
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("history: write markdown: %w", err)
	}
	return nil
}

// SeriesMarkdown writes one series as Markdown under a heading of the
// given level ("###"): its workload, parameters and machine, then chart
// (a Markdown image, when not empty), its change points and its commits
// in a collapsed table.
func SeriesMarkdown(w io.Writer, s Series, heading, chart string) error {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "%s %s\n\n", heading, report.MdEscape(Title(s)))
	fmt.Fprintf(&buf, "%s: %s; machine %s (%s)\n\n", report.MdEscape(s.Workload), report.MdCode(paramsText(s.Params)),
		report.MdCode(s.Machine), report.MdEscape(s.MachineKind))
	if chart != "" {
		fmt.Fprintf(&buf, "%s\n\n", chart)
	}
	if err := ChangeTable(&buf, s); err != nil {
		return err
	}
	fmt.Fprintf(&buf, "\n<details><summary>%s</summary>\n\n", count(len(s.Points), "commit"))
	if err := PointsTable(&buf, s); err != nil {
		return err
	}
	fmt.Fprintf(&buf, "\n</details>\n\n")
	_, err := w.Write(buf.Bytes())
	return err
}

// ChangeTable writes a series' change points as a Markdown table, or a
// sentence when it has none.
func ChangeTable(w io.Writer, s Series) error {
	switch {
	case s.Note != "":
		_, err := fmt.Fprintf(w, "%s\n", report.MdEscape(s.Note))
		return err
	case len(s.ChangePoints) == 0:
		_, err := fmt.Fprintf(w, "No change point in %s.\n", count(len(s.Points), "commit"))
		return err
	}
	var rows [][]string
	for _, c := range s.ChangePoints {
		rows = append(rows, []string{Mark(c), report.MdCode(c.LastGood.Short + ".." + c.FirstBad.Short), pct(c.Ratio),
			fmt.Sprintf("[%s, %s]", pct(c.Lo), pct(c.Hi)), PValue(c.P),
			report.FourDigits(c.Before) + " → " + report.FourDigits(c.After) + " " + s.Unit, report.MdEscape(Outcome(s, c))})
	}
	return report.MarkdownTable(w, []string{"change", "last good..first bad", "change", "interval", "p", "level", "cause"}, rows,
		[]tw.Align{tw.AlignLeft, tw.AlignLeft, tw.AlignRight, tw.AlignLeft, tw.AlignRight, tw.AlignLeft, tw.AlignLeft})
}

// markdownSubject is the longest subject a Markdown table shows, in
// characters.
const markdownSubject = 72

// PointsTable writes a series' commits as a Markdown table, subjects cut
// to markdownSubject characters.
func PointsTable(w io.Writer, s Series) error {
	rows := make([][]string, len(s.Points))
	for i, p := range s.Points {
		rows[i] = []string{ChangeCell(s, p), report.MdCode(p.Short), Date(p.Commit), MedianCell(p), IntervalCell(p), RunsCell(p),
			report.MdEscape(cut(p.Subject, markdownSubject))}
	}
	return report.MarkdownTable(w, []string{"", "commit", "date", "median " + s.Unit, "interval", "runs", "subject"}, rows,
		[]tw.Align{tw.AlignLeft, tw.AlignLeft, tw.AlignLeft, tw.AlignRight, tw.AlignLeft, tw.AlignRight, tw.AlignLeft})
}
