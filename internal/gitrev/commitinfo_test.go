package gitrev_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rootbench/rootbench/internal/gitrev"
	"github.com/rootbench/rootbench/internal/gitrev/gittest"
)

func TestCommitTime(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a git history: skipped in -short (the full suite runs it)")
	}
	t.Parallel()
	g := gittest.New(t)
	g.Commit(t, nil, "one")
	g.Commit(t, nil, "two")
	r := open(t, g.Dir)
	one, two := resolve(t, r, "HEAD~1"), resolve(t, r, "HEAD")
	t1, err1 := r.CommitTime(context.Background(), one)
	t2, err2 := r.CommitTime(context.Background(), two)
	if err1 != nil || err2 != nil || t2.Sub(t1) != time.Minute {
		t.Errorf("CommitTime: %v, %v and %v, %v: want two times one minute apart (gittest's dates)", t1, err1, t2, err2)
	}
	missing := gitrev.Commit{Hash: strings.Repeat("0", 40)}
	if _, err := r.CommitTime(context.Background(), missing); !errors.Is(err, gitrev.ErrUnknownRevision) {
		t.Errorf("CommitTime of a commit the repository lacks: %v; want ErrUnknownRevision", err)
	}
}

// Branch prefers the checked-out branch, then main, then the first by name,
// and says "" for a commit on no local branch.
func TestBranch(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a git history with branches: skipped in -short (the full suite runs it)")
	}
	t.Parallel()
	g := gittest.New(t)
	base := g.Commit(t, nil, "base")
	g.Branch(t, "zeta", "main")
	side := g.Commit(t, nil, "side")
	g.Branch(t, "alpha", "zeta")
	r := open(t, g.Dir)
	check := func(what, rev, want string) {
		t.Helper()
		got, err := r.Branch(context.Background(), resolve(t, r, rev))
		if err != nil || got != want {
			t.Errorf("%s: Branch(%s) = %q, %v; want %q", what, rev, got, err, want)
		}
	}
	check("the checked-out branch contains it", base, "alpha")
	g.Checkout(t, "main")
	check("main contains it", base, "main")
	check("two branches contain it, neither checked out nor main", side, "alpha")
	g.Checkout(t, side)
	g.Git(t, "branch", "-D", "alpha", "zeta")
	check("only a detached head holds it", side, "")
}

// Subjects names the commits the repository has and leaves out the
// others, in one call whatever their number.
func TestSubjects(t *testing.T) {
	t.Parallel()
	g := gittest.New(t)
	one := g.Commit(t, nil, "one: the first")
	two := g.Commit(t, nil, "two")
	r := open(t, g.Dir)
	got, err := r.Subjects(context.Background(), []string{two, strings.Repeat("0", 40), one})
	if err != nil || len(got) != 2 || got[one] != "one: the first" || got[two] != "two" {
		t.Errorf("Subjects: %v, %v; want the two commits' subjects", got, err)
	}
	if got, err := r.Subjects(context.Background(), nil); err != nil || len(got) != 0 {
		t.Errorf("Subjects(nil): %v, %v", got, err)
	}
}
