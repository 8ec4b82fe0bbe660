package main

// What both reports share: a measured rate with its Wilson interval, and
// the heading of a report.

import (
	"fmt"
	"strings"

	"github.com/rootbench/rootbench/analysis"
)

// Rate is one measured proportion with its 95% Wilson interval.
type Rate struct {
	Name  string  `json:"name"` // what is counted
	Hits  int     `json:"hits"`
	Of    int     `json:"of"`
	Rate  float64 `json:"rate"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	Notes string  `json:"notes,omitempty"`
}

func newRate(name string, hits, of int, notes string) Rate {
	r := Rate{Name: name, Hits: hits, Of: of, Notes: notes}
	if of > 0 {
		r.Rate = float64(hits) / float64(of)
	}
	r.Lo, r.Hi = analysis.WilsonInterval(hits, of)
	return r
}

// heading starts a report in Markdown: its title, the paragraph that says
// how it is made, and the command that made it.
func heading(b *strings.Builder, title, how, command string) {
	fmt.Fprintf(b, "# %s\n\n%s\n\n- command: `%s`\n", title, how, command)
}
