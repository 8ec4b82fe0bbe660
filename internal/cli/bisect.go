package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/exitstatus"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/internal/absession"
	"github.com/rootbench/rootbench/internal/bisect"
	"github.com/rootbench/rootbench/internal/gitrev"
	"github.com/rootbench/rootbench/report/bisectreport"
)

func newBisectCmd() *cobra.Command {
	var af abFlags
	var good, bad string
	cmd := &cobra.Command{
		Use:   "bisect --good REV --bad REV [--cell ...] [flags]",
		Short: "Find the commit where a benchmark regressed: bisect a git range with ab's verdict at each step",
		Long: `Find the first commit between --good and --bad at which the benchmark got slower
beyond the gate, as git bisect would, with an A/B session as the judge of each
step: the step's commit (head) against the good revision (base), both built
from the repository (cached by commit), in ABBA order under ab's sequential
rule (see 'rootbench ab --help').

The first step confirms the regression: bad against good. After the search,
bad is judged against good once more, and a regression that no longer
reproduces (the machine changed under the bisection) names no one. Last, the
one commit left is judged against its own parent: it is named the culprit
only when it is slower than its parent beyond the gate too (a slowdown spread
over several small commits, or a machine that changed again, names no one).
The rows that regress at the first step are the ones bisected (a row is a
benchmark on a metric, wall time or CPU time: --metric, as ab; the other
benchmarks, and metrics on which nothing regressed, are not judged again).
Each later step is bad when one of those rows regresses beyond the gate, good
when all of them pass (their interval lies wholly below the gate), and
inconclusive otherwise: an inconclusive step is run once more with twice the
time budget, then skipped like 'git bisect skip'. A commit that does not
build, or whose runs fail, is skipped too.

With --layouts, every step is one session per function layout, both builds
relinked in it, and its verdict the combination of their rows (see 'rootbench
ab --help'): a session judges two binaries as linked, and layout alone can
move a row past the gate, so a culprit named that way is about the change.
Each step then takes the budget once per layout.

False alarms are bounded over the whole bisection, not per step: step k is
tested at a share of --alpha (the planned steps share 0.8 alpha equally, the
j-th extra step, a retry or a skip's, gets 0.2 alpha / 2^j), so the levels of
all steps sum to less than --alpha and, by the union bound, the chance that
any step calls a commit slower when it is not is at most --alpha.

` + fmt.Sprintf(`Exit status: %d a culprit was named, %d no single culprit (no regression between
good and bad, not confirmed, not reproducible at the end, not slower than its
parent, or skipped commits leave several candidates),
%d a step could not be run, %d bad input (refused before anything builds),
%d interrupted.`, exitstatus.Success, exitstatus.Inconclusive, exitstatus.Failed, exitstatus.Usage, exitstatus.Interrupted),
		Example: `  rootbench bisect --good 51c97ff --bad main --cell boxroot-handle --niters 20_000
  rootbench bisect --good v1.2 --bad HEAD --cell boxroot --max-time 90s --format markdown > comment.md
  rootbench bisect --good HEAD~20 --bad HEAD --workload callback --variant cthread --handle boxroot-handle
  rootbench bisect --good 51c97ff --bad main --cell boxroot-handle --layouts 0,5,9,13 --max-time 1m`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			bp, err := resolveBisect(cmd, &af, good, bad)
			if err != nil {
				return usageError(err)
			}
			return bp.execute(cmd.Context(), cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVar(&good, "good", "", "a revision without the regression (required)")
	f.StringVar(&bad, "bad", "", "a revision with it, descending from --good (required)")
	af.registerSession(f, "bisection")
	return cmd
}

// bisectPlan is what the bisect flags resolve to.
type bisectPlan struct {
	abPlan
	search  *bisect.Bisection
	alpha   float64 // the whole bisection's
	maxTime time.Duration
	// tracked are the rows the confirmation found regressed (trackKey: a
	// benchmark on a metric): the rows later steps judge, and whose
	// benchmarks they run.
	tracked map[string]bool
	// lastNotes is the handshake's notes last printed, the commit's hash
	// replaced (see sayNotes).
	lastNotes string
	// onResult, when not nil, is given the bisection's result once it is
	// printed, unless it was interrupted (history bisect records it).
	onResult func(bisect.Result) error
}

// resolveBisect checks every flag and the range before anything builds.
func resolveBisect(cmd *cobra.Command, af *abFlags, good, bad string) (*bisectPlan, error) {
	switch {
	case good == "" || bad == "":
		return nil, fmt.Errorf("--good REV and --bad REV are both required: a revision without the regression and one with it")
	}
	bp := &bisectPlan{abPlan: abPlan{format: af.format}}
	if err := af.resolveSession(cmd, &bp.abPlan); err != nil {
		return nil, err
	}
	bp.alpha, bp.maxTime = bp.rule.Alpha, bp.opts.MaxTime
	repo, err := openRepo(af.repo)
	if err != nil {
		return nil, err
	}
	pkg, err := buildPackage(repo, af.pkg)
	if err != nil {
		return nil, err
	}
	for _, r := range []*revSide{{flag: "--good", rev: good}, {flag: "--bad", rev: bad}} {
		if err := r.resolve(cmd.Context(), repo); err != nil {
			return nil, err
		}
	}
	bp.search, err = bisect.New(cmd.Context(), repo, good, bad)
	switch {
	case errors.Is(err, bisect.ErrNotAncestor):
		hint := ""
		if errors.Is(err, bisect.ErrSwapped) {
			hint = " (--good descends from --bad: were they swapped?)"
		}
		return nil, fmt.Errorf("--good %s is not an ancestor of --bad %s%s: bisect needs good to come before bad in the history", good, bad, hint)
	case errors.Is(err, bisect.ErrEmptyRange):
		return nil, fmt.Errorf("--good %s --bad %s: no commits between them to bisect", good, bad)
	case err != nil:
		return nil, err
	}
	bp.runner = &absession.Runner{Repo: repo, Package: pkg, Progress: bp.out}
	bp.repo = repo
	if af.layouts != "" {
		if err := bp.resolveLayouts(af); err != nil {
			return nil, err
		}
	}
	return bp, nil
}

// execute runs the bisection, prints its steps and its result, and decides
// the exit status.
func (bp *bisectPlan) execute(ctx context.Context, stdout io.Writer) error {
	ctx, stop, caught := signalContext(ctx)
	defer stop()
	if bp.planNote != "" {
		fmt.Fprintf(bp.out, "rootbench: %s\n", bp.planNote)
	}
	n := len(bp.search.Commits())
	each := fmt.Sprintf("an A/B session against good%s, budget %s", judgedOn(bp.rule.Metrics), bp.maxTime)
	if len(bp.layouts) > 0 {
		each = fmt.Sprintf("an A/B session against good in each of %d function layouts (%s), budget %s each, combined",
			len(bp.layouts), strings.Join(bp.layouts, ", "), bp.maxTime)
	}
	fmt.Fprintf(bp.out, "bisect: %d commit(s) after %s up to %s; about %d step(s) planned (the first confirms the regression)\n"+
		"    each step: %s; gate %+.1f%%; false alarms at most %.3g over the whole bisection\n",
		n, bp.search.Good().Short, bp.search.Bad().Short, bp.search.Planned(), each, 100*bp.rule.Threshold, bp.alpha)
	if l := loadNow(bp.opts.WaitForLoad); l != "" {
		fmt.Fprintf(bp.out, "    %s\n", l)
	}
	stepsOut := newWrapWriter(stdout, bp.ropts.Width)
	res := bp.search.Run(ctx, bisect.Options{
		Oracle: bp.oracle,
		Alpha:  bp.alpha,
		OnStep: func(s bisect.Step, o bisect.Outcome) {
			if bp.format == "text" {
				fmt.Fprintln(stepsOut, bisectreport.StepLine(s, o))
			}
		},
	})
	changes := bp.changesLine(ctx, res)
	if bp.format == "markdown" {
		if err := bisectreport.Markdown(stdout, res, changes); err != nil {
			return err
		}
	} else {
		fmt.Fprintln(stdout)
		fmt.Fprintln(stdout, wrapMessage(bisectreport.ResultLine(res), bp.ropts.Width))
		if changes != "" {
			fmt.Fprintln(stdout, wrapMessage(changes, bp.ropts.Width))
		}
	}
	if sig := caught(); sig != nil {
		return interruptedError(sig, " after %d step(s)", len(res.Steps))
	}
	if bp.onResult != nil && res.Status != bisect.Unfinished {
		if err := bp.onResult(res); err != nil {
			return err
		}
	}
	switch res.Status {
	case bisect.Found:
		return nil
	case bisect.Unfinished:
		return &exitError{code: exitFailed, err: fmt.Errorf("bisection unfinished: %w", res.Err)}
	}
	return &exitError{code: analysis.Inconclusive.ExitCode(), err: errors.New("no single culprit: " + res.Status.String())}
}

// oracle judges one step: an A/B session of the step's commit (head)
// against good (base), at the step's share of the false-alarm budget; with
// --layouts, one session per layout, their rows combined
// (absession.AcrossLayouts) at that share.
func (bp *bisectPlan) oracle(ctx context.Context, s bisect.Step) bisect.Outcome {
	rule := bp.rule
	rule.Alpha = s.Alpha
	rule.BaseName, rule.HeadName = "good", s.Commit.Short
	if s.Kind == bisect.Verify {
		rule.BaseName = s.Good.Short
	}
	if s.Kind != bisect.Confirm {
		rule.Metrics = bp.trackedMetrics()
	}
	var stop *stepStop
	if len(bp.layouts) == 0 {
		res, err := bp.stepSession(ctx, s, rule, "")
		if errors.As(err, &stop) {
			return stop.outcome
		}
		v := res.Verdict
		if v.Comparison == nil {
			return bisect.Outcome{Verdict: bisect.Inconclusive, Detail: oneLine(v.Reason) + "; " + stepLength(res.File)}
		}
		return bp.judgeStep(s, v.Comparison, stepLength(res.File))
	}
	l, err := absession.AcrossLayouts(bp.layouts, rule, func(_ int, layout string) (*absession.Result, error) {
		return bp.stepSession(ctx, s, rule, layout)
	})
	if errors.As(err, &stop) {
		return stop.outcome
	}
	if l.Err != nil {
		return bisect.Outcome{Verdict: bisect.Inconclusive, Detail: oneLine(l.Err.Error())}
	}
	var runs []string
	for i, r := range l.Results {
		runs = append(runs, "layout "+bp.layouts[i]+": "+stepLength(r.File))
	}
	return bp.judgeStep(s, l.Comparison, fmt.Sprintf("across %d layouts (%s)", len(l.Sessions), strings.Join(runs, ", ")))
}

// stepLength is how long a step's session ran and under what load:
// "24 runs per side in 72.0 s, load 0.4–6.1".
func stepLength(f *harness.ABFile) string {
	if l := absession.LoadText(f); l != "" {
		return absession.Length(f) + ", " + l
	}
	return absession.Length(f)
}

// stepStop carries a step's outcome out of its session when the session
// could not judge it: a build or a worker that failed, or head's runs
// that failed.
type stepStop struct{ outcome bisect.Outcome }

func (s *stepStop) Error() string { return "step stopped: " + s.outcome.Verdict.String() }

// stepSession runs one session (absession) of the step's commit against
// good under rule, both linked in layout. Its error, a *stepStop, is the
// step's outcome when the session could not judge it.
func (bp *bisectPlan) stepSession(ctx context.Context, s bisect.Step, rule analysis.Sequential, layout string) (*absession.Result, error) {
	o := bp.opts
	o.MaxTime = time.Duration(float64(bp.maxTime) * max(s.Budget, 1))
	if s.Kind != bisect.Confirm {
		var kept []harness.Benchmark
		for _, b := range o.Benchmarks {
			for k := range bp.tracked {
				if label, _, _ := strings.Cut(k, "\x00"); label == b.Label {
					kept = append(kept, b)
					break
				}
			}
		}
		o.Benchmarks = kept
	}
	sess, err := bp.runner.Prepare(ctx, absession.Spec{
		Options: o, Rule: rule, Base: &absession.Rev{Commit: s.Good}, Head: &absession.Rev{Commit: s.Commit}, Layout: layout, Pin: bp.pin,
		Work: bp.work,
	})
	var se *absession.SideError
	var be *gitrev.BuildError
	switch {
	case errors.As(err, &se) && !se.Head:
		return nil, &stepStop{bisect.Outcome{Err: fmt.Errorf("build good %s: %w", s.Good.Short, se.Err)}}
	case se != nil && errors.As(se.Err, &be):
		return nil, &stepStop{bisect.Outcome{Verdict: bisect.Unbuildable, Detail: oneLine(be.Error())}}
	case se != nil:
		return nil, &stepStop{bisect.Outcome{Err: se.Err}}
	case err != nil:
		return nil, &stepStop{bisect.Outcome{Verdict: bisect.Unbuildable, Detail: oneLine(err.Error())}}
	}
	bp.sayNotes(sess.NotesText(), s.Commit)
	if bp.work != nil && bp.work.Decided == nil {
		// Every later step runs the work the first one decided.
		bp.work.Decided = append([]harness.ABSize{}, sess.Sizes...)
		if t := absession.SizesText(sess.Sizes); t != "" {
			fmt.Fprintf(bp.out, "bisect: %s\n", t)
		}
	}
	res, err := sess.Run(ctx)
	switch {
	case err != nil:
		return nil, &stepStop{bisect.Outcome{Err: err}}
	case res.Err != nil:
		return nil, &stepStop{bisect.Outcome{Err: res.Err}}
	case res.Verdict.HeadFailed > 0:
		return nil, &stepStop{bisect.Outcome{Verdict: bisect.Unbuildable, Detail: fmt.Sprintf("%d run(s) failed; %s", res.Verdict.HeadFailed, absession.Length(res.File))}}
	}
	return res, nil
}

// judgeStep turns the step's comparison into its verdict: bad when a
// tracked row regresses, good when every one passes, else inconclusive.
// The confirmation chooses the tracked rows: those it found regressed.
func (bp *bisectPlan) judgeStep(s bisect.Step, c *analysis.Comparison, runs string) bisect.Outcome {
	if s.Kind == bisect.Confirm {
		bp.tracked = map[string]bool{}
		for _, r := range c.Regressions() {
			bp.tracked[trackKey(r)] = true
		}
	}
	verdict := bisect.Good
	var detail []string
	// The rows judged: the tracked ones; all of them at a confirmation
	// that found none regressed (it is then good or undecided).
	all := len(bp.tracked) == 0
	for _, r := range c.Rows {
		if !all && !bp.tracked[trackKey(r)] {
			continue
		}
		detail = append(detail, fmt.Sprintf("%s %+.1f%% [%+.1f%%, %+.1f%%]", c.RowName(r), 100*r.Delta, 100*r.DeltaLo, 100*r.DeltaHi))
		switch r.Gate {
		case analysis.Regression:
			verdict = bisect.Bad
		case analysis.Inconclusive:
			if verdict != bisect.Bad {
				verdict = bisect.Inconclusive
			}
		}
	}
	return bisect.Outcome{Verdict: verdict, Detail: strings.Join(detail, "; ") + "; " + runs}
}

// trackedMetrics are the metrics of the tracked rows, in --metric's order
// (all of them when none is tracked): a later step judges no metric on
// which nothing regressed, so that an unchanged metric's rows neither
// widen the tracked rows' intervals (one Holm family) nor hold the session
// until they are decided.
func (bp *bisectPlan) trackedMetrics() []analysis.Metric {
	var out []analysis.Metric
	for _, m := range bp.rule.Metrics {
		for k := range bp.tracked {
			if _, name, _ := strings.Cut(k, "\x00"); name == m.Name {
				out = append(out, m)
				break
			}
		}
	}
	if len(out) == 0 {
		return bp.rule.Metrics
	}
	return out
}

// trackKey is how the tracked rows are known: a benchmark's label and the
// row's metric.
func trackKey(r analysis.Row) string { return r.Label + "\x00" + r.Metric.Name }

// sayNotes prints what the handshake said about a step's pair of workers
// (what one of them cannot express), unless it says what the step before
// said, the step's commit aside: a bisection over a range of old builds
// would otherwise repeat the same note at every step.
func (bp *bisectPlan) sayNotes(notes string, c gitrev.Commit) {
	same := notes
	if len(c.Hash) >= 12 {
		same = strings.ReplaceAll(same, c.Hash[:12], "<commit>")
	}
	if notes == "" || same == bp.lastNotes {
		return
	}
	bp.lastNotes = same
	fmt.Fprint(bp.out, notes)
}

// oneLine is the first line of s.
func oneLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// changesLine says which directories the commit the search left changes
// against its parent, for the reader to judge whether it could have made
// the benchmark slower (a commit that changes no code the benchmark runs
// points at a build-to-build effect, such as code layout, rather than a
// cause), and how to judge it in other function layouts. Empty when no
// single commit was left or git cannot say.
func (bp *bisectPlan) changesLine(ctx context.Context, res bisect.Result) string {
	if res.Parent == nil || len(res.Candidates) != 1 || ctx.Err() != nil {
		return ""
	}
	c := res.Candidates[0]
	dirs, err := bp.repo.ChangedDirs(ctx, *res.Parent, c)
	if err != nil {
		return ""
	}
	changes := fmt.Sprintf("%s changes no file against %s", c.Short, res.Parent.Short)
	if len(dirs) > 0 {
		changes = fmt.Sprintf("%s changes, against %s, files in: %s", c.Short, res.Parent.Short, gitrev.DirList(dirs))
	}
	return changes + ". Every step judged two builds as linked, and function layout alone can move a row past the gate: " +
		"before you blame it, judge it against its parent across layouts (rootbench ab " +
		"--base-rev " + res.Parent.Short + " --head-rev " + c.Short + " --layouts 0,5,9,13,17,21)."
}
