package cli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/exitstatus"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/internal/gitrev"
)

// Defaults of `rootbench ab`.
const (
	defaultABMaxTime = 3 * time.Minute
	defaultABLooks   = "auto"
	// defaultABThreshold is the gate: the smallest slowdown a session at
	// the default budget is asked to flag. Its false-alarm and detection
	// rates are measured by make gate-check (results/gate-check.md), and the
	// noise that sets it is described in docs/records.md.
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
	metric            string
	exportJSON        string
	warmup            int
	pin, style        string
	ignoreFailure     bool
	noGCTable         bool
	layouts           string
	workload          abWorkload // the run command's workload flags
	load              loadFlags
	work              workFlags
	history           historyOption
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

Each benchmark is judged on wall time and on CPU time (--metric), a row each,
every row under one correction and one gate: the session regresses when either
metric does. On a busy machine wall time sees the load and often stays
undecided where CPU time decides; CPU time misses time spent blocked and
counts spinning. Sampling goes on in rounds until every row is decided by the
gate or the time budget (--max-time) runs out. The gate (--fail-on-regression
T): a row passes when its delta's confidence interval lies wholly below +T, is
a regression when the slowdown is significant and its estimate beyond T, and
is otherwise inconclusive.

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

Every run records the CPU time of its measured passes and the load around it
(the one-minute load average, steal and run queue): the header and the
session line give the load, and pairs that saw steal above ` + fmt.Sprintf("%.0f%%", 100*harness.HighSteal) + ` of CPU time are
counted (kept). --wait-for-load L waits before each round until the load
average is below L (at most --wait-timeout, then says so and goes on).

At one --niters a slow cell's runs take far longer than the others', and the
budget gives it few pairs. So by default (--equal-time) ab times one run of
each benchmark on head first and gives each its own --niters (--calls), the
same on both sides, so that its runs take about as long as the median
benchmark's (never more work than asked); the header says so.
--niters-for CELL=N gives one by hand; --equal-time=false gives every
benchmark the same work. Rows stay per cell.

` + fmt.Sprintf(`Exit status: %d every row passes, %d a regression (or head's runs failed),
%d inconclusive (budget spent, or base's runs failed), %d bad input,
%d interrupted.`, exitstatus.Success, exitstatus.Failed, exitstatus.Inconclusive, exitstatus.Usage, exitstatus.Interrupted),
		Example: `  bin/rootbench ab --base /tmp/base/rootbench --cell ocaml,boxroot
  bin/rootbench ab --base old/rootbench --max-time 90s --format markdown > comment.md
  bin/rootbench-faulty ab --base bin/rootbench-faulty --head-env ROOTBENCH_SLOW=boxroot=20% --cell boxroot
  bin/rootbench ab --base-rev main --layouts 0,5,9,13,17,21 --max-time 1m
  bin/rootbench ab --base-rev main --cell ocaml,cgo-handle --wait-for-load 2`,
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
	af.history.register(f, addsUsage("both sides' runs (each a measurement of its own commit; every layout's session)"))
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
	f.StringVar(&af.metric, "metric", analysis.DefaultMetrics, "the metrics every benchmark is judged on, a row each: wall (workload wall time), cpu (CPU time of the measured passes), or both; a regression in either fails the gate")
	f.StringVar(&af.format, "format", "text", "output: text, or markdown (a PR or issue comment)")
	af.workload.register(f)
	af.load.register(f)
	af.work.register(f)
	f.Var(newIntValue(&af.warmup, 0, 0, 1<<20), "warmup", "unmeasured warm-up runs per benchmark and side")
	f.Var(newDurationValue(&af.timeout, 0), "timeout", fmt.Sprintf("kill a run after this long and record it as failed (at least %v; default: no limit)", minTimeout))
	f.StringVar(&af.pin, "pin", "", "pin each worker to these CPUs (sched_setaffinity), e.g. 0 or 0-1")
	f.StringVar(&af.layouts, "layouts", "", "judge each "+what+" across function layouts: one session per layout seed (0: the linker's default), both sides built from git and linked with -ldflags=-randlayout=N, then their rows combined (e.g. 0,5,9,13,17,21)")
	f.StringVar(&af.style, "style", "auto", "output style: auto, full, basic, nocolor, color or none (no report, notes or progress; a failed run is still reported on stderr). NO_COLOR is honoured")
}
