package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/internal/absession"
	"github.com/rootbench/rootbench/internal/gitrev"
	"github.com/rootbench/rootbench/parse"
	"github.com/rootbench/rootbench/report"
	"github.com/rootbench/rootbench/report/compare"
	"github.com/rootbench/rootbench/report/export"
)

// Defaults of `rootbench ab`.
const (
	defaultABMaxTime = 3 * time.Minute
	defaultABLooks   = "auto"
	// defaultABThreshold is the gate: the smallest slowdown a session at
	// the default budget is asked to flag. Its false-alarm and detection
	// rates are measured by make gate-check (results/gate-check.md), and the
	// noise that sets it is in results/noise.md.
	defaultABThreshold = "5%"
)

// abFlags are the flags of `rootbench ab`.
type abFlags struct {
	base, head        string
	baseRev, headRev  string
	repo, pkg         string
	baseEnv, headEnv  []string
	looks             string
	threshold, format string
	maxTime, timeout  time.Duration
	alpha             string
	exportJSON        string
	warmup            int
	pin, style        string
	ignoreFailure     bool
	noGCTable         bool
	layouts           string
	workload          abWorkload // the run command's workload flags
}

func newABCmd() *cobra.Command {
	var af abFlags
	cmd := &cobra.Command{
		Use:   "ab --base PATH [--head PATH] [flags]",
		Short: "Compare two builds of rootbench in one session, sampling until the gate decides",
		Long: `Run the message-passing benchmark with two builds' own workers, base and head
(head defaults to this binary), in ABBA order — base, head, head, base, ... for
every benchmark — so that a linear drift of the machine cancels between them.
A round's two runs are made back to back and judged as a pair: each row is the
Hodges-Lehmann estimate of the pairs' log ratios (head run over base run) with
the Wilcoxon signed-rank interval, so whatever the machine does between rounds
cancels within each pair.

Sampling goes on in rounds until every benchmark's row is decided by the gate
or the time budget (--max-time) runs out. The gate (--fail-on-regression T):
a row passes when its delta's confidence interval lies wholly below +T, is a
regression when the slowdown is significant and its estimate beyond T, and is
otherwise inconclusive.

Repeated looks are kept honest: the rows are examined only at planned sample
sizes, plus once more on the runs made when the budget ends between two of
them, and each look tests at alpha / (number of planned looks) (Bonferroni over
looks; Holm across rows inside each look), so the chance of any false alarm over
the whole session stays at most --alpha. By default (--looks auto) three looks
are planned after the first two rounds from their pace alone: the last when
the budget ends, the others at a half and a quarter of the runs it should
allow (at least 6 runs per side); --looks 10,20,40 fixes them instead.

A session judges two binaries as linked, and where the linker put their
functions alone can move a row past the gate. --layouts 0,5,9,... judges the
change instead: both sides (built from git) are relinked in each layout
(-ldflags=-randlayout=N through GOFLAGS; 0 the linker's default), one session
runs per layout (--max-time each, printed and exported as NAME.layout-N.json
as it ends), and each row's per-layout estimates (the mean of its pairs' log
ratios) are combined: their mean, with Student's t interval across the layouts
(never narrower than the sessions' own noise), Holm across rows, the same gate.
That combination decides the exit status. An undecided row needs more layouts.

Exit status: 0 every row passes, 1 a regression (or head's runs failed),
3 inconclusive (budget spent, or base's runs failed), 2 bad input,
130 interrupted.`,
		Example: `  bin/rootbench ab --base /tmp/base/rootbench --cell ocaml,boxroot
  bin/rootbench ab --base old/rootbench --max-time 90s --format markdown > comment.md
  bin/rootbench-faulty ab --base bin/rootbench-faulty --head-env ROOTBENCH_SLOW=boxroot=20% --cell boxroot
  bin/rootbench ab --base-rev main --layouts 0,5,9,13,17,21 --max-time 1m`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			plan, err := af.resolve(cmd)
			if err != nil {
				return usageError(err)
			}
			return plan.execute(cmd.Context(), cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVar(&af.base, "base", "", "the base build's rootbench binary (this or --base-rev is required)")
	f.StringVar(&af.head, "head", "", "the head build's rootbench binary (default: this binary; with --base-rev, the work tree built as it is)")
	f.StringVar(&af.baseRev, "base-rev", "", "build the base from this git revision of the repository (cached by commit), e.g. main, HEAD~1, 51c97ff")
	f.StringVar(&af.headRev, "head-rev", "", "build the head from this git revision (default with --base-rev: the work tree as it is, marked +modified when it has uncommitted changes)")
	f.StringArrayVar(&af.baseEnv, "base-env", nil, "NAME=VALUE added to the base workers' environment only (repeatable)")
	f.StringArrayVar(&af.headEnv, "head-env", nil, "NAME=VALUE added to the head workers' environment only (repeatable), e.g. ROOTBENCH_SLOW=boxroot=20% with a -tags rootbench_faulty build")
	f.StringVar(&af.exportJSON, "export-json", "", "write both sides, every run and the looks as JSON (schema "+harness.ABSchema+"); rewritten at every look, marked partial until the session ends")
	af.registerSession(f, "session")
	f.BoolVar(&af.ignoreFailure, "ignore-failure", false, "keep running a benchmark after a failed run (failed runs never enter the statistics)")
	f.BoolVar(&af.noGCTable, "no-gc-table", false, "leave out the GC tables of base and head")
	return cmd
}

// registerSession adds the flags an A/B session takes whether its sides
// are given (ab) or chosen step by step (bisect); what names one session:
// "session", or "step" for bisect.
func (af *abFlags) registerSession(f *pflag.FlagSet, what string) {
	f.StringVar(&af.repo, "repo", ".", "the git repository revisions are built from (any directory inside it)")
	f.StringVar(&af.pkg, "package", "", "the main package built from each revision, relative to the repository's top (default: "+gitrev.DefaultPackage+" when the repository has it, else .)")
	f.Var(newDurationValue(&af.maxTime, defaultABMaxTime), "max-time", "time budget of each "+what+"; when it runs out, undecided rows are inconclusive")
	f.StringVar(&af.looks, "looks", defaultABLooks, fmt.Sprintf("runs per side at which the rows are examined (even, increasing, e.g. 10,20,40), or auto: %d looks planned from the first rounds' pace, the last when the budget ends; each look is tested at alpha / the number of looks", analysis.DefaultAutoLooks))
	f.StringVar(&af.threshold, "fail-on-regression", defaultABThreshold, "the gate, a percentage with its %: a row regresses when significantly slower by more than this")
	f.StringVar(&af.alpha, "alpha", fmt.Sprint(analysis.DefaultAlpha), "chance of any false alarm over the whole "+what+" (split over the looks, Holm across rows)")
	f.StringVar(&af.format, "format", "text", "output: text, or markdown (a PR or issue comment)")
	af.workload.register(f)
	f.Var(newIntValue(&af.warmup, 0, 0, 1<<20), "warmup", "unmeasured warm-up runs per benchmark and side")
	f.Var(newDurationValue(&af.timeout, 0), "timeout", fmt.Sprintf("kill a run after this long and record it as failed (at least %v; default: no limit)", minTimeout))
	f.StringVar(&af.pin, "pin", "", "pin each worker to these CPUs (sched_setaffinity), e.g. 0 or 0-1")
	f.StringVar(&af.layouts, "layouts", "", "judge each "+what+" across function layouts: one session per layout seed (0: the linker's default), both sides built from git and linked with -ldflags=-randlayout=N, then their rows combined (e.g. 0,5,9,13,17,21)")
	f.StringVar(&af.style, "style", "auto", "output style: auto, full, basic, nocolor, color or none (no report, notes or progress; a failed run is still reported on stderr). NO_COLOR is honoured")
}

// abPlan is what the ab flags resolve to.
type abPlan struct {
	opts     harness.ABOptions
	pin      string              // --pin, rendered into each side's worker arguments
	repo     *gitrev.Repo        // with revisions: the repository they are built from
	baseRev  *revSide            // the base given as a revision (nil: a binary)
	headRev  *revSide            // the head given as a revision (nil: a binary)
	runner   *absession.Runner   // builds the revisions and runs the sessions
	rule     analysis.Sequential // the sequential rule: looks, alpha per look, outcomes
	format   string
	export   string
	gcTables bool
	ropts    report.Options
	out      io.Writer // human-readable output besides the comparison
	planNote string    // what the plan left out, said when the session starts
	layouts  []string  // --layouts: one session per layout seed, combined
}

// resolve checks every flag before anything runs.
func (af *abFlags) resolve(cmd *cobra.Command) (*abPlan, error) {
	p := &abPlan{format: af.format, export: af.exportJSON, gcTables: !af.noGCTable}
	if err := af.resolveSession(cmd, p); err != nil {
		return nil, err
	}
	if err := p.resolveSides(cmd.Context(), af); err != nil {
		return nil, err
	}
	if af.layouts != "" {
		if err := p.resolveLayouts(af); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// resolveSession checks the flags every session takes (registerSession's,
// the environments and the export) into p, before anything runs.
func (af *abFlags) resolveSession(cmd *cobra.Command, p *abPlan) error {
	o := &p.opts
	var err error
	o.Base.Name, o.Head.Name = "base", "head"
	for _, e := range []struct {
		flag string
		in   []string
		out  *[]string
	}{{"--base-env", af.baseEnv, &o.Base.Env}, {"--head-env", af.headEnv, &o.Head.Env}} {
		for _, kv := range e.in {
			if name, _, ok := strings.Cut(kv, "="); !ok || name == "" {
				return fmt.Errorf("%s %q: expected NAME=VALUE", e.flag, kv)
			}
		}
		*e.out = slices.Clone(e.in)
	}
	if o.MaxTime = af.maxTime; o.MaxTime <= 0 {
		return fmt.Errorf("--max-time %v: must be positive (e.g. 3m)", af.maxTime)
	}
	if strings.TrimSpace(af.looks) == "auto" {
		p.rule.AutoLooks = analysis.DefaultAutoLooks
	} else if p.rule.Looks, err = parseLooks(af.looks); err != nil {
		return fmt.Errorf("--looks %q: %w (or auto)", af.looks, err)
	}
	if p.rule.Alpha, err = analysis.ParseAlpha(af.alpha); err != nil {
		return fmt.Errorf("--%w", err)
	}
	if p.rule.Threshold, err = analysis.ParseThreshold(af.threshold); err != nil {
		return fmt.Errorf("--fail-on-regression: %w", err)
	}
	p.rule.BaseName, p.rule.HeadName = "base", "head"
	switch af.format {
	case "text", "markdown":
	default:
		return fmt.Errorf("--format %q: accepted: text, markdown", af.format)
	}
	o.Warmup = af.warmup
	if o.Timeout = af.timeout; o.Timeout != 0 && o.Timeout < minTimeout {
		return fmt.Errorf("--timeout %v: too short for a worker to start and run: accepted: at least %v", af.timeout, minTimeout)
	}
	if af.pin != "" {
		if err := checkPin(af.pin); err != nil {
			return fmt.Errorf("--pin: %w", err)
		}
	}
	p.pin = af.pin
	o.IgnoreFailure = af.ignoreFailure
	if p.export != "" {
		if err := checkExports([]exportTarget{{flag: "export-json", path: p.export}}); err != nil {
			return err
		}
	}
	style, err := report.ParseStyle(af.style)
	if err != nil {
		return fmt.Errorf("--style: %w", err)
	}
	// The comparison goes to stdout; the rest (look notes, failures,
	// progress) to stderr, so that `ab --format markdown > comment.md`
	// writes the comment only.
	p.ropts.Style = report.ResolveStyle(style, os.Stdout)
	p.ropts.Width = terminalColumns(os.Stdout)
	p.out = newWrapWriter(os.Stderr, terminalColumns(os.Stderr))
	// A failed run is an error: its line is shown in every style, --style
	// none included, which silences only the notes and the progress.
	o.Notices = p.out
	if p.ropts.Style == report.None {
		p.out = io.Discard
	} else {
		o.Progress = progressOut(p.ropts.Style)
	}

	if o.Benchmarks, o.Workload, o.Unit, o.Params, err = af.workload.plan(cmd, af.pin); err != nil {
		return err
	}
	p.planNote = af.workload.note
	o.CommandLine = os.Args
	return nil
}

// resolveSides resolves --base/--base-rev and --head/--head-rev before
// anything builds or runs: paths are checked, revisions resolved.
func (p *abPlan) resolveSides(ctx context.Context, af *abFlags) error {
	o := &p.opts
	switch {
	case af.base != "" && af.baseRev != "":
		return fmt.Errorf("--base and --base-rev together: give one (a built binary, or a revision to build)")
	case af.head != "" && af.headRev != "":
		return fmt.Errorf("--head and --head-rev together: give one (a built binary, or a revision to build)")
	case af.base == "" && af.baseRev == "":
		return fmt.Errorf("--base PATH or --base-rev REV is required: the base build's rootbench binary, or a git revision to build it from")
	}
	var err error
	if af.base != "" {
		if o.Base.Executable, err = executable("--base", af.base); err != nil {
			return err
		}
	}
	switch {
	case af.head != "":
		if o.Head.Executable, err = executable("--head", af.head); err != nil {
			return err
		}
	case af.headRev == "" && af.baseRev == "":
		self, err := os.Executable()
		if err != nil {
			return fmt.Errorf("find this rootbench binary for --head: %w", err)
		}
		if o.Head.Executable, err = executable("--head", self); err != nil {
			return err
		}
	}
	p.runner = &absession.Runner{}
	if af.baseRev != "" {
		p.baseRev = &revSide{flag: "--base-rev", rev: af.baseRev}
	}
	if af.headRev != "" || (af.baseRev != "" && af.head == "") {
		p.headRev = &revSide{flag: "--head-rev", rev: af.headRev, workTree: af.headRev == ""}
	}
	if p.baseRev == nil && p.headRev == nil {
		return nil
	}
	if p.repo, err = openRepo(af.repo); err != nil {
		return err
	}
	pkg, err := buildPackage(p.repo, af.pkg)
	if err != nil {
		return err
	}
	p.runner = &absession.Runner{Repo: p.repo, Package: pkg, Progress: p.out}
	for _, r := range []*revSide{p.baseRev, p.headRev} {
		if r == nil {
			continue
		}
		if err := r.resolve(ctx, p.repo); err != nil {
			return err
		}
	}
	return nil
}

// executable checks that path is an executable file and returns it
// absolute.
func executable(flag, path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", flag, path, err)
	}
	st, err := os.Stat(abs)
	switch {
	case err != nil:
		return "", fmt.Errorf("%s %s: %w", flag, path, err)
	case st.IsDir():
		return "", fmt.Errorf("%s %s: a directory, not a rootbench binary", flag, path)
	case st.Mode()&0o111 == 0:
		return "", fmt.Errorf("%s %s: not executable", flag, path)
	}
	return abs, nil
}

// parseLooks parses "10,20,40": even, increasing run counts.
func parseLooks(s string) ([]int, error) {
	items, err := parse.List(s)
	if err != nil {
		return nil, err
	}
	var looks []int
	for _, it := range items {
		n, err := parse.Int(it)
		if err != nil {
			return nil, err
		}
		if n < 2 || n%2 != 0 || n > 1<<20 {
			return nil, fmt.Errorf("%s: each look is an even number of runs per side from 2 to %d", it, 1<<20)
		}
		if len(looks) > 0 && int(n) <= looks[len(looks)-1] {
			return nil, fmt.Errorf("%q: the looks must increase", s)
		}
		looks = append(looks, int(n))
	}
	if len(looks) == 0 {
		return nil, fmt.Errorf("no looks given: expected e.g. %s", defaultABLooks)
	}
	return looks, nil
}

// execute runs the session (or, with --layouts, one session per layout and
// their combination), prints the comparison and decides the exit status.
func (p *abPlan) execute(ctx context.Context, stdout io.Writer) error {
	ctx, stop, caught := signalContext(ctx)
	defer stop()
	if p.planNote != "" {
		fmt.Fprintf(p.out, "rootbench: %s\n", p.planNote)
	}
	if len(p.layouts) > 0 {
		return p.acrossLayouts(ctx, stdout, caught)
	}
	res, err := p.session(ctx, stdout, caught, "")
	if err != nil {
		return err
	}
	return exitWith(res.Exit())
}

// session runs one session (absession), its sides linked in layout (""
// for as the environment says), and prints it: the handshake's notes and
// the session's header before it runs, its comparison once it is judged.
// The export, when asked for, is written after every look (marked partial
// until the session ends) and at the end; a session that measured nothing
// never touches it. The error is what the session's exit status is when it
// ended early: interrupted, a build or a worker that failed.
func (p *abPlan) session(ctx context.Context, stdout io.Writer, caught func() os.Signal, layout string) (*absession.Result, error) {
	sess, err := p.runner.Prepare(ctx, absession.Spec{
		Options: p.opts, Rule: p.rule, Base: p.baseRev.spec(), Head: p.headRev.spec(), Layout: layout, Pin: p.pin,
	})
	var se *absession.SideError
	switch {
	case errors.As(err, &se) && ctx.Err() != nil:
		return nil, &exitError{code: exitInterrupted, err: fmt.Errorf("interrupted while building: %w", err)}
	case err != nil:
		return nil, usageError(err)
	}
	// The next layout's session matches the sides from the parameters
	// this one measured.
	p.opts.Benchmarks = sess.Options.Benchmarks
	fmt.Fprint(p.out, sess.NotesText())
	o := &sess.Options
	looks := fmt.Sprintf("looks at %s runs per side", joinInts(p.rule.Looks))
	if p.rule.Looks == nil {
		looks = fmt.Sprintf("%d looks planned from the first rounds' pace", p.rule.MaxLooks())
	}
	fmt.Fprintf(p.out, "ab: base %s\n    head %s\n", describeSide(&o.Base, p.baseRev), describeSide(&o.Head, p.headRev))
	if c := p.changesLine(ctx); c != "" {
		fmt.Fprintf(p.out, "    %s\n", c)
	}
	fmt.Fprintf(p.out, "    %d benchmark(s); %s; budget %s\n    gate %+.1f%%; alpha %.3g over the session, split over its looks (%.3g each with %d)\n",
		len(o.Benchmarks), looks, o.MaxTime, 100*p.rule.Threshold, p.rule.Alpha, p.rule.AlphaPerLook(p.rule.MaxLooks()), p.rule.MaxLooks())
	export := layoutExport(p.export, layout)
	var exportErr error
	if export != "" {
		o.OnLook = func(f *harness.ABFile) {
			if exportErr == nil && measured(f) {
				f.Layout = layout
				exportErr = writeABFile(export, f)
			}
		}
	}

	res, err := sess.Run(ctx)
	if err != nil {
		return nil, err
	}
	f := res.File
	sig := caught()
	if export != "" && measured(f) {
		if err := writeABFile(export, f); err != nil {
			return nil, &exitError{code: exitFailed, err: err}
		}
	}
	if exportErr != nil {
		return nil, &exitError{code: exitFailed, err: exportErr}
	}
	if sig != nil {
		return nil, interruptedError(sig, " after %d look(s)%s", len(f.Looks), exportedNote(export, f))
	}
	if res.Err != nil {
		return nil, &exitError{code: exitFailed, err: res.Err}
	}
	if err := p.print(stdout, o, f, res.Verdict.Comparison, res.Verdict.Err, layout); err != nil {
		return nil, err
	}
	return res, nil
}

// measured reports whether the session measured anything: a successful
// run on either side.
func measured(f *harness.ABFile) bool {
	for _, side := range []*harness.File{f.Base, f.Head} {
		for _, r := range side.Results {
			for _, run := range r.Runs {
				if !run.Failed {
					return true
				}
			}
		}
	}
	return false
}

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
// stopped.
func sessionLine(f *harness.ABFile) string {
	stops := map[string]string{
		harness.StopDecided:     "every row decided",
		harness.StopLastLook:    "the last planned look came without a decision",
		harness.StopBudget:      "the time budget ran out",
		harness.StopFailed:      "every benchmark failed",
		harness.StopInterrupted: "interrupted",
	}
	return fmt.Sprintf("ABBA session: base %s, head %s; %s, %d look(s) of %d planned; stopped: %s.",
		absession.Revision(f.Base.Tool), absession.Revision(f.Head.Tool), absession.Length(f), len(f.Looks), len(f.PlannedLooks), stops[f.Stopped])
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

func exportedNote(path string, f *harness.ABFile) string {
	if path == "" || !measured(f) {
		return ""
	}
	return "; " + path + " holds what was measured (marked partial)"
}

// writeABFile writes the session's file as indented JSON, atomically and
// with the mode run's exports get (export.WriteAtomic).
func writeABFile(path string, f *harness.ABFile) error {
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("encode the A/B results: %w", err)
	}
	data = append(data, '\n')
	return export.WriteAtomic(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
