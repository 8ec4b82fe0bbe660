package cli

import (
	"io"
	"strings"

	"github.com/rootbench/rootbench/report"
)

// wrapWriter writes each line it is given broken at spaces to fit a
// terminal cols wide (report.WrapWords), continuation lines indented four
// spaces beyond the line's own indent: the notes ab and bisect print on
// stderr. With cols 0 (not a terminal) it writes lines whole.
type wrapWriter struct {
	w    io.Writer
	cols int
}

// newWrapWriter returns w itself when cols is 0.
func newWrapWriter(w io.Writer, cols int) io.Writer {
	if cols <= 0 {
		return w
	}
	return &wrapWriter{w: w, cols: cols}
}

func (ww *wrapWriter) Write(p []byte) (int, error) {
	lines := strings.Split(string(p), "\n")
	for i, l := range lines {
		rest := strings.TrimLeft(l, " ")
		indent := l[:len(l)-len(rest)]
		lines[i] = indent + report.WrapWords(rest, ww.cols, len(indent), indent+"    ")
	}
	if _, err := io.WriteString(ww.w, strings.Join(lines, "\n")); err != nil {
		return 0, err
	}
	return len(p), nil
}
