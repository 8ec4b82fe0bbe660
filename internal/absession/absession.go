// Package absession runs A/B sessions: two builds of rootbench, base and
// head, measured in ABBA order under the sequential rule until the gate
// decides (harness.ExecuteAB, analysis.Sequential). It is the one session
// runner: `rootbench ab` runs its session through it, `rootbench bisect`
// each step, and make perf-check and cmd/gatecheck run `rootbench ab`.
//
// A session goes through it in two calls. Runner.Prepare builds the sides
// given as git revisions (cached by commit, linked in a function layout;
// see LayoutEnv) and prepares both sides (the worker handshake: what each
// side's worker accepts, and the parameters both can express); the caller
// may then say what the session is (Session.Notes, its own header) and set
// what it does at each look (Options.OnLook). Session.Run runs the session
// and judges it (analysis.Sequential.Verdict). AcrossLayouts runs one
// session per function layout and combines their rows
// (analysis.CompareLayouts). Result.Exit and Layouts.Exit map a verdict to
// an exit status of package exitstatus. What a session prints is its
// caller's.
package absession

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/internal/gitrev"
)

// Runner prepares the sessions of one command. Its sides given as
// revisions are built from one repository's main package, by one
// gitrev.Builder per function layout, made the first time the layout is
// asked for. A Runner is used by one goroutine.
type Runner struct {
	// Repo is the repository revisions are built from; nil when every
	// side is a binary.
	Repo *gitrev.Repo
	// Package is the main package built, relative to the repository's top.
	Package string
	// Progress receives the builds' progress lines.
	Progress io.Writer

	builders map[string]*gitrev.Builder // by layout
}

// Rev is a side given as a git revision: a commit, or the work tree as it
// is (WorkTree).
type Rev struct {
	Commit   gitrev.Commit
	WorkTree bool
}

// Spec is one session to prepare.
type Spec struct {
	// Options are the session's: benchmarks, workload, budget, the sides'
	// names and environments, and the executable of a side given as a
	// binary. Prepare copies them (the benchmarks too); Rule is set by
	// Prepare.
	Options harness.ABOptions
	// Rule is the sequential rule; the session judges with a copy of its
	// own.
	Rule analysis.Sequential
	// Base and Head, when not nil, are built into their side's executable.
	Base, Head *Rev
	// Layout is the function layout the revisions are linked in (see
	// LayoutEnv).
	Layout string
	// Pin is the CPU list every worker pins itself to; "" for none.
	Pin string
	// Work, when not nil, gives benchmarks their own work: sized to equal
	// time, or given by hand (see Work).
	Work *Work
}

// Session is a session ready to run: its sides built and prepared.
type Session struct {
	// Options are the session's, ready for harness.ExecuteAB: each side's
	// executable and worker arguments, the benchmarks' parameters the ones
	// both sides measure, Rule the session's own. The caller may set
	// OnLook, Progress and Notices before Run.
	Options harness.ABOptions
	// Layout is the function layout of the session's builds.
	Layout string
	// Notes say where a side could only run the nearest equivalent of
	// what was asked (harness.MatchSides), each once.
	Notes []string
	// Sizes are the work Spec.Work gave the benchmarks (recorded in the
	// session's file).
	Sizes []harness.ABSize

	rule analysis.Sequential
}

// SideError is Prepare's error when a side given as a revision did not
// build: Err is the builder's (a *gitrev.BuildError when the Go command
// failed).
type SideError struct {
	Head bool   // head's build failed, else base's
	Name string // the side's name (harness.Side.Name)
	Err  error
}

func (e *SideError) Error() string { return e.Name + ": " + e.Err.Error() }
func (e *SideError) Unwrap() error { return e.Err }

// Prepare builds the sides given as revisions (base first), then prepares
// both (see prepare). Its error is a *SideError when a build failed, else
// the handshake's: one line naming the side or benchmark.
func (r *Runner) Prepare(ctx context.Context, spec Spec) (*Session, error) {
	s := &Session{Options: spec.Options, Layout: spec.Layout, rule: spec.Rule}
	s.rule.Err = nil
	o := &s.Options
	o.Benchmarks = slices.Clone(o.Benchmarks)
	for i, rev := range []*Rev{spec.Base, spec.Head} {
		if rev == nil {
			continue
		}
		side := &o.Base
		if i == 1 {
			side = &o.Head
		}
		bin, err := r.build(ctx, rev, spec.Layout)
		if err != nil {
			return nil, &SideError{Head: i == 1, Name: side.Name, Err: err}
		}
		side.Executable, side.Modified = bin.Path, bin.Modified
	}
	infos, notes, err := prepare(ctx, o, spec.Pin)
	if err != nil {
		return nil, err
	}
	s.Notes = notes
	if spec.Work != nil {
		if err := s.size(ctx, r.Progress, spec.Work, infos, spec.Pin); err != nil {
			return nil, err
		}
	}
	o.Rule = &s.rule
	return s, nil
}

