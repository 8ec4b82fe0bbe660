package history

import (
	"context"
	"errors"
	"time"

	"github.com/rootbench/rootbench/internal/gitrev"
)

// Commit is a commit as the store knows it.
type Commit struct {
	// Hash is the full commit hash a results file's tool revision gives.
	Hash string
	// Time is the committer time; zero when unknown (the commit was not
	// in the repository of any add that stored it).
	Time time.Time
	// Branch is the branch the commit was measured on; "" when unknown.
	Branch string
}

// Short is the hash's first 7 digits, as git abbreviates it.
func (c Commit) Short() string {
	if len(c.Hash) > 7 {
		return c.Hash[:7]
	}
	return c.Hash
}

// CommitLookup tells Add what is known of a commit: its time and branch
// (found false when it does not know the commit).
type CommitLookup interface {
	LookupCommit(ctx context.Context, hash string) (c Commit, found bool, err error)
}

// GitCommits looks commits up in repo: the committer time, and the branch
// gitrev.Repo.Branch names (the checked-out branch when it holds the
// commit, else main or master, else the first by name). A commit the
// repository does not have is not found.
func GitCommits(repo *gitrev.Repo) CommitLookup { return gitCommits{repo} }

type gitCommits struct{ repo *gitrev.Repo }

func (g gitCommits) LookupCommit(ctx context.Context, hash string) (Commit, bool, error) {
	// Two git commands: the time (which fails for a commit the repository
	// does not have) and the branches.
	c := gitrev.Commit{Hash: hash}
	t, err := g.repo.CommitTime(ctx, c)
	if errors.Is(err, gitrev.ErrUnknownRevision) {
		return Commit{}, false, nil
	}
	if err != nil {
		return Commit{}, false, err
	}
	branch, err := g.repo.Branch(ctx, c)
	if err != nil {
		return Commit{}, false, err
	}
	return Commit{Hash: hash, Time: t, Branch: branch}, true, nil
}
