package history_test

import (
	"context"
	"testing"

	"github.com/rootbench/rootbench/history"
	"github.com/rootbench/rootbench/internal/gitrev"
	"github.com/rootbench/rootbench/internal/gitrev/gittest"
)

// GitCommits knows a commit of the repository (its committer time and
// branch) and not one outside it.
func TestGitCommits(t *testing.T) {
	t.Parallel()
	g := gittest.New(t)
	g.Commit(t, nil, "one")
	two := g.Commit(t, nil, "two")
	repo, err := gitrev.Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	head, err := repo.Head(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want, err := repo.CommitTime(context.Background(), head)
	if err != nil {
		t.Fatal(err)
	}
	lookup := history.GitCommits(repo)
	c, found, err := lookup.LookupCommit(context.Background(), two)
	if err != nil || !found || c.Branch != "main" || !c.Time.Equal(want) || c.Hash != two {
		t.Errorf("LookupCommit(two) = %+v, %v, %v; want main at %v", c, found, err, want)
	}
	if c, found, err := lookup.LookupCommit(context.Background(), rev(7)); err != nil || found {
		t.Errorf("LookupCommit(a commit of no repository) = %+v, %v, %v; want not found", c, found, err)
	}
}
