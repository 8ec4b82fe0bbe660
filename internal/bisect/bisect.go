// Package bisect finds the first commit of a range at which a benchmark
// regresses, by binary search over the commit graph, whatever judges each
// step (an Oracle: for rootbench, an A/B comparison of the commit with the
// good revision).
//
// # The search
//
// New reads the graph of good..bad once (`git rev-list --parents bad
// ^good`, see gitrev.Repo.Graph) and Run bisects it in memory as git bisect
// does: the candidates are the commits reachable from bad and not from good,
// merged side branches included; each step judges the candidate whose
// ancestors among the remaining candidates come closest to half of them; a
// Bad commit keeps only its ancestors (itself included) as candidates and
// becomes the new bad one, a Good commit drops itself and its ancestors, and
// a skipped commit stays a candidate that is never judged again. The search
// ends when the bad commit is the only candidate left (Found), or when every
// other candidate is skipped (Ambiguous: the first bad commit is one of
// them). The model, git's, is that a commit is bad exactly when it descends
// from the culprit (or is it). On a linear history of n commits this takes
// at most ceil(log2 n) steps; merges can force more, since a set of
// parallel branches cannot always be halved.
//
// Before bisecting, Run confirms the regression: the first step judges bad
// itself (a Confirm step). Unless it is Bad, nothing is bisected
// (NoRegression when it is Good, NotConfirmed otherwise). After the search,
// and before naming a culprit, it judges bad against good once more
// (a Recheck step): every verdict of the search assumed that bad stays bad, and
// a regression that no longer reproduces (the machine changed under a long
// bisection) ends in NotReproducible, naming no one. Last, the one commit
// the search left is judged against its own (first) parent (a Verify step):
// the search compared every commit with good, so a culprit is named only
// when the slowdown is seen where the commit lands, and otherwise the
// bisection ends Unverified, naming no one either (the slowdown may be the
// sum of several small ones, or the machine may have changed again). A
// pair is never judged twice in a row: the recheck is left out when the
// search made no step, and the verification when the one commit left is
// bad and its parent good.
//
// An Inconclusive step is judged again with twice the budget (up to
// Options.MaxRetries times, default once), then skipped like `git bisect
// skip`; an Unbuildable commit is skipped at once.
//
// # The false-alarm rate of the whole bisection
//
// A false alarm is a Bad verdict on a commit that is not slower than good.
// Run gives step number k (counting every oracle call: the confirmation,
// each bisection step and each retry) the level
// analysis.StepAlpha(Alpha, Planned, k) (the sequential rule's one owner,
// analysis/sequential.go): the Planned steps share 0.8·Alpha equally and
// the j-th step beyond them gets 0.2·Alpha·2^-j. This sequence sums to less than Alpha however many
// steps are made, so by the union bound (Bonferroni's inequality) the chance
// that any step of the bisection raises a false alarm is at most Alpha,
// provided each step's oracle holds its own level on fresh measurements
// (conditionally on the steps before, which may choose the commit it
// judges). The bound needs no limit on the number of steps and no
// independence between steps.
//
// What it buys: when no step raises a false alarm, every Bad verdict is
// true, so a bisection over a range with no regression ends in NoRegression
// or NotConfirmed (a Found or Ambiguous result needs a Bad confirmation),
// and a Found culprit (like every Ambiguous candidate that was judged Bad)
// is truly slower than good. That the culprit is the *first* slow commit
// needs, besides, that no slow commit was judged Good: a miss, whose rate
// is the oracle's power (or, with a three-way gate whose Good means "within
// the margin", that gate's own error rate on the slow side), not Alpha.
package bisect

import (
	"context"
	"errors"
	"fmt"
	"math/bits"

	"github.com/rootbench/rootbench/internal/gitrev"
)

// ErrNotAncestor is wrapped by New's error when good is not an ancestor of
// bad.
var ErrNotAncestor = errors.New("good is not an ancestor of bad")

