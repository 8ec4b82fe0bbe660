package absession

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/exitstatus"
)

// A session judges two binaries as linked, and where the linker put their
// functions alone can move a row past the gate. Judged across layouts,
// both sides are relinked in each (the linker's -randlayout seed, through
// GOFLAGS, which is part of the build cache's key), one session runs per
// layout, and their rows are combined (analysis.CompareLayouts).

// LayoutEnv is the Go command's extra environment for a build in layout:
// none for "" (as the environment says) and "0" (the linker's default),
// else GOFLAGS with -ldflags=-randlayout=layout appended.
func LayoutEnv(layout string) []string {
	if layout == "" || layout == "0" {
		return nil
	}
	goflags := strings.TrimSpace(os.Getenv("GOFLAGS") + " -ldflags=-randlayout=" + layout)
	return []string{"GOFLAGS=" + goflags}
}

// CheckGOFLAGS refuses a GOFLAGS that already sets -ldflags: LayoutEnv
// appends -ldflags=-randlayout=N to it, which would silently replace the
// user's.
func CheckGOFLAGS(goflags string) error {
	for _, f := range strings.Fields(goflags) {
		if strings.HasPrefix(f, "-ldflags") || strings.HasPrefix(f, "--ldflags") {
			return fmt.Errorf("GOFLAGS already sets %s; the layouts are linked with -ldflags=-randlayout=N and would replace it (unset it, or run ab once per layout with your own GOFLAGS)", f)
		}
	}
	return nil
}

// Layouts is one change judged across function layouts: a session per
// layout, and the combination of their rows.
type Layouts struct {
	// Results are the sessions, in the order of the layouts; each was
	// judged.
	Results []*Result
	// Sessions are their sides, by layout, as analysis.CompareLayouts
	// takes them.
	Sessions []analysis.LayoutSession
	// Comparison is the combination; nil when the sessions could not be
	// combined (Err).
	Comparison *analysis.Comparison
	Err        error
}

// AcrossLayouts runs one session per layout through session (which
// prepares it with the layout, runs it and says what it must; its result
// must be judged), stopping at session's first error, which it returns.
// Then it combines the sessions' rows under rule's alpha, gate, names and
// metrics.
func AcrossLayouts(layouts []string, rule analysis.Sequential, session func(i int, layout string) (*Result, error)) (*Layouts, error) {
	l := &Layouts{}
	for i, layout := range layouts {
		res, err := session(i, layout)
		if err != nil {
			return nil, err
		}
		l.Results = append(l.Results, res)
		l.Sessions = append(l.Sessions, analysis.LayoutSession{Layout: layout, Base: res.File.Base, Head: res.File.Head})
	}
	l.Comparison, l.Err = analysis.CompareLayouts(l.Sessions, analysis.Options{
		Alpha: rule.Alpha, Threshold: rule.Threshold, BaseName: rule.BaseName, HeadName: rule.HeadName, Metrics: rule.Metrics,
	})
	return l, nil
}

// Exit is the exit status of the combination, as Result.Exit's of one
// session: a failed head run in any session is a regression (unless
// ignoreFailure), and no combination is inconclusive; and, when not 0,
// why.
func (l *Layouts) Exit(ignoreFailure bool) (int, error) {
	headFailed, baseFailed := 0, 0
	for _, r := range l.Results {
		headFailed += r.Verdict.HeadFailed
		baseFailed += r.Verdict.BaseFailed
	}
	switch {
	case headFailed > 0 && !ignoreFailure:
		return exitstatus.Failed, fmt.Errorf("%d run(s) of head failed (see the reasons and logs above)", headFailed)
	case l.Err != nil:
		return analysis.Inconclusive.ExitCode(), fmt.Errorf("no combination across layouts: %w", l.Err)
	}
	out := l.Comparison.Outcome()
	if out.ExitCode() == 0 {
		return 0, nil
	}
	reason := fmt.Sprintf("across %d layouts, %s", len(l.Sessions), l.Comparison.OutcomeReason())
	if out == analysis.Inconclusive {
		reason += " (more layouts would decide them)"
		if baseFailed > 0 && !ignoreFailure {
			reason += fmt.Sprintf(" (%d run(s) of base failed)", baseFailed)
		}
	}
	return out.ExitCode(), errors.New(reason)
}
