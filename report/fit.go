package report

import (
	"strings"
	"unicode/utf8"
)

// The terminal's width: tables narrow to it (FirstFit) and prose wraps
// (WrapWords); with no width (a pipe, a file, a CI log) everything is
// printed whole.

// FirstFit returns the first of renders whose output fits a terminal cols
// wide (TextWidth), trying them in order, widest layout first; the last
// one when none fits, the first when cols <= 0 (no terminal). A render's
// error stops the search.
func FirstFit(cols int, renders ...func() (string, error)) (string, error) {
	var out string
	for _, render := range renders {
		s, err := render()
		if err != nil {
			return "", err
		}
		out = s
		if cols <= 0 || TextWidth(s) <= cols {
			break
		}
	}
	return out, nil
}

// WrapWords breaks s at spaces for a terminal cols wide: the first line
// follows a prefix of first characters, the others start with indent. A
// word longer than a line keeps a line of its own; cols <= 0 (no terminal)
// leaves s whole.
func WrapWords(s string, cols, first int, indent string) string {
	room := cols - first
	if cols <= 0 || utf8.RuneCountInString(s) <= room {
		return s
	}
	var b strings.Builder
	line := 0
	for i, word := range strings.Fields(s) {
		n := utf8.RuneCountInString(word)
		switch {
		case i == 0:
		case line+1+n > room:
			b.WriteString("\n" + indent)
			line, room = 0, cols-len(indent)
		default:
			b.WriteByte(' ')
			line++
		}
		b.WriteString(word)
		line += n
	}
	return b.String()
}

// TextWidth is the widest line of s in terminal columns (every character
// the tables draw, rules and ± σ × included, takes one).
func TextWidth(s string) int {
	w := 0
	for _, line := range strings.Split(s, "\n") {
		w = max(w, utf8.RuneCountInString(line))
	}
	return w
}
