package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/internal/absession"
	"github.com/rootbench/rootbench/internal/gitrev"
	"github.com/rootbench/rootbench/report"
	"github.com/rootbench/rootbench/report/compare"
)

// print writes the comparison and the GC tables; when there is no
// comparison (gerr), the session line and why.
//
// A session of --layouts (layout not "") is headed by its layout, and
// says no layout note: the combination across layouts that follows it is
// the answer to that note. In Markdown it is folded (a details element
// whose summary gives the session's gate), so that a comment leads the
// eye to the combination.
func (p *abPlan) print(w io.Writer, o *harness.ABOptions, f *harness.ABFile, g *analysis.Comparison, gerr error, layout string) error {
	var buf bytes.Buffer
	note := layout == "" && gerr == nil && needsLayoutNote(g, o.Base.Executable, o.Head.Executable)
	if p.format == "markdown" {
		if layout != "" {
			gate := "no comparison"
			if gerr == nil {
				gate = "gate " + string(g.Outcome())
			}
			fmt.Fprintf(&buf, "<details><summary>Function layout %s: %s</summary>\n\n", layoutName(layout), gate)
		}
		fmt.Fprintf(&buf, "### rootbench ab: head %s vs base %s%s\n\n", absession.Revision(f.Head.Tool), absession.Revision(f.Base.Tool), layoutTitle(layout))
		fmt.Fprintf(&buf, "%s\n\n", sessionLine(f))
		if gerr != nil {
			fmt.Fprintf(&buf, "No comparison: %s (failed runs: %d on base, %d on head; see the job log).\n",
				gerr, f.Base.FailedRuns(), f.Head.FailedRuns())
		} else if err := compare.Markdown(&buf, g); err != nil {
			return err
		}
		if note {
			fmt.Fprintf(&buf, "\n> **Note:** %s\n", layoutNote)
		}
		if p.gcTables && gerr == nil {
			fmt.Fprintf(&buf, "\n<details><summary>GC figures, base and head</summary>\n\n```\n")
			abGCTables(&buf, f.Base, f.Head, report.Options{Style: report.Basic})
			fmt.Fprintf(&buf, "```\n\n</details>\n")
		}
	} else {
		if layout != "" {
			fmt.Fprintf(&buf, "\n%s", wrapMessage("Function layout "+layoutName(layout)+":", p.ropts.Width))
		}
		fmt.Fprintf(&buf, "\n%s\n\n", wrapMessage(sessionLine(f), p.ropts.Width))
		if gerr != nil {
			fmt.Fprintf(&buf, "No comparison: %s.\n", gerr)
		} else if err := compare.TextWidth(&buf, g, p.ropts.Width); err != nil {
			return err
		}
		if note {
			fmt.Fprintf(&buf, "%s\n", wrapMessage("Note: "+layoutNote, p.ropts.Width))
		}
		if p.gcTables && gerr == nil {
			fmt.Fprintln(&buf)
			abGCTables(&buf, f.Base, f.Head, p.ropts)
		}
	}
	if p.format == "markdown" && layout != "" {
		buf.WriteString("\n</details>\n\n")
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// sessionLine says how the session went: revisions, runs, looks, why it
// stopped, and the load it ran under.
func sessionLine(f *harness.ABFile) string {
	stops := map[string]string{
		harness.StopDecided:     "every row decided",
		harness.StopLastLook:    "the last planned look came without a decision",
		harness.StopBudget:      "the time budget ran out",
		harness.StopFailed:      "every benchmark failed",
		harness.StopInterrupted: "interrupted",
	}
	load := ""
	if l := absession.LoadText(f); l != "" {
		load = "; " + l
	}
	return fmt.Sprintf("ABBA session: base %s, head %s; %s, %d look(s) of %d planned; stopped: %s%s.",
		absession.Revision(f.Base.Tool), absession.Revision(f.Head.Tool), absession.Length(f), len(f.Looks), len(f.PlannedLooks), stops[f.Stopped], load)
}

// changesLine says which directories differ between the two sides when
// both are built from git: a verdict on a benchmark whose code the change
// does not touch points at a build-to-build effect, such as code layout,
// rather than at the change. Empty when a side is a binary or git cannot
// say.
func (p *abPlan) changesLine(ctx context.Context) string {
	base, head := p.baseRev, p.headRev
	if base == nil || head == nil {
		return ""
	}
	var dirs []gitrev.DirChange
	var err error
	to := head.commit.Short
	if head.workTree {
		dirs, err = p.repo.ChangedDirsInWorkTree(ctx, base.commit)
		to = "the work tree"
	} else {
		dirs, err = p.repo.ChangedDirs(ctx, base.commit, head.commit)
	}
	switch {
	case err != nil:
		return ""
	case len(dirs) == 0:
		return fmt.Sprintf("change: no tracked file differs from %s to %s", base.commit.Short, to)
	}
	return fmt.Sprintf("change: %s to %s, files in: %s", base.commit.Short, to, gitrev.DirList(dirs))
}

// describeSide is "path [revision]", or for a side built from git (r)
// "revision subject (built from git)", with its extra environment.
func describeSide(s *harness.Side, r *revSide) string {
	t, _ := harness.ToolOf(s.Executable, nil)
	t.Modified = t.Modified || s.Modified
	d := fmt.Sprintf("%s [%s]", s.Executable, absession.Revision(t))
	if r != nil {
		what := "built from git"
		if r.workTree {
			what = "the work tree, built"
		}
		d = fmt.Sprintf("%s %s (%s)", absession.Revision(t), r.commit.SubjectUpTo(50), what)
	}
	if len(s.Env) > 0 {
		d += " with " + strings.Join(s.Env, " ")
	}
	return d
}

// joinInts is "10,20,40".
func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}

// abGCTables prints one side-by-side GC table per benchmark that both
// sides measured.
func abGCTables(w io.Writer, base, head *harness.File, o report.Options) {
	for i := range base.Results {
		b := &base.Results[i]
		for j := range head.Results {
			if h := &head.Results[j]; h.Label == b.Label {
				report.GCSideBySide(w, b.Label, b, h, o)
			}
		}
	}
}
