package document

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/rootbench/rootbench/report"
	"github.com/rootbench/rootbench/report/charts"
	"github.com/rootbench/rootbench/report/export"
	"github.com/rootbench/rootbench/report/historyreport"
)

// HistoryName is the Markdown file WriteHistory creates in its directory.
const HistoryName = "HISTORY.md"

// WriteHistory writes dir/HISTORY.md and its charts (SVG and PNG,
// charts.History) from a history's series, creating dir if needed: per
// series its workload, parameters and machine, the chart of its medians by
// commit with the change points on it, the change points (range, change
// with its interval, p-value, culprit) and its commits. Every figure is
// the document's (analysis decided it); this draws and formats. A series
// whose runs all failed has no chart.
func WriteHistory(dir string, doc historyreport.Document) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("history report: %w", err)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# History\n\nThe series of the history store %s, each a metric of one benchmark with one set of parameters on one kind of machine, one point per commit (the median of its runs with its interval).",
		report.MdCode(doc.Store))
	if doc.Since != nil {
		fmt.Fprintf(&b, " From %s on.", report.MdCode(doc.Since.Short))
	}
	fmt.Fprintf(&b, " Change points: %s; on the charts, a shaded band is a change's range (last good..first bad) and the dashed line the level of each segment between change points.\n\n",
		report.MdEscape(doc.Method))
	if len(doc.Series) == 0 {
		fmt.Fprintln(&b, "The store holds no series.")
	}
	for _, s := range doc.Series {
		base := fmt.Sprintf("history-%d", s.ID)
		chart := fmt.Sprintf("![%s](%s.png) ([SVG](%s.svg))", report.MdEscape(historyreport.Title(s)), base, base)
		if err := drawHistory(dir, base, s); err != nil {
			chart = "_No chart: " + report.MdEscape(err.Error()) + "._"
		}
		if err := historyreport.SeriesMarkdown(&b, s, "##", chart); err != nil {
			return err
		}
	}
	return export.WriteAtomic(filepath.Join(dir, HistoryName), func(w io.Writer) error {
		_, err := w.Write(b.Bytes())
		return err
	})
}

// drawHistory draws a series' chart in both formats.
func drawHistory(dir, base string, s historyreport.Series) error {
	for _, ext := range []string{".svg", ".png"} {
		if err := charts.History(s, filepath.Join(dir, base+ext)); err != nil {
			return err
		}
	}
	return nil
}
