package document

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/rootbench/rootbench/report"
)

// codeList quotes each name as Markdown inline code, comma-separated.
func codeList(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = report.MdCode(n)
	}
	return strings.Join(out, ", ")
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
