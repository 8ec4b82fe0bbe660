package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/history"
	"github.com/rootbench/rootbench/internal/absession"
	"github.com/rootbench/rootbench/internal/gitrev"
)

// defaultBackfillRuns is the runs a backfill makes of each benchmark at
// each revision: enough for a median with its 95% interval (six at
// least) and a point whose median holds still from revision to revision.
const defaultBackfillRuns = 10

// backfillFlags are the flags of history backfill.
type backfillFlags struct {
	since               string
	every, runs, visits int
	retryFailed, dryRun bool
	repo, pkg           string
	timeout             time.Duration
	order               string
	workload            abWorkload // the run command's workload flags, as ab takes them
	load                loadFlags
}

// The orders a backfill can measure its revisions in (--order).
const (
	// orderSpread measures the revisions in bit-reversed order of their
	// place in history (first, middle, quarters, eighths, ...), so that
	// revisions measured close in time lie far apart in history and every
	// stretch of the backfill's time covers the whole history evenly: a
	// machine whose speed drifts while the backfill runs gives the series
	// scattered noise, not a step.
	orderSpread = "spread"
	// orderHistory measures them oldest first.
	orderHistory = "history"
)

func newHistoryBackfillCmd() *cobra.Command {
	var bf backfillFlags
	cmd := &cobra.Command{
		Use:   "backfill --since REV [--every N] [--cell ...] [workload flags] [--runs N]",
		Short: "Build past revisions and measure them into the history",
		Long: `Measure past revisions of the repository into the history store: each revision
is built (ab's build cache: a revision built once, by ab, bisect or a backfill,
is not built again) and its own worker is run by this rootbench's harness, as
ab drives an old build: --runs runs of every benchmark, interleaved. Each
revision's results file carries that revision's build (its tool, its commit)
and is added to the store in one transaction as soon as it is measured.

The revisions: git rev-list --reverse --topo-order SINCE..HEAD, after SINCE
itself; of these, the first (SINCE), every --every-th, every merge commit and
the last (HEAD). --dry-run lists them and measures nothing.

Every revision is built and its worker asked what it accepts (the worker
protocol's handshake) before anything is measured, and every revision runs
the same parameters: those all of them can express (a build that predates a
parameter runs its nearest equivalent, for every revision, as ab matches two
sides; a note says so). A revision that does not build, whose worker cannot
be driven, or whose runs all fail, is skipped with a one-line note and
recorded in the store; a later backfill does not retry it unless
--retry-failed.

Each revision is measured in --visits visits of --runs/--visits runs each
(default: as many visits as runs, one run of every benchmark a visit), and
the visits are spread over the backfill: the first visit to every revision,
then the second to every revision, and so on, each round in spread order
(below). A revision's point in a series is then the median of runs made
minutes apart, so a machine whose speed drifts while the backfill runs adds
noise that its median averages down, not a step.

A backfill can be stopped at any time (Ctrl-C; a revision's runs so far are
stored, marked partial) and resumed by running it again: the visits the
store holds already for this machine kind, workload, parameters and cells
are not made again. Killed outright, it leaves the store with whole files only.

--order spread (the default) measures the revisions in bit-reversed order of
their place in history (first, middle, quarters, eighths, ...), so that a
machine whose speed drifts while the backfill runs adds scattered noise to
the series, not a step that reads as a change point; --order history
measures the oldest first.

Exit status: 0 when every revision is measured or skipped with a note; 2 with
one line and nothing written for a --since that does not exist or is not an
ancestor of HEAD, a store that cannot be written or is locked, bad flags;
130 interrupted.`,
		Example: `  rootbench history backfill --since 51c97ff --every 8 --cell boxroot-handle,boxroot
  rootbench history backfill --since v1.0 --dry-run
  rootbench history --history ci.db backfill --since HEAD~20 --cell boxroot --niters 2000 --runs 6`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			b, err := bf.resolve(cmd)
			if err != nil {
				return usageError(err)
			}
			if bf.dryRun {
				return b.list(cmd.OutOrStdout())
			}
			return b.run(cmd.Context(), cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVar(&bf.since, "since", "", "the oldest revision to measure (required): a hash, branch, tag or other git revision, an ancestor of HEAD")
	f.Var(newIntValue(&bf.every, 1, 1, 1<<30), "every", "measure every N-th revision of SINCE..HEAD (with SINCE, every merge and HEAD)")
	f.Var(newIntValue(&bf.runs, defaultBackfillRuns, 1, 1<<20), "runs", "runs of each benchmark at each revision (interleaved)")
	f.Var(newIntValue(&bf.visits, 0, 0, 1<<20), "visits", "visits to each revision, spread over the backfill, that share its --runs (a divisor of --runs; default: --runs, one run a visit)")
	f.BoolVar(&bf.retryFailed, "retry-failed", false, "retry the revisions an earlier backfill skipped (did not build, or could not be driven)")
	f.StringVar(&bf.order, "order", orderSpread, "the order revisions are measured in: spread (bit-reversed, so that drift over time is not read as a step) or history (oldest first)")
	f.BoolVar(&bf.dryRun, "dry-run", false, "list the revisions that would be measured, and measure nothing")
	f.StringVar(&bf.repo, "repo", ".", "the git repository revisions are built from (any directory inside it)")
	f.StringVar(&bf.pkg, "package", "", "the main package built from each revision, relative to the repository's top (default: "+gitrev.DefaultPackage+" when the repository has it, else .)")
	f.Var(newDurationValue(&bf.timeout, 0), "timeout", fmt.Sprintf("kill a run after this long and record it as failed (at least %v; default: no limit)", minTimeout))
	bf.workload.register(f)
	bf.load.register(f)
	return cmd
}

// backfill is what the flags resolve to: the revisions, the benchmarks
// asked, where to store them.
type backfill struct {
	path    string // the store
	repo    *gitrev.Repo
	builder *gitrev.Builder
	revs    []*backfillRev
	// asked are the benchmarks as the flags ask for them, for this
	// binary's worker; each revision runs them with the parameters every
	// revision can express.
	asked          []harness.Benchmark
	workload, unit string
	runs           int    // runs of each benchmark at each revision, in all
	visits         int    // visits to each revision, runs/visits runs each
	order          string // orderSpread or orderHistory
	timeout        time.Duration
	wait           *harness.LoadWait
	retryFailed    bool
	out            io.Writer // notes and progress
}

// resolve checks every flag, the store's path and --since before anything
// is built.
func (bf *backfillFlags) resolve(cmd *cobra.Command) (*backfill, error) {
	if bf.since == "" {
		return nil, errors.New("--since REV is required: the oldest revision to measure, e.g. --since HEAD~20 or --since 51c97ff")
	}
	if bf.order != orderSpread && bf.order != orderHistory {
		return nil, fmt.Errorf("--order %q: accepted: %s or %s", bf.order, orderSpread, orderHistory)
	}
	visits := bf.visits
	if visits == 0 {
		visits = bf.runs
	}
	if bf.runs%visits != 0 {
		return nil, fmt.Errorf("--visits %d does not divide --runs %d: accepted: a divisor of --runs, so that every visit makes as many runs", visits, bf.runs)
	}
	b := &backfill{runs: bf.runs, visits: visits, retryFailed: bf.retryFailed, order: bf.order, out: os.Stderr}
	var err error
	if b.timeout = bf.timeout; b.timeout != 0 && b.timeout < minTimeout {
		return nil, fmt.Errorf("--timeout %v: too short for a worker to start and run: accepted: at least %v", bf.timeout, minTimeout)
	}
	if b.wait, err = bf.load.resolve(); err != nil {
		return nil, err
	}
	if b.asked, b.workload, b.unit, _, err = bf.workload.plan(cmd, ""); err != nil {
		return nil, err
	}
	if b.path, err = historyPath(cmd); err != nil {
		return nil, err
	}
	if b.repo, err = openRepo(bf.repo); err != nil {
		return nil, err
	}
	pkg, err := buildPackage(b.repo, bf.pkg)
	if err != nil {
		return nil, err
	}
	b.builder = &gitrev.Builder{Repo: b.repo, Package: pkg, Progress: b.out, Env: absession.LayoutEnv(""), RetryFailed: bf.retryFailed}
	ctx := cmd.Context()
	since := &revSide{flag: "--since", rev: bf.since}
	if err := since.resolve(ctx, b.repo); err != nil {
		return nil, err
	}
	head, err := b.repo.Head(ctx)
	if err != nil {
		return nil, err
	}
	if ok, err := b.repo.IsAncestor(ctx, since.commit, head); err != nil {
		return nil, err
	} else if !ok {
		return nil, fmt.Errorf("--since %s is not an ancestor of HEAD (%s): a backfill measures the history that leads to HEAD", bf.since, head.Short)
	}
	nodes, err := b.repo.Graph(ctx, since.commit, head)
	if err != nil {
		return nil, err
	}
	b.revs = pickRevisions(since.commit, nodes, bf.every)
	if bf.workload.note != "" && !bf.dryRun {
		fmt.Fprintf(b.out, "rootbench: %s\n", bf.workload.note)
	}
	return b, nil
}

// backfillRev is one revision of a backfill and what became of it.
type backfillRev struct {
	commit gitrev.Commit
	merge  bool
	bin    string              // its build
	info   *harness.WorkerInfo // what its worker accepts
	// skip says why it is not measured ("" to measure); visits, how many
	// whole visits to it the store holds.
	skip   string
	visits int
}

// pickRevisions chooses the revisions of since..head to measure: since
// itself, then nodes (git rev-list --reverse --topo-order since..head);
// of these, index 0, every index divisible by every, every merge commit
// and the last.
func pickRevisions(since gitrev.Commit, nodes []gitrev.Node, every int) []*backfillRev {
	all := append([]gitrev.Node{{Commit: since}}, nodes...)
	var out []*backfillRev
	for i, n := range all {
		merge := len(n.Parents) > 1
		if i == 0 || i%every == 0 || merge || i == len(all)-1 {
			out = append(out, &backfillRev{commit: n.Commit, merge: merge})
		}
	}
	return out
}

// spreadOrder returns 0..n-1 in the order of their bit-reversed binary
// numerals (van der Corput's sequence): 0, then n/2, then n/4 and 3n/4, and
// so on. The first k of them lie no closer than about n/(2k) to each other,
// so any k consecutive ones cover 0..n-1 about evenly.
func spreadOrder(n int) []int {
	bits := 0
	for 1<<bits < n {
		bits++
	}
	out := make([]int, 0, n)
	for i := range 1 << bits {
		r := 0
		for b := range bits {
			if i&(1<<b) != 0 {
				r |= 1 << (bits - 1 - b)
			}
		}
		if r < n {
			out = append(out, r)
		}
	}
	return out
}

// measuringOrder is the order the revisions are measured in: b.revs's
// (oldest first), or spread (spreadOrder over the place of each revision in
// the whole backfill, measured or not, so that a resumed backfill keeps
// the spread).
func (b *backfill) measuringOrder() []*backfillRev {
	if b.order != orderSpread {
		return b.revs
	}
	out := make([]*backfillRev, 0, len(b.revs))
	for _, i := range spreadOrder(len(b.revs)) {
		out = append(out, b.revs[i])
	}
	return out
}

// list prints the revisions a backfill would measure (--dry-run).
func (b *backfill) list(w io.Writer) error {
	for i, r := range b.revs {
		mark := ""
		if r.merge {
			mark = " (merge)"
		}
		fmt.Fprintf(w, "%3d  %s  %s%s\n", i+1, r.commit.Short, r.commit.SubjectUpTo(60), mark)
	}
	fmt.Fprintf(w, "%d revision(s); each: %d run(s) of %d benchmark(s), interleaved, in %d visit(s); measured in %s order\n", len(b.revs), b.runs, len(b.asked), b.visits, b.order)
	return nil
}

// plan is the backfill's plan in the store: on this machine's kind, the
// workload and each benchmark with params(i) as its parameters.
func (b *backfill) plan(params func(i int) map[string]string) history.Plan {
	p := history.Plan{Machine: history.KindOf(harness.CollectMachine()).Fingerprint(), Workload: b.workload}
	for i, bench := range b.asked {
		p.Configs = append(p.Configs, history.Config{Benchmark: bench.Cell, Params: params(i)})
	}
	return p
}

// run prepares every revision, then measures the ones left, storing each
// as it is measured.
func (b *backfill) run(ctx context.Context, stdout io.Writer) error {
	ctx, stop, caught := signalContext(ctx)
	defer stop()
	s, err := history.Open(ctx, b.path, history.Options{})
	if err != nil {
		return usageError(err)
	}
	defer s.Close()
	common, err := b.prepare(ctx, s)
	if sig := caught(); sig != nil {
		return interruptedError(sig, " while preparing the revisions; nothing was measured")
	}
	if err != nil {
		return err
	}
	measured, err := b.measure(ctx, s, common, stdout)
	if sig := caught(); sig != nil {
		return interruptedError(sig, ": %d visit(s) measured and stored; run the same backfill again to resume", measured)
	}
	return err
}
