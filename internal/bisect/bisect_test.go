package bisect

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/internal/gitrev"
)

// linear is a linear history c0 (good) ... cn (bad), held in memory as
// gitrev.Repo.Graph reads one (TestNewReadsTheGraph checks that New reads
// a repository's so); it returns the hashes by index.
type linear []gitrev.Commit

func newLinear(n int) linear {
	cs := make(linear, n+1)
	for i := range cs {
		h := fmt.Sprintf("%040x", i+1)
		cs[i] = gitrev.Commit{Hash: h, Short: h[33:], Subject: fmt.Sprintf("c%d", i)}
	}
	return cs
}

func (l linear) hashes() []string { return hashes(l) }

// between is the bisection of l[good]..l[bad].
func (l linear) between(t *testing.T, good, bad int) *Bisection {
	t.Helper()
	var nodes []gitrev.Node
	for i := good + 1; i <= bad; i++ {
		nodes = append(nodes, gitrev.Node{Commit: l[i], Parents: []string{l[i-1].Hash}})
	}
	b, err := fromGraph(l[good], l[bad], nodes)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// linearRange is the bisection of a linear history c0 (good) ... cn
// (bad), and the history's hashes by index.
func linearRange(t *testing.T, n int) ([]string, *Bisection) {
	t.Helper()
	l := newLinear(n)
	return l.hashes(), l.between(t, 0, n)
}

// script is a scripted oracle: a commit is bad when isBad says so; a
// commit in unbuildable is Unbuildable (except when confirming); a commit
// in inconclusive is Inconclusive for that many attempts (budgets), then
// judged.
type script struct {
	isBad        func(hash string) bool
	unbuildable  map[string]bool
	inconclusive map[string]int
	calls        []Step
}

func (s *script) oracle(_ context.Context, st Step) Outcome {
	s.calls = append(s.calls, st)
	h := st.Commit.Hash
	if st.Kind != Confirm && s.unbuildable[h] {
		return Outcome{Verdict: Unbuildable, Detail: "cannot build"}
	}
	if st.Attempt <= s.inconclusive[h] {
		return Outcome{Verdict: Inconclusive}
	}
	// Against its parent (Verify), a commit is slower only when it is the
	// first bad one; against good, whenever it is bad.
	if s.isBad(h) && !(st.Kind == Verify && s.isBad(st.Good.Hash)) {
		return Outcome{Verdict: Bad, Detail: "+50%"}
	}
	return Outcome{Verdict: Good, Detail: "+0%"}
}

// checkSteps checks what every result must satisfy: steps numbered from 1,
// the confirmation first and on bad, each step's level StepAlpha's, the
// budget doubling per attempt, the sum of levels below Alpha, OnStep called
// with every step.
func checkSteps(t *testing.T, b *Bisection, res Result, onStep []StepRecord) {
	t.Helper()
	if len(res.Steps) == 0 {
		t.Fatal("no step")
	}
	if s := res.Steps[0].Step; s.Kind != Confirm || s.Commit != b.Bad() {
		t.Errorf("step 1 = %+v, want the confirmation on bad", s)
	}
	sum := 0.0
	for i, rec := range res.Steps {
		s := rec.Step
		good := b.Good()
		if s.Kind == Verify {
			good = *res.Parent
		}
		if s.Number != i+1 || s.Planned != b.Planned() || s.Good != good {
			t.Errorf("step %d: %+v", i+1, s)
		}
		// The confirmation's attempts come first; bad is never judged after.
		if (s.Kind == Confirm) != (s.Commit == b.Bad() && s.Attempt == s.Number) {
			t.Errorf("step %d: Kind=%v", s.Number, s.Kind)
		}
		if s.Alpha != analysis.StepAlpha(res.Alpha, b.Planned(), s.Number) || s.Alpha <= 0 {
			t.Errorf("step %d: Alpha %v, want StepAlpha's %v", s.Number, s.Alpha, analysis.StepAlpha(res.Alpha, b.Planned(), s.Number))
		}
		if want := float64(int(1) << (s.Attempt - 1)); s.Budget != want {
			t.Errorf("step %d attempt %d: Budget %v, want %v", s.Number, s.Attempt, s.Budget, want)
		}
		if s.Attempt > 1 && res.Steps[i-1].Step.Commit != s.Commit {
			t.Errorf("step %d is attempt %d on a commit other than the step before", s.Number, s.Attempt)
		}
		sum += s.Alpha
	}
	if sum != res.Spent || res.Spent > res.Alpha {
		t.Errorf("Spent = %v, levels sum to %v, Alpha %v", res.Spent, sum, res.Alpha)
	}
	if onStep != nil && !slices.EqualFunc(onStep, res.Steps, func(a, b StepRecord) bool {
		return a.Step == b.Step && a.Outcome.Verdict == b.Outcome.Verdict
	}) {
		t.Errorf("OnStep saw %d steps, Result has %d", len(onStep), len(res.Steps))
	}
}

func hashes(cs []gitrev.Commit) []string {
	var hs []string
	for _, c := range cs {
		hs = append(hs, c.Hash)
	}
	return hs
}

func TestCulpritAtEveryPosition(t *testing.T) {
	t.Parallel()
	const n = 9
	hs, b := linearRange(t, n)
	if got := len(b.Commits()); got != n {
		t.Fatalf("%d commits in the range, want %d", got, n)
	}
	if b.Planned() != 3+4 {
		t.Errorf("Planned() = %d for %d commits, want 3+ceil(log2 %d) = 7", b.Planned(), n, n)
	}
	pos := map[string]int{}
	for i, h := range hs {
		pos[h] = i
	}
	for k := 1; k <= n; k++ {
		s := &script{isBad: func(h string) bool { return pos[h] >= k }}
		var seen []StepRecord
		res := b.Run(context.Background(), Options{Oracle: s.oracle, Alpha: 0.05,
			OnStep: func(st Step, o Outcome) { seen = append(seen, StepRecord{st, o}) }})
		if res.Status != Found || res.Culprit == nil || res.Culprit.Hash != hs[k] {
			t.Errorf("culprit c%d: status %v, culprit %v", k, res.Status, res.Culprit)
			continue
		}
		if !slices.Equal(hashes(res.Candidates), []string{hs[k]}) || res.Culprit.Subject != fmt.Sprintf("c%d", k) {
			t.Errorf("culprit c%d: candidates %v, subject %q", k, res.Candidates, res.Culprit.Subject)
		}
		if len(res.Steps) > b.Planned() {
			t.Errorf("culprit c%d: %d steps, more than the %d planned", k, len(res.Steps), b.Planned())
		}
		if last := res.Steps[len(res.Steps)-1].Step; last.Kind != Verify || last.Commit.Hash != hs[k] || last.Good.Hash != hs[k-1] ||
			res.Parent == nil || res.Parent.Hash != hs[k-1] {
			t.Errorf("culprit c%d: the last step %+v is not c%d against its parent c%d", k, last, k, k-1)
		}
		judged := map[string]bool{}
		for _, st := range res.Steps {
			if st.Step.Kind == Recheck || st.Step.Kind == Verify {
				continue // bad once more, and the culprit against its parent
			}
			if judged[st.Step.Commit.Hash] {
				t.Errorf("culprit c%d: c%d judged twice", k, pos[st.Step.Commit.Hash])
			}
			judged[st.Step.Commit.Hash] = true
		}
		checkSteps(t, b, res, seen)
	}
}

// In a linear history, with the culprit k and unbuildable commits U, the
// answer is the commits after the last buildable one before k up to the
// first buildable one from k on.
func TestSkipsLeaveCandidates(t *testing.T) {
	t.Parallel()
	const n = 9
	hs, b := linearRange(t, n)
	for k := 1; k <= n; k++ {
		for _, skip := range [][]int{{k - 1}, {k}, {k + 1}, {k - 1, k}, {k - 2, k - 1, k, k + 1}, {1, 2, 3, 4, 5, 6, 7, 8}} {
			unbuildable := map[string]bool{}
			for _, j := range skip {
				if j >= 1 && j < n { // bad itself is confirmed, never skipped
					unbuildable[hs[j]] = true
				}
			}
			lo := k - 1
			for lo > 0 && unbuildable[hs[lo]] {
				lo--
			}
			hi := k
			for unbuildable[hs[hi]] {
				hi++
			}
			want := hs[lo+1 : hi+1]
			s := &script{isBad: func(h string) bool { return slices.Index(hs, h) >= k }, unbuildable: unbuildable}
			res := b.Run(context.Background(), Options{Oracle: s.oracle, Alpha: 0.05})
			wantStatus := Ambiguous
			if len(want) == 1 {
				wantStatus = Found
			}
			if res.Status != wantStatus || !slices.Equal(hashes(res.Candidates), want) {
				t.Errorf("culprit c%d, unbuildable %v: %v with candidates c%d..c%d (%d), want %v with c%d..c%d",
					k, skip, res.Status, slices.Index(hs, res.Candidates[0].Hash), slices.Index(hs, res.Candidates[len(res.Candidates)-1].Hash),
					len(res.Candidates), wantStatus, lo+1, hi)
			}
			if wantStatus == Ambiguous && res.Culprit != nil {
				t.Errorf("an ambiguous result names culprit %v", res.Culprit)
			}
			for _, st := range res.Steps {
				if st.Step.Attempt != 1 {
					t.Errorf("an unbuildable commit was retried: %+v", st.Step)
				}
			}
			checkSteps(t, b, res, nil)
		}
	}
}

func TestInconclusiveRetriedThenSkipped(t *testing.T) {
	t.Parallel()
	const n = 9
	hs, b := linearRange(t, n)
	isBad := func(h string) bool { return slices.Index(hs, h) >= 5 }
	attempts := func(res Result, h string) []float64 {
		var budgets []float64
		for _, st := range res.Steps {
			if st.Step.Commit.Hash == h {
				budgets = append(budgets, st.Step.Budget)
			}
		}
		return budgets
	}
	cases := []struct {
		name         string
		inconclusive int // attempts of c4 that are Inconclusive
		maxRetries   int
		status       Status
		budgets      []float64 // of the steps on c4
	}{
		{"decided on retry", 1, 0, Found, []float64{1, 2}},
		{"retried once, then skipped", 10, 0, Ambiguous, []float64{1, 2}},
		{"no retry", 10, -1, Ambiguous, []float64{1}},
		{"two retries", 10, 2, Ambiguous, []float64{1, 2, 4}},
		{"decided on the second retry", 2, 2, Found, []float64{1, 2, 4}},
	}
	for _, c := range cases {
		s := &script{isBad: isBad, inconclusive: map[string]int{hs[4]: c.inconclusive}}
		res := b.Run(context.Background(), Options{Oracle: s.oracle, MaxRetries: c.maxRetries})
		if res.Status != c.status {
			t.Errorf("%s: status %v, want %v", c.name, res.Status, c.status)
		}
		if c.status == Ambiguous && !slices.Equal(hashes(res.Candidates), hs[4:6]) {
			t.Errorf("%s: candidates %v, want c4 and c5", c.name, res.Candidates)
		}
		if c.status == Found && res.Culprit.Hash != hs[5] {
			t.Errorf("%s: culprit %v, want c5", c.name, res.Culprit)
		}
		if got := attempts(res, hs[4]); !slices.Equal(got, c.budgets) {
			t.Errorf("%s: budgets of the steps on c4 %v, want %v", c.name, got, c.budgets)
		}
		if res.Alpha != analysis.DefaultAlpha {
			t.Errorf("%s: Alpha %v, want the default %v", c.name, res.Alpha, analysis.DefaultAlpha)
		}
		checkSteps(t, b, res, nil)
	}
}

func TestConfirmation(t *testing.T) {
	t.Parallel()
	l := newLinear(4)
	hs, b := l.hashes(), l.between(t, 0, 4)
	never := func(string) bool { return false }
	always := func(h string) bool { return h != hs[0] } // every commit after good
	cases := []struct {
		name   string
		s      *script
		status Status
		steps  int
	}{
		{"bad is not slower", &script{isBad: never}, NoRegression, 1},
		{"undecided, then retried", &script{isBad: never, inconclusive: map[string]int{hs[4]: 10}}, NotConfirmed, 2},
		{"decided on retry", &script{isBad: always, inconclusive: map[string]int{hs[4]: 1}}, Found, 2},
	}
	for _, c := range cases {
		res := b.Run(context.Background(), Options{Oracle: c.s.oracle})
		if res.Status != c.status || (c.status != Found && (len(res.Steps) != c.steps || res.Culprit != nil || res.Candidates != nil)) {
			t.Errorf("%s: %v after %d steps, culprit %v, candidates %v; want %v after %d", c.name, res.Status, len(res.Steps), res.Culprit, res.Candidates, c.status, c.steps)
		}
		if c.status == Found && (res.Culprit.Hash != hs[1] || len(res.Steps) < c.steps || res.Steps[1].Step.Kind != Confirm) {
			t.Errorf("%s: culprit %v, steps %+v", c.name, res.Culprit, res.Steps)
		}
		checkSteps(t, b, res, nil)
	}
	unbuildable := func(_ context.Context, s Step) Outcome { return Outcome{Verdict: Unbuildable} }
	if res := b.Run(context.Background(), Options{Oracle: unbuildable}); res.Status != NotConfirmed || len(res.Steps) != 1 {
		t.Errorf("unbuildable bad: %v after %d steps, want not confirmed after 1", res.Status, len(res.Steps))
	}

	// A range of one commit: the confirmation is the whole bisection.
	one := l.between(t, 3, 4)
	res := one.Run(context.Background(), Options{Oracle: (&script{isBad: func(h string) bool { return h == hs[4] }}).oracle})
	if one.Planned() != 1 || res.Status != Found || res.Culprit.Hash != hs[4] || len(res.Steps) != 1 {
		t.Errorf("range of one: planned %d, %v, culprit %v, %d steps", one.Planned(), res.Status, res.Culprit, len(res.Steps))
	}
}

func TestUnfinished(t *testing.T) {
	t.Parallel()
	_, b := linearRange(t, 8)
	failing := errors.New("worker crashed")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cases := []struct {
		name   string
		ctx    context.Context
		opts   Options
		is     error
		steps  int
		remain bool // candidates left to report
	}{
		{"oracle error", context.Background(), Options{Oracle: func(_ context.Context, s Step) Outcome {
			if s.Number == 3 {
				return Outcome{Err: failing}
			}
			return Outcome{Verdict: Bad}
		}}, failing, 3, true},
		{"context ended", ctx, Options{Oracle: func(_ context.Context, s Step) Outcome {
			if s.Kind == Confirm {
				return Outcome{Verdict: Bad}
			}
			cancel()
			return Outcome{Verdict: Good}
		}}, context.Canceled, 2, true},
		{"no verdict", context.Background(), Options{Oracle: func(context.Context, Step) Outcome { return Outcome{} }}, nil, 1, true},
		{"no oracle", context.Background(), Options{}, nil, 0, true},
		{"alpha out of range", context.Background(), Options{Oracle: func(context.Context, Step) Outcome { return Outcome{Verdict: Bad} }, Alpha: 1}, nil, 0, true},
	}
	for _, c := range cases {
		res := b.Run(c.ctx, c.opts)
		if res.Status != Unfinished || res.Err == nil || (c.is != nil && !errors.Is(res.Err, c.is)) {
			t.Errorf("%s: status %v, err %v; want unfinished with %v", c.name, res.Status, res.Err, c.is)
		}
		if len(res.Steps) != c.steps || (len(res.Candidates) > 0) != c.remain || res.Culprit != nil {
			t.Errorf("%s: %d steps, candidates %d, culprit %v", c.name, len(res.Steps), len(res.Candidates), res.Culprit)
		}
	}
}

func TestStrings(t *testing.T) {
	t.Parallel()
	for v, want := range map[Verdict]string{Good: "good", Bad: "bad", Inconclusive: "inconclusive", Unbuildable: "unbuildable", 0: "Verdict(0)"} {
		if v.String() != want {
			t.Errorf("Verdict %d: %q, want %q", int(v), v.String(), want)
		}
	}
	for s, want := range map[Status]string{Found: "found", Ambiguous: "ambiguous", NoRegression: "no regression", NotConfirmed: "not confirmed", Unfinished: "unfinished", NotReproducible: "not reproducible", Unverified: "unverified", 0: "Status(0)"} {
		if s.String() != want {
			t.Errorf("Status %d: %q, want %q", int(s), s.String(), want)
		}
	}
}

// TestRecheckNotReproducible: a regression that is gone by the end of the
// search (the machine changed under a long bisection) names no culprit:
// bad is judged against good once more, and anything but Bad ends the
// bisection NotReproducible with the search's candidates kept. Then the
// one commit left is judged against its parent, and anything but Bad ends
// it Unverified.
func TestRecheckNotReproducible(t *testing.T) {
	t.Parallel()
	hs, b := linearRange(t, 8)
	for _, final := range []Verdict{Good, Inconclusive, Bad} {
		for _, verify := range []Verdict{Good, Inconclusive, Bad} {
			testRecheck(t, b, hs, final, verify)
		}
	}
}

func testRecheck(t *testing.T, b *Bisection, hs []string, final, verify Verdict) {
	t.Helper()
	{
		oracle := func(_ context.Context, st Step) Outcome {
			switch {
			case st.Kind == Verify:
				return Outcome{Verdict: verify}
			case st.Kind == Recheck:
				return Outcome{Verdict: final}
			case st.Kind == Confirm:
				return Outcome{Verdict: Bad}
			}
			return Outcome{Verdict: Good} // every step: not slower
		}
		res := b.Run(context.Background(), Options{Oracle: oracle, MaxRetries: -1})
		last := res.Steps[len(res.Steps)-1].Step
		if final == Bad {
			last = res.Steps[len(res.Steps)-2].Step
		}
		if last.Kind != Recheck || last.Commit.Hash != hs[8] {
			t.Errorf("final %v: the step %+v is not the recheck of bad", final, last)
		}
		switch {
		case final == Bad:
			v := res.Steps[len(res.Steps)-1].Step
			if v.Kind != Verify || v.Commit.Hash != hs[8] || v.Good.Hash != hs[7] || res.Parent == nil || res.Parent.Hash != hs[7] {
				t.Errorf("recheck Bad: the last step %+v is not c8 against its parent c7", v)
			}
			want, culprit := Found, true
			if verify != Bad {
				want, culprit = Unverified, false
			}
			if res.Status != want || (res.Culprit != nil) != culprit || !slices.Equal(hashes(res.Candidates), []string{hs[8]}) {
				t.Errorf("recheck Bad, verify %v: %v, culprit %v, candidates %v; want %v", verify, res.Status, res.Culprit, res.Candidates, want)
			}
		default:
			if res.Status != NotReproducible || res.Culprit != nil || len(res.Candidates) != 1 {
				t.Errorf("recheck %v: %v, culprit %v, candidates %v; want not reproducible, no culprit", final, res.Status, res.Culprit, res.Candidates)
			}
		}
		if res.Spent > res.Alpha {
			t.Errorf("final %v: spent %v of %v", final, res.Spent, res.Alpha)
		}
	}
}