// build builds rev (or takes it from the cache), linked in layout.
func (r *Runner) build(ctx context.Context, rev *Rev, layout string) (*gitrev.Binary, error) {
	b := r.builders[layout]
	if b == nil {
		b = &gitrev.Builder{Repo: r.Repo, Package: r.Package, Progress: r.Progress, Env: LayoutEnv(layout)}
		if r.builders == nil {
			r.builders = map[string]*gitrev.Builder{}
		}
		r.builders[layout] = b
	}
	if rev.WorkTree {
		return b.BuildWorkTree(ctx)
	}
	return b.Build(ctx, rev.Commit)
}

// NotesText is the notes as the session says them: "ab: NOTE" lines.
func (s *Session) NotesText() string {
	var b strings.Builder
	for _, n := range s.Notes {
		fmt.Fprintf(&b, "ab: %s\n", n)
	}
	return b.String()
}

// Result is a session that ran.
type Result struct {
	// File is the session: both sides, every run, the looks; marked with
	// the session's layout.
	File *harness.ABFile
	// Verdict is the session's, once it ran to its end (Err nil); it is
	// File's gate too.
	Verdict *analysis.SessionVerdict
	// Err says why the session ended before its end: interrupted (the
	// context ended), or a worker that could not be run.
	Err error
}

// Run runs the session and, when it ran to its end, judges it. Its error
// says why it could not start (then no file was made).
func (s *Session) Run(ctx context.Context) (*Result, error) {
	f, err := harness.ExecuteAB(ctx, s.Options)
	if f == nil {
		if err == nil {
			err = errors.New("the harness returned no results")
		}
		return nil, err
	}
	f.Layout = s.Layout
	f.Sizes = slices.Clone(s.Sizes)
	res := &Result{File: f, Err: err}
	if res.Err == nil {
		res.Err = ctx.Err()
	}
	if res.Err == nil {
		// The final files hold the runs of the last look (sampling stops
		// at a look), now marked complete: judged again, they give the
		// last look's decisions without its "partial" warnings. Only a
		// session that ended because every benchmark failed has runs after
		// its last look, and its verdict comes from the failures.
		res.Verdict = s.rule.Verdict(f, s.Options.IgnoreFailure)
		f.Gate = res.Verdict.Gate
	}
	return res, nil
}

// Exit is the exit status of a session judged (Verdict not nil), one of
// package exitstatus's: 0 when every row passes, 1 on a regression or a
// failed head run, 3 when inconclusive; and, when not 0, why.
func (r *Result) Exit() (int, error) {
	v := r.Verdict
	code := v.Outcome.ExitCode()
	if code == 0 {
		return 0, nil
	}
	reason := v.Reason
	if v.Outcome == analysis.Inconclusive {
		reason = fmt.Sprintf("inconclusive after %s (%s): %s", Length(r.File), r.File.Stopped, v.Reason)
	}
	return code, errors.New(reason)
}

// Length is "24 runs per side in 72.0 s", or "24-180 runs per side in
// 180 s" when faster benchmarks made more pairs (harness balances the
// budget across benchmarks); "0 runs per side" for a session of no
// benchmark.
func Length(f *harness.ABFile) string {
	fewest, most := -1, 0
	for _, r := range f.Base.Results {
		n := len(r.Runs)
		if fewest < 0 || n < fewest {
			fewest = n
		}
		most = max(most, n)
	}
	runs := fmt.Sprint(max(fewest, 0))
	if fewest >= 0 && most > fewest {
		runs = fmt.Sprintf("%d-%d", fewest, most)
	}
	return fmt.Sprintf("%s runs per side in %s", runs, harness.FormatDuration(f.FinishedAt.Sub(f.StartedAt)))
}

// LoadText is the range of one-minute load averages the session's runs
// started under, "load 0.4–6.1" ("load 2.0" when every run saw the same),
// and the pairs that saw steal above harness.HighSteal when there are
// any; "" when no run recorded its load.
func LoadText(f *harness.ABFile) string {
	lo, hi, ok := f.LoadRange()
	if !ok {
		return ""
	}
	s := fmt.Sprintf("load %.1f", lo)
	if fmt.Sprintf("%.1f", hi) != fmt.Sprintf("%.1f", lo) {
		s = fmt.Sprintf("load %.1f–%.1f", lo, hi)
	}
	if n := f.HighStealPairs; n > 0 {
		s += fmt.Sprintf(", %d pair(s) with steal above %.0f%% of CPU time (kept, flagged high_steal in the export)", n, 100*harness.HighSteal)
	}
	return s
}

// Revision names a build: its short VCS revision, "+modified" for a dirty
// tree, or its version when it has no revision.
func Revision(t harness.Tool) string {
	r := t.Revision
	if len(r) > 12 {
		r = r[:12]
	}
	if r == "" {
		r = strings.Trim(t.Version, "()") // "(devel)" reads "devel"
	}
	if t.Modified {
		r += "+modified"
	}
	return r
}
