package document

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// mdTable renders a Markdown table with tablewriter's Markdown renderer, as
// report/export does: cells as given (already escaped, no upper-casing, no
// wrapping), one alignment per column for header and rows alike.
func mdTable(header []string, align []tw.Align, rows [][]string) (string, error) {
	var b strings.Builder
	cell := tw.CellConfig{
		Formatting: tw.CellFormatting{AutoFormat: tw.Off, AutoWrap: tw.WrapNone},
		Alignment:  tw.CellAlignment{PerColumn: align},
	}
	t := tablewriter.NewTable(&b,
		tablewriter.WithRenderer(renderer.NewMarkdown()),
		tablewriter.WithConfig(tablewriter.Config{Header: cell, Row: cell}),
	)
	t.Header(toAny(header)...)
	for _, r := range rows {
		if err := t.Append(toAny(r)...); err != nil {
			return "", fmt.Errorf("table row %q: %w", r[0], err)
		}
	}
	if err := t.Render(); err != nil {
		return "", fmt.Errorf("render table: %w", err)
	}
	return b.String(), nil
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// mdEscape makes s plain Markdown text, table cells included: it escapes
// the characters Markdown would read as markup or as a cell border, and
// turns newlines into spaces.
func mdEscape(s string) string {
	return strings.NewReplacer("|", "\\|", "<", "&lt;", ">", "&gt;", "\n", " ", "*", "\\*", "_", "\\_", "[", "\\[", "]", "\\]").Replace(s)
}

// inlineCode quotes s as Markdown code, with a fence longer than any run of
// backticks inside.
func inlineCode(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		pad = " "
	}
	return fence + pad + s + pad + fence
}

func codeList(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = inlineCode(n)
	}
	return strings.Join(out, ", ")
}

// join joins the non-empty parts with sep.
func join(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}

// orDash is s, or "—" when s is empty.
func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// slugify keeps letters, digits, '.', '_' and '-', and turns anything else
// into '-'.
func slugify(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			return r
		}
		return '-'
	}, s)
	s = strings.Trim(s, "-.")
	if s == "" {
		return "results"
	}
	return s
}

// uniqueSlugs names each file's charts after its base name without
// extension, numbered when two files would share one or when one is
// reserved (the side-by-side charts' names).
func uniqueSlugs(names, reserved []string) []string {
	out := make([]string, len(names))
	used := map[string]bool{}
	for _, r := range reserved {
		used[r] = true
	}
	for i, n := range names {
		base := slugify(strings.TrimSuffix(filepath.Base(n), filepath.Ext(n)))
		s := base
		for k := 2; used[s]; k++ {
			s = fmt.Sprintf("%s-%d", base, k)
		}
		used[s] = true
		out[i] = s
	}
	return out
}

// anchor is GitHub's heading anchor for a heading text: lower case, spaces
// to '-', punctuation other than '-' and '_' dropped.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}
