// Package exitstatus is the one table of rootbench's exit statuses. The
// command line exits with these codes, analysis maps a gate's outcome onto
// them, the root command's help and rootbench.Main's doc point at them, and
// README.md's table is rendered from Table (a test keeps the two equal).
package exitstatus

import (
	"fmt"
	"strings"
)

// The exit statuses.
const (
	// Success: the command did what it was asked; every gated row passes.
	Success = 0
	// Failed: a run failed, or a regression was found.
	Failed = 1
	// Usage: bad input (flags, names, numbers, files), refused before
	// anything runs.
	Usage = 2
	// Inconclusive: the gate cannot decide yet; bisect: no single culprit.
	Inconclusive = 3
	// Interrupted: SIGINT (128+2); partial results are still written.
	Interrupted = 130
	// Terminated: SIGTERM (128+15); partial results are still written.
	Terminated = 143
)

// Status is one row of the table: the codes it covers and what they mean.
type Status struct {
	Codes   []int
	Meaning string
}

// Table lists every exit status in order, as README.md shows it.
var Table = []Status{
	{[]int{Success}, "success; every gated row passes"},
	{[]int{Failed}, "a run failed, or a regression was found (`ab`: also when head's runs failed)"},
	{[]int{Usage}, "bad input (flags, names, numbers, files), refused before anything runs"},
	{[]int{Inconclusive}, "the gate is inconclusive: the data cannot decide yet (run more); `bisect`: no single culprit"},
	{[]int{Interrupted, Terminated}, "interrupted (SIGINT / SIGTERM); partial results are still written"},
}

// codes renders a row's codes: "130 / 143".
func (s Status) codes() string {
	parts := make([]string, len(s.Codes))
	for i, c := range s.Codes {
		parts[i] = fmt.Sprint(c)
	}
	return strings.Join(parts, " / ")
}

// Markdown renders Table as the Markdown table README.md holds.
func Markdown() string {
	var b strings.Builder
	b.WriteString("| status | meaning |\n|---|---|\n")
	for _, s := range Table {
		fmt.Fprintf(&b, "| %s | %s |\n", s.codes(), s.Meaning)
	}
	return b.String()
}

// helpWidth is the column Text wraps at: an 80-column terminal, less one.
const helpWidth = 79

// Text renders Table as plain lines for a command's help, each meaning
// wrapped to fit 80 columns under its code: "  0          success; ...".
func Text() string {
	const indent = "            " // two spaces, the code's column, one space
	var b strings.Builder
	for _, s := range Table {
		line := fmt.Sprintf("  %-9s", s.codes())
		for _, word := range strings.Fields(strings.ReplaceAll(s.Meaning, "`", "")) {
			if len(line)+1+len(word) > helpWidth {
				b.WriteString(line + "\n")
				line = indent[:len(indent)-1]
			}
			line += " " + word
		}
		b.WriteString(line + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}
