package report

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// The text helpers every formatter of rootbench shares (report, its
// compare, export, document and charts packages): one way to escape
// Markdown, pluralise, sort keys, pick decimals and draw a Markdown table.

// MdEscape escapes s for a Markdown table cell or inline text: pipes,
// HTML angle brackets, emphasis and link characters; a newline becomes a
// space.
func MdEscape(s string) string {
	return mdEscaper.Replace(s)
}

var mdEscaper = strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;", "\n", " ",
	"*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "`", "\\`")

// MdCode quotes s as Markdown inline code, with a fence longer than any run
// of backticks inside it; a pipe is escaped so the span can sit in a table.
func MdCode(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		pad = " "
	}
	return fence + pad + strings.ReplaceAll(s, "|", `\|`) + pad + fence
}

// Plural returns "s" unless n is 1.
func Plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// JoinNonEmpty joins the parts that are not empty with sep.
func JoinNonEmpty(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}

// SortedKeys returns m's keys in increasing order.
func SortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// SignificantDecimals is how many decimals show v with four significant
// digits (every integer digit from 1000 up; 3 for zero and non-finite v).
func SignificantDecimals(v float64) int {
	a := math.Abs(v)
	if a == 0 || math.IsNaN(a) || math.IsInf(a, 0) {
		return 3
	}
	return max(0, 3-int(math.Floor(math.Log10(a))))
}

// FourDigits formats v with four significant digits (every integer digit
// from 1000 up), without exponent: 14063, 187.9, 10.25, 7.510; Missing
// when v is not a finite number.
func FourDigits(v float64) string {
	return Fixed(v, SignificantDecimals(v))
}

// ColumnDecimals is how many decimals a column whose largest magnitude is
// largest shows: none from 100 up, one from 1, two below.
func ColumnDecimals(largest float64) int {
	switch {
	case largest >= 100:
		return 0
	case largest >= 1:
		return 1
	}
	return 2
}

// Fixed formats x with d decimals, or Missing when x is not a finite
// number.
func Fixed(x float64, d int) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return Missing
	}
	return strconv.FormatFloat(x, 'f', d, 64)
}

// Missing stands for a figure that does not exist (the standard deviation
// of a single run, a ratio without a reference).
const Missing = "—"

// Sigma formats a standard deviation over n runs with fn, or Missing when
// n < 2 (one run has no spread, which is not a spread of zero).
func Sigma(sd float64, n int, fn func(float64) string) string {
	if n < 2 {
		return Missing
	}
	return fn(sd)
}

// MarkdownTable writes a GitHub Markdown table through tablewriter's
// Markdown renderer, cells as given (no auto-formatting), with per-column
// alignments (left for missing ones).
func MarkdownTable(w io.Writer, header []string, rows [][]string, align []tw.Align) error {
	al := make([]tw.Align, len(header))
	for i := range al {
		al[i] = tw.AlignLeft
		if i < len(align) {
			al[i] = align[i]
		}
	}
	t := tablewriter.NewTable(w,
		tablewriter.WithRenderer(renderer.NewMarkdown()),
		tablewriter.WithConfig(tablewriter.Config{
			Header: tw.CellConfig{Formatting: tw.CellFormatting{AutoFormat: tw.Off}, Alignment: tw.CellAlignment{PerColumn: al}},
			Row:    tw.CellConfig{Formatting: tw.CellFormatting{AutoFormat: tw.Off, AutoWrap: tw.WrapNone}, Alignment: tw.CellAlignment{PerColumn: al}},
		}),
	)
	if err := fill(t, header, rows); err != nil {
		return fmt.Errorf("markdown %w", err)
	}
	return nil
}

// PlainTable is a terminal table without borders or column rules, one
// rule under the header (and one over the footer), cells as given (no
// auto-formatting or wrapping), aligned per column: the tables of compare
// and history show.
func PlainTable(w io.Writer, align []tw.Align) *tablewriter.Table {
	return tablewriter.NewTable(w,
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{
			Symbols: tw.NewSymbols(tw.StyleLight),
			Borders: tw.BorderNone,
			Settings: tw.Settings{
				Separators: tw.Separators{BetweenColumns: tw.Off, BetweenRows: tw.Off},
				Lines:      tw.Lines{ShowHeaderLine: tw.On, ShowFooterLine: tw.On},
			},
		})),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithFooterAutoFormat(tw.Off),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithHeaderAlignmentConfig(tw.CellAlignment{PerColumn: align}),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: align}),
		tablewriter.WithFooterAlignmentConfig(tw.CellAlignment{PerColumn: align}),
	)
}

// fill gives t its header and rows and renders it: the one loop behind
// MarkdownTable and the terminal's box tables.
func fill(t *tablewriter.Table, header []string, rows [][]string) error {
	t.Header(toAny(header)...)
	for _, r := range rows {
		if err := t.Append(toAny(r)...); err != nil {
			return fmt.Errorf("table row %q: %w", strings.Join(r, " | "), err)
		}
	}
	if err := t.Render(); err != nil {
		return fmt.Errorf("table render: %w", err)
	}
	return nil
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
