package bisect

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/internal/gitrev"
)

// Run bisects (see the package doc) and returns how it ended. It stops
// early, with Unfinished, when ctx ends, the oracle returns an Outcome with
// Err or without a Verdict, or opts is invalid.
func (b *Bisection) Run(ctx context.Context, opts Options) Result {
	r := &run{b: b, ctx: ctx, opts: opts, res: Result{Good: b.good, Bad: b.bad, Planned: b.Planned(), Alpha: opts.Alpha}}
	if r.res.Alpha == 0 {
		r.res.Alpha = analysis.DefaultAlpha
	}
	r.retries = opts.MaxRetries
	if r.retries == 0 {
		r.retries = 1
	}
	r.retries = max(r.retries, 0)
	r.active = newBitset(len(b.commits))
	for i := range b.commits {
		r.active.set(i)
	}
	switch {
	case opts.Oracle == nil:
		return r.stop(errors.New("bisect: no oracle"))
	case analysis.CheckAlpha(r.res.Alpha) != nil:
		return r.stop(fmt.Errorf("bisect: %w", analysis.CheckAlpha(r.res.Alpha)))
	}

	v, ok := r.judge(b.bad, b.good, Confirm)
	if !ok {
		return r.res
	}
	switch v {
	case Good:
		return r.end(NoRegression)
	case Inconclusive, Unbuildable:
		return r.end(NotConfirmed)
	}

	skipped := newBitset(len(b.commits))
	cur := b.badIdx
	searched := false // whether a step judged a commit other than bad
	for {
		x := b.pick(r.active, skipped, cur)
		if x < 0 {
			break
		}
		v, ok := r.judge(b.commits[x], b.good, Search)
		if !ok {
			return r.res
		}
		searched = true
		switch v {
		case Good:
			r.active.andNot(b.anc[x])
		case Bad:
			r.active.and(b.anc[x])
			cur = x
		default:
			skipped.set(x)
		}
	}
	r.res.Candidates = r.candidates()
	// Before naming anyone, bad against good once more: every verdict of
	// the search assumed that bad stays bad. (With no search step since
	// the confirmation, it would repeat the confirmation.)
	if searched {
		v, ok = r.judge(b.bad, b.good, Recheck)
		if !ok {
			return r.res
		}
		if v != Bad {
			r.res.Status = NotReproducible
			return r.res
		}
	}
	if len(r.res.Candidates) > 1 {
		r.res.Status = Ambiguous
		return r.res
	}
	// The one commit left, against its own parent: the search compared
	// it with good only.
	c, parent := b.commits[cur], b.parent[cur]
	r.res.Parent = &parent
	// Bad against good, its parent, was just judged Bad: that was the
	// verification.
	if c.Hash != b.bad.Hash || parent.Hash != b.good.Hash {
		v, ok = r.judge(c, parent, Verify)
		if !ok {
			return r.res
		}
		if v != Bad {
			r.res.Status = Unverified
			return r.res
		}
	}
	r.res.Culprit = &c
	r.res.Status = Found
	return r.res
}

// run is the state of one Run.
type run struct {
	b       *Bisection
	ctx     context.Context
	opts    Options
	retries int
	number  int    // steps made
	active  bitset // the candidates left
	res     Result
}

// judge asks the oracle about c against good (a step of the given kind),
// retrying an Inconclusive verdict with a doubled budget up to r.retries
// times. ok is false when Run must stop (r.res then says why).
func (r *run) judge(c, good gitrev.Commit, kind Kind) (v Verdict, ok bool) {
	for attempt := 1; ; attempt++ {
		if err := r.ctx.Err(); err != nil {
			r.stop(err)
			return 0, false
		}
		r.number++
		s := Step{
			Number: r.number, Planned: r.res.Planned, Attempt: attempt, Kind: kind,
			Commit: c, Good: good,
			Alpha:  analysis.StepAlpha(r.res.Alpha, r.res.Planned, r.number),
			Budget: math.Ldexp(1, attempt-1),
		}
		out := r.opts.Oracle(r.ctx, s)
		r.res.Steps = append(r.res.Steps, StepRecord{Step: s, Outcome: out})
		r.res.Spent += s.Alpha
		if r.opts.OnStep != nil {
			r.opts.OnStep(s, out)
		}
		switch {
		case out.Err != nil:
			r.stop(fmt.Errorf("step %d (%s): %w", s.Number, c.Short, out.Err))
			return 0, false
		case out.Verdict == Inconclusive && attempt <= r.retries:
			continue
		case out.Verdict >= Good && out.Verdict <= Unbuildable:
			return out.Verdict, true
		default:
			r.stop(fmt.Errorf("step %d (%s): the oracle gave no verdict (%v)", s.Number, c.Short, out.Verdict))
			return 0, false
		}
	}
}

// stop ends the bisection as Unfinished because of err.
func (r *run) stop(err error) Result {
	r.res.Status = Unfinished
	r.res.Err = err
	r.res.Candidates = r.candidates()
	return r.res
}

// end ends the bisection with a status that leaves no candidate.
func (r *run) end(s Status) Result {
	r.res.Status = s
	return r.res
}

func (r *run) candidates() []gitrev.Commit {
	var cs []gitrev.Commit
	for i := range r.b.commits {
		if r.active.has(i) {
			cs = append(cs, r.b.commits[i])
		}
	}
	return cs
}

// pick returns the candidate to judge next, or -1 when none is left: among
// the active commits other than cur (the last bad one) and not skipped, the
// one whose active ancestors (itself included) number closest to half the
// active commits; the oldest of equals.
func (b *Bisection) pick(active, skipped bitset, cur int) int {
	n := active.count()
	best, bestScore := -1, math.MaxInt
	for i := range b.commits {
		if i == cur || !active.has(i) || skipped.has(i) {
			continue
		}
		w := b.anc[i].countAnd(active)
		score := 2*w - n
		if score < 0 {
			score = -score
		}
		if score < bestScore {
			best, bestScore = i, score
		}
	}
	return best
}