// ErrSwapped is wrapped by New's error, besides ErrNotAncestor, when good
// descends from bad.
var ErrSwapped = errors.New("good descends from bad")

// ErrEmptyRange is wrapped by New's error when good..bad holds no commit.
var ErrEmptyRange = errors.New("no commit between good and bad")

// ErrTooLong is wrapped by New's error when good..bad holds more than
// MaxCommits commits.
var ErrTooLong = errors.New("range too long to bisect")

// MaxCommits is the longest range New accepts: the search keeps, for each
// candidate, the set of its ancestors among the candidates (n²/8 bytes).
const MaxCommits = 20000

// Verdict is an oracle's judgement of one step.
type Verdict int

// The verdicts. The zero Verdict is none: an Outcome without one stops Run.
const (
	Good         Verdict = iota + 1 // not slower than good (beyond the gate)
	Bad                             // slower than good beyond the gate: it carries the regression
	Inconclusive                    // not decided within the step's budget
	Unbuildable                     // the commit does not build (or cannot run the benchmark)
)

func (v Verdict) String() string {
	switch v {
	case Good:
		return "good"
	case Bad:
		return "bad"
	case Inconclusive:
		return "inconclusive"
	case Unbuildable:
		return "unbuildable"
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// Outcome is what an oracle says about one step.
type Outcome struct {
	Verdict Verdict
	// Detail is one line for the step's report (estimate, interval, runs; or
	// the build error), shown as given.
	Detail string
	// Err, when not nil, says the oracle could not judge at all (a worker
	// crashed, the context ended): Run stops with Unfinished and this Err.
	Err error
}

// Step is one oracle call.
type Step struct {
	Number  int           // 1, 2, ...: every oracle call counts, retries included
	Planned int           // Bisection.Planned: the steps the bisection plans
	Attempt int           // 1, then 2, ... when an Inconclusive step is judged again
	Kind    Kind          // what the step is for: Confirm, Search, Recheck or Verify
	Commit  gitrev.Commit // the commit to judge
	// Good is what to compare Commit with: the good revision, or the
	// commit's parent for a Verify step.
	Good gitrev.Commit
	// Alpha is the false-alarm rate this step's oracle must hold:
	// analysis.StepAlpha(Options.Alpha, Planned, Number).
	Alpha float64
	// Budget multiplies the oracle's usual budget (time, runs): 1, then 2
	// on the first retry, 4 on the second.
	Budget float64
}

// StepRecord is a step and its outcome.
type StepRecord struct {
	Step    Step
	Outcome Outcome
}

// Status is how a bisection ended.
type Status int

// The statuses.
const (
	// Found: one commit is the first bad one (Result.Culprit).
	Found Status = iota + 1
	// Ambiguous: skipped commits leave several candidates
	// (Result.Candidates), any of which may be the first bad one.
	Ambiguous
	// NoRegression: the confirmation judged bad Good.
	NoRegression
	// NotConfirmed: the confirmation stayed Inconclusive, or a side did not
	// build.
	NotConfirmed
	// Unfinished: the context ended or the oracle failed (Result.Err).
	Unfinished
	// NotReproducible: the search ended, but bad judged against good
	// again was not Bad: the verdicts it rests on may describe a machine
	// that changed, so no culprit is named (Result.Candidates keeps what
	// the search left).
	NotReproducible
	// Unverified: the search left one commit, but judged against its own
	// parent it was not slower beyond the gate: no culprit is named
	// (Result.Candidates holds the commit). The slowdown may be spread
	// over several commits each within the gate, or the machine changed.
	Unverified
)

func (s Status) String() string {
	switch s {
	case Found:
		return "found"
	case Ambiguous:
		return "ambiguous"
	case NoRegression:
		return "no regression"
	case NotConfirmed:
		return "not confirmed"
	case Unfinished:
		return "unfinished"
	case NotReproducible:
		return "not reproducible"
	case Unverified:
		return "unverified"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Result is the outcome of a bisection.
type Result struct {
	Status Status
	// Culprit is the first bad commit when Status is Found, else nil.
	Culprit *gitrev.Commit
	// Parent is the commit the culprit (or, when Unverified, the one
	// candidate) was verified against: its first parent.
	Parent *gitrev.Commit
	// Candidates are the commits that may still be the first bad one, oldest
	// first: the culprit alone when Found; the one commit the search left
	// when Unverified; what the search left when NotReproducible; the
	// skipped commits left and the last bad one when Ambiguous; those left
	// when Unfinished; none when NoRegression or NotConfirmed.
	Candidates []gitrev.Commit
	Steps      []StepRecord
	Good, Bad  gitrev.Commit
	Planned    int
	// Alpha is the bound on the chance of any false alarm in the whole
	// bisection; Spent is the sum of the levels of the steps made (≤ Alpha).
	Alpha, Spent float64
	// Err says why an Unfinished bisection stopped.
	Err error
}

// Options control Run.
type Options struct {
	// Oracle judges a step: Step.Commit against Step.Good, at false-alarm
	// rate Step.Alpha, with Step.Budget times its usual budget. Required.
	Oracle func(ctx context.Context, s Step) Outcome
	// Alpha bounds the chance of any false alarm in the whole bisection
	// (see the package doc); 0.05 when 0; must be in (0, 1).
	Alpha float64
	// OnStep, when not nil, is called after each step.
	OnStep func(Step, Outcome)
	// MaxRetries is how many more times an Inconclusive step is judged
	// before it is skipped: 1 when 0; negative for none.
	MaxRetries int
}

// Bisection is a range of commits ready to bisect. Its methods may be
// called concurrently; Run keeps its search state to itself.
type Bisection struct {
	good, bad gitrev.Commit
	// commits are the candidates in topological order, oldest first; bad
	// is among them.
	commits []gitrev.Commit
	// anc[i] is the set of commits[i]'s ancestors among the candidates,
	// i included.
	anc []bitset
	// parent[i] is commits[i]'s first parent: a candidate, good, or an
	// ancestor of good known by its hash alone.
	parent []gitrev.Commit
	badIdx int
}

// New resolves good and bad in repo and reads the graph of good..bad. It
// refuses, before anything is built or judged, a revision that names no
// commit (gitrev.ErrUnknownRevision), a good revision that is not an
// ancestor of bad (ErrNotAncestor), an empty range (ErrEmptyRange) and a
// range of more than MaxCommits commits (ErrTooLong), each with one line
// that names the revisions.
func New(ctx context.Context, repo *gitrev.Repo, good, bad string) (*Bisection, error) {
	g, err := repo.Resolve(ctx, good)
	if err != nil {
		return nil, fmt.Errorf("good revision: %w", err)
	}
	b, err := repo.Resolve(ctx, bad)
	if err != nil {
		return nil, fmt.Errorf("bad revision: %w", err)
	}
	if g.Hash == b.Hash {
		return nil, fmt.Errorf("%w: good and bad are both %s", ErrEmptyRange, b.Short)
	}
	ok, err := repo.IsAncestor(ctx, g, b)
	if err != nil {
		return nil, err
	}
	if !ok {
		if swapped, err := repo.IsAncestor(ctx, b, g); err == nil && swapped {
			return nil, fmt.Errorf("%w: good %s is not an ancestor of bad %s (%w: were good and bad swapped?)",
				ErrNotAncestor, g.Short, b.Short, ErrSwapped)
		}
		return nil, fmt.Errorf("%w: good %s is not an ancestor of bad %s; accepted: a good revision that bad descends from",
			ErrNotAncestor, g.Short, b.Short)
	}
	nodes, err := repo.Graph(ctx, g, b)
	if err != nil {
		return nil, err
	}
	return fromGraph(g, b, nodes)
}

// fromGraph makes a Bisection of the range whose commits, oldest first in
// topological order, are nodes.
func fromGraph(good, bad gitrev.Commit, nodes []gitrev.Node) (*Bisection, error) {
	n := len(nodes)
	if n == 0 {
		return nil, fmt.Errorf("%w: %s..%s", ErrEmptyRange, good.Short, bad.Short)
	}
	if n > MaxCommits {
		return nil, fmt.Errorf("%w: %s..%s holds %d commits, at most %d are accepted: choose a later good revision",
			ErrTooLong, good.Short, bad.Short, n, MaxCommits)
	}
	bs := &Bisection{good: good, bad: bad, commits: make([]gitrev.Commit, n), anc: make([]bitset, n),
		parent: make([]gitrev.Commit, n), badIdx: -1}
	index := make(map[string]int, n)
	for i, nd := range nodes {
		bs.commits[i] = nd.Commit
		index[nd.Hash] = i
	}
	for i, nd := range nodes {
		a := newBitset(n)
		a.set(i)
		for _, p := range nd.Parents {
			j, in := index[p]
			if !in {
				continue // an ancestor of good
			}
			if j >= i {
				return nil, fmt.Errorf("commit graph of %s..%s: %s is not listed after its parent %s", good.Short, bad.Short, nd.Short, nodes[j].Short)
			}
			a.or(bs.anc[j])
		}
		bs.anc[i] = a
		if len(nd.Parents) > 0 {
			bs.parent[i] = bs.commitOf(nd.Parents[0], index)
		}
		if nd.Hash == bad.Hash {
			bs.badIdx = i
		}
	}
	if bs.badIdx < 0 {
		return nil, fmt.Errorf("commit graph of %s..%s does not hold %s", good.Short, bad.Short, bad.Short)
	}
	return bs, nil
}

// commitOf returns the commit whose hash is h: a candidate, good, or a
// commit outside the range known by its hash.
func (b *Bisection) commitOf(h string, index map[string]int) gitrev.Commit {
	if j, in := index[h]; in {
		return b.commits[j]
	}
	if h == b.good.Hash {
		return b.good
	}
	return gitrev.Commit{Hash: h, Short: h[:min(len(h), 12)]}
}

// Good returns the good commit.
func (b *Bisection) Good() gitrev.Commit { return b.good }

// Bad returns the bad commit.
func (b *Bisection) Bad() gitrev.Commit { return b.bad }

// Commits returns the commits of good..bad, oldest first in topological
// order.
func (b *Bisection) Commits() []gitrev.Commit { return append([]gitrev.Commit(nil), b.commits...) }

// Planned returns the number of steps the bisection plans: the confirmation,
// ceil(log2 n) steps for a range of n commits (enough for a linear history
// when no step is retried or skipped), the recheck and the verification;
// for a range of one commit, the confirmation alone (it is the recheck and
// the verification too).
func (b *Bisection) Planned() int {
	if len(b.commits) == 1 {
		return 1
	}
	return 3 + bits.Len(uint(len(b.commits)-1))
}

// Kind is what a step is for.
type Kind int

const (
	// Confirm is the first step: bad against good, to confirm the
	// regression.
	Confirm Kind = iota
	// Search judges a candidate against good.
	Search
	// Recheck judges bad against good again after the search, before a
	// culprit is named, so that a regression that no longer reproduces
	// (the machine changed under the bisection) names no one.
	Recheck
	// Verify judges the one commit the search left against its first
	// parent (Step.Good), so that a culprit is named only where the
	// slowdown lands.
	Verify
)

// String is "confirm", "search", "recheck" or "verify".
func (k Kind) String() string {
	switch k {
	case Confirm:
		return "confirm"
	case Search:
		return "search"
	case Recheck:
		return "recheck"
	case Verify:
		return "verify"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}
