package bisect

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/internal/gitrev"
)

// The levels of any number of steps sum to at most alpha, exactly (as
// rationals, not in floating point).
func TestStepAlphaSumsToAlphaAtMost(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		alpha := rapid.Float64Range(1e-9, 0.999).Draw(t, "alpha")
		planned := rapid.IntRange(1, 200).Draw(t, "planned")
		steps := rapid.IntRange(1, 300).Draw(t, "steps")
		sum := new(big.Rat)
		prev := analysis.StepAlpha(alpha, planned, 1)
		for k := 1; k <= steps; k++ {
			a := analysis.StepAlpha(alpha, planned, k)
			// The planned steps share equally; the extra ones halve (up
			// to the rounding of subnormal numbers).
			if a < 0 || (k <= planned && a != prev) || (k > planned+1 && a > prev) {
				t.Fatalf("step %d: level %v after %v (planned %d)", k, a, prev, planned)
			}
			prev = a
			sum.Add(sum, new(big.Rat).SetFloat64(a))
		}
		if sum.Cmp(new(big.Rat).SetFloat64(alpha)) > 0 {
			f, _ := sum.Float64()
			t.Fatalf("levels of %d steps (planned %d) sum to %v > alpha %v", steps, planned, f, alpha)
		}
		if analysis.StepAlpha(alpha, planned, 0) != 0 || analysis.StepAlpha(0, planned, 1) != 0 {
			t.Fatal("a step below 1 or alpha 0 gets a level")
		}
	})
}

// dag draws a range of commits: node i has one or two parents among the
// nodes before it, or outside the range (good's side); only the ancestors
// of the last node (bad) are kept, in order.
func dag(t *rapid.T) []gitrev.Node {
	n := rapid.IntRange(1, 40).Draw(t, "n")
	linear := rapid.Bool().Draw(t, "linear")
	all := make([]gitrev.Node, n)
	for i := range all {
		h := fmt.Sprintf("%040x", i+1)
		all[i] = gitrev.Node{Commit: gitrev.Commit{Hash: h, Short: h[33:], Subject: fmt.Sprintf("n%d", i)}}
		switch {
		case i == 0:
			all[i].Parents = []string{"good"}
		case linear:
			all[i].Parents = []string{all[i-1].Hash}
		default:
			k := rapid.IntRange(1, 2).Draw(t, "parents")
			for range k {
				j := rapid.IntRange(-1, i-1).Draw(t, "parent")
				p := "good"
				if j >= 0 {
					p = all[j].Hash
				}
				if !slices.Contains(all[i].Parents, p) {
					all[i].Parents = append(all[i].Parents, p)
				}
			}
		}
	}
	keep := ancestors(all, all[n-1].Hash)
	var nodes []gitrev.Node
	for _, nd := range all {
		if keep[nd.Hash] {
			nodes = append(nodes, nd)
		}
	}
	return nodes
}

// ancestors returns the hashes of h's ancestors among nodes, h included,
// by a walk of the parents independent of the package's bitsets.
func ancestors(nodes []gitrev.Node, h string) map[string]bool {
	parents := map[string][]string{}
	for _, nd := range nodes {
		parents[nd.Hash] = nd.Parents
	}
	seen := map[string]bool{}
	stack := []string{h}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[x] {
			continue
		}
		if _, in := parents[x]; !in {
			continue
		}
		seen[x] = true
		stack = append(stack, parents[x]...)
	}
	return seen
}

// Over random histories, merges included, with a culprit anywhere, random
// unbuildable and undecided commits, a truthful oracle leads to the culprit:
// Found names it, or Ambiguous lists it among candidates all of which but
// the last bad one were skipped.
func TestBisectRandomHistories(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		nodes := dag(t)
		good := gitrev.Commit{Hash: "good", Short: "good"}
		bad := nodes[len(nodes)-1].Commit
		b, err := fromGraph(good, bad, nodes)
		if err != nil {
			t.Fatal(err)
		}
		culprit := rapid.SampledFrom(nodes).Draw(t, "culprit").Hash
		s := &script{
			isBad:        func(h string) bool { return ancestors(nodes, h)[culprit] },
			unbuildable:  map[string]bool{},
			inconclusive: map[string]int{},
		}
		for _, nd := range nodes[:len(nodes)-1] {
			switch rapid.IntRange(0, 9).Draw(t, "kind") {
			case 0:
				s.unbuildable[nd.Hash] = true
			case 1:
				s.inconclusive[nd.Hash] = rapid.IntRange(1, 4).Draw(t, "attempts")
			}
		}
		retries := rapid.IntRange(-1, 2).Draw(t, "retries")
		res := b.Run(context.Background(), Options{Oracle: s.oracle, MaxRetries: retries, Alpha: 0.1})
		switch {
		case retries == 0:
			retries = 1 // the default
		case retries < 0:
			retries = 0
		}

		perCommit := map[string]int{}
		skipped := map[string]bool{}
		for _, st := range res.Steps {
			if st.Step.Kind == Recheck || st.Step.Kind == Verify {
				continue // bad once more, and the culprit against its parent
			}
			perCommit[st.Step.Commit.Hash]++
			if v := st.Outcome.Verdict; v == Unbuildable || (v == Inconclusive && st.Step.Attempt > retries) {
				skipped[st.Step.Commit.Hash] = true
			}
		}
		for h, k := range perCommit {
			if k > 1+retries {
				t.Fatalf("%s judged %d times", h, k)
			}
		}
		if !slices.ContainsFunc(res.Candidates, func(c gitrev.Commit) bool { return c.Hash == culprit }) {
			t.Fatalf("%v: candidates %v do not hold the culprit %s", res.Status, res.Candidates, culprit)
		}
		unskipped := 0
		for _, c := range res.Candidates {
			if !skipped[c.Hash] {
				unskipped++
				if !s.isBad(c.Hash) {
					t.Fatalf("candidate %s is neither skipped nor bad", c.Short)
				}
			}
		}
		if unskipped != 1 {
			t.Fatalf("%d candidates were not skipped, want 1 (the last bad one)", unskipped)
		}
		switch res.Status {
		case Found:
			if res.Culprit == nil || res.Culprit.Hash != culprit || len(res.Candidates) != 1 {
				t.Fatalf("found %v, culprit is %s", res.Culprit, culprit)
			}
		case Ambiguous:
			if len(skipped) == 0 || len(res.Candidates) < 2 {
				t.Fatalf("ambiguous with %d skips and candidates %v", len(skipped), res.Candidates)
			}
		default:
			t.Fatalf("status %v (%v)", res.Status, res.Err)
		}
		isLinear := true
		for _, nd := range nodes {
			isLinear = isLinear && len(nd.Parents) == 1
		}
		if isLinear && len(skipped) == 0 && len(res.Steps) == len(perCommit) && len(res.Steps) > b.Planned() {
			t.Fatalf("linear history of %d commits: %d steps, planned %d", len(nodes), len(res.Steps), b.Planned())
		}
		if res.Spent > res.Alpha {
			t.Fatalf("spent %v of alpha %v", res.Spent, res.Alpha)
		}
	})
}
