// Package bisectreport formats a bisection (`rootbench bisect`) for people:
// each step as it ends (StepLine), how the bisection ended (ResultLine),
// and the whole of it as Markdown for an issue comment (Markdown). It
// formats what package bisect decided; it decides nothing.
package bisectreport

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/rootbench/rootbench/internal/bisect"
	"github.com/rootbench/rootbench/internal/gitrev"
	"github.com/rootbench/rootbench/report"
)

// StepName is "2/8", "1/8 confirm" or "3/8 retry".
func StepName(s bisect.Step) string {
	var tags []string
	if s.Kind != bisect.Search {
		tags = append(tags, s.Kind.String())
	}
	if s.Attempt > 1 {
		tags = append(tags, "retry")
	}
	n := fmt.Sprintf("%d/%d", s.Number, s.Planned)
	if len(tags) > 0 {
		n += " " + strings.Join(tags, ", ")
	}
	return n
}

// StepLine is one step of the text report, in two lines: the step, commit
// and subject, cut to fit 80 columns; then the verdict with the tracked
// rows' estimates and intervals, and the runs (wrapped on a terminal by
// the caller).
func StepLine(s bisect.Step, o bisect.Outcome) string {
	verdict, detail := verdictDetail(o)
	if s.Kind == bisect.Verify {
		verdict += " against its parent " + s.Good.Short
	}
	name := fmt.Sprintf("%-13s", StepName(s))
	// The subject takes what 80 columns leave of the first line, at most 50.
	head := fmt.Sprintf("step %s %s  ", name, s.Commit.Short)
	subject := s.Commit.SubjectUpTo(min(50, 80-utf8.RuneCountInString(head)))
	return fmt.Sprintf("%s%s\n    %s: %s", head, subject, verdict, detail)
}

// verdictDetail is the step's verdict and its detail, or "error" and the
// error when the oracle could not judge it.
func verdictDetail(o bisect.Outcome) (verdict, detail string) {
	if o.Err != nil {
		return "error", o.Err.Error()
	}
	return o.Verdict.String(), o.Detail
}

// ResultLine says how the bisection ended, and the culprit with its subject.
func ResultLine(res bisect.Result) string {
	spent := fmt.Sprintf("%d step(s); false-alarm levels spent %.3g of %.3g", len(res.Steps), res.Spent, res.Alpha)
	switch res.Status {
	case bisect.Found:
		return fmt.Sprintf("culprit: %s %s\n(slower than good and than its parent %s; %s)", res.Culprit.Short, res.Culprit.Subject, res.Parent.Short, spent)
	case bisect.Ambiguous:
		var cs []string
		for _, c := range res.Candidates {
			cs = append(cs, c.String())
		}
		return fmt.Sprintf("ambiguous: skipped commits leave %d candidates:\n  %s\n(%s)", len(cs), strings.Join(cs, "\n  "), spent)
	case bisect.NoRegression:
		return fmt.Sprintf("no regression: %s is not slower than %s beyond the gate (%s)", res.Bad.Short, res.Good.Short, spent)
	case bisect.NotReproducible:
		return fmt.Sprintf("not reproducible: the search ended, but %s against %s, judged again, was no longer slower beyond the gate; no culprit named (the machine may have changed under the bisection). Candidates the search left: %s (%s)",
			res.Bad.Short, res.Good.Short, commitList(res.Candidates), spent)
	case bisect.Unverified:
		c := res.Candidates[0]
		return fmt.Sprintf("unverified: the search left %s %s, but against its parent %s it was not slower beyond the gate; no culprit named (the slowdown may be spread over several commits, or the machine changed) (%s)",
			c.Short, c.Subject, res.Parent.Short, spent)
	case bisect.NotConfirmed:
		return fmt.Sprintf("not confirmed: %s against %s stayed undecided (%s); a longer --max-time may decide", res.Bad.Short, res.Good.Short, spent)
	}
	return fmt.Sprintf("unfinished: %v (%s)", res.Err, spent)
}

// commitList is "a1b2c3d, e4f5a6b".
func commitList(cs []gitrev.Commit) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Short)
	}
	return strings.Join(out, ", ")
}

// Markdown writes the bisection's steps as a table and its result, then
// changes (what the commit left changes; "" for none), for an issue
// comment.
func Markdown(w io.Writer, res bisect.Result, changes string) error {
	fmt.Fprintf(w, "### rootbench bisect: %s..%s\n\n", res.Good.Short, res.Bad.Short)
	var rows [][]string
	for _, s := range res.Steps {
		verdict, detail := verdictDetail(s.Outcome)
		rows = append(rows, []string{StepName(s.Step), "`" + s.Step.Commit.Short + "`", report.MdEscape(s.Step.Commit.Subject), verdict, report.MdEscape(detail)})
	}
	if err := report.MarkdownTable(w, []string{"step", "commit", "subject", "verdict", "estimate [interval]; runs"}, rows, nil); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n**%s**\n", strings.ReplaceAll(ResultLine(res), "\n", " "))
	if changes != "" {
		fmt.Fprintf(w, "\n%s\n", report.MdEscape(changes))
	}
	return nil
}
