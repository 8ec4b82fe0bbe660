package bisect

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/internal/gitrev"
	"github.com/rootbench/rootbench/internal/gitrev/gittest"
)

// The tests that read the graph of a real repository (gittest) rather
// than one held in memory; the full suite runs them, -short skips them.

// history with merges:
//
//	base - g - c1 - c2 - c3 - m1 - c4 - m2 - c5 (bad)
//	    \                    /        /
//	     a1 - a2 -----------'        /
//	              c1 - b1 ----------'
//
// Side branch a forked before good, so its commits are in good..bad as git
// bisect counts them; side branch b forked after good.
func TestMerges(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a git history: skipped in -short (the full suite runs it; TestBisectRandomHistories covers merges in memory)")
	}
	t.Parallel()
	g := gittest.New(t)
	h := map[string]string{}
	commit := func(name string) { h[name] = g.Commit(t, map[string]string{name + ".txt": name}, name) }
	commit("base")
	commit("g")
	commit("c1")
	commit("c2")
	commit("c3")
	g.Branch(t, "a", h["base"])
	commit("a1")
	commit("a2")
	g.Branch(t, "b", h["c1"])
	commit("b1")
	g.Checkout(t, "main")
	h["m1"] = g.Merge(t, "a", "m1")
	commit("c4")
	h["m2"] = g.Merge(t, "b", "m2")
	commit("c5")
	r, err := gitrev.Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(context.Background(), r, h["g"], h["c5"])
	if err != nil {
		t.Fatal(err)
	}
	var inRange []string
	for _, c := range b.Commits() {
		inRange = append(inRange, c.Subject)
	}
	want := []string{"c1", "c2", "c3", "a1", "a2", "m1", "c4", "b1", "m2", "c5"}
	if !slices.Equal(slices.Sorted(slices.Values(inRange)), slices.Sorted(slices.Values(want))) {
		t.Fatalf("range %v, want %v", inRange, want)
	}
	ctx := context.Background()
	nodes, err := r.Graph(ctx, b.Good(), b.Bad())
	if err != nil {
		t.Fatal(err)
	}
	for _, culprit := range want {
		isBad := func(hash string) bool { return ancestors(nodes, hash)[h[culprit]] }
		res := b.Run(ctx, Options{Oracle: (&script{isBad: isBad}).oracle})
		if res.Status != Found || res.Culprit.Hash != h[culprit] {
			t.Errorf("culprit %s: %v, culprit %v", culprit, res.Status, res.Culprit)
		}
		if len(res.Steps) > len(want)+1 {
			t.Errorf("culprit %s: %d steps for %d commits", culprit, len(res.Steps), len(want))
		}
		checkSteps(t, b, res, nil)
	}
	// The oracle's model agrees with git's ancestry.
	for _, x := range want {
		for _, y := range want {
			xc, yc := gitrev.Commit{Hash: h[x]}, gitrev.Commit{Hash: h[y]}
			ok, err := r.IsAncestor(ctx, xc, yc)
			if err != nil {
				t.Fatal(err)
			}
			if ok != ancestors(nodes, h[y])[h[x]] {
				t.Fatalf("IsAncestor(%s, %s) = %v, the graph says otherwise", x, y, ok)
			}
		}
	}
}

func TestRefusals(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a git history: skipped in -short (the full suite runs it)")
	}
	t.Parallel()
	g := gittest.New(t)
	c0 := g.Commit(t, map[string]string{"a": "0"}, "c0")
	c1 := g.Commit(t, map[string]string{"a": "1"}, "c1")
	g.Branch(t, "side", c0)
	s1 := g.Commit(t, map[string]string{"b": "1"}, "s1")
	r, err := gitrev.Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		good, bad string
		is        error
		says      string
	}{
		{"nope", c1, gitrev.ErrUnknownRevision, `good revision: unknown revision "nope"`},
		{c0, "HEAD~7", gitrev.ErrUnknownRevision, `bad revision: unknown revision "HEAD~7"`},
		{s1, c1, ErrNotAncestor, "is not an ancestor of bad"},
		{c1, c0, ErrNotAncestor, "swapped"},
		{c1, c0, ErrSwapped, "swapped"},
		{c1, c1, ErrEmptyRange, "good and bad are both"},
	}
	for _, c := range cases {
		_, err := New(context.Background(), r, c.good, c.bad)
		if !errors.Is(err, c.is) {
			t.Errorf("New(%s, %s): error %v, want %v", c.good, c.bad, err, c.is)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, c.says) || strings.Contains(msg, "\n") {
			t.Errorf("New(%s, %s): error %q, want one line saying %q", c.good, c.bad, msg, c.says)
		}
	}
}

// New reads a repository's range as the in-memory histories of the other
// tests hold it: the commits after good up to bad, oldest first, each
// with its subject, and every one's parent the commit before.
func TestNewReadsTheGraph(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a git history: skipped in -short (the full suite runs it)")
	}
	t.Parallel()
	g := gittest.New(t)
	var hs []string
	for i := range 6 {
		hs = append(hs, g.Commit(t, map[string]string{"n.txt": fmt.Sprint(i)}, fmt.Sprintf("c%d", i)))
	}
	r, err := gitrev.Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(context.Background(), r, hs[1], hs[5])
	if err != nil {
		t.Fatal(err)
	}
	var subjects []string
	for _, c := range b.Commits() {
		subjects = append(subjects, c.Subject)
	}
	if !slices.Equal(hashes(b.Commits()), hs[2:]) || !slices.Equal(subjects, []string{"c2", "c3", "c4", "c5"}) {
		t.Errorf("commits %v (%v), want c2..c5", b.Commits(), subjects)
	}
	if b.Good().Hash != hs[1] || b.Bad().Hash != hs[5] || b.Good().Subject != "c1" {
		t.Errorf("good %v, bad %v; want c1 and c5", b.Good(), b.Bad())
	}
	for i := range b.commits {
		if want := hs[i+1]; b.parent[i].Hash != want {
			t.Errorf("parent of %s is %s, want %s", b.commits[i].Subject, b.parent[i].Hash, want)
		}
	}
}
