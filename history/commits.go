package history

import (
	"context"
	"errors"
	"fmt"
	"strings"
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

// ErrAmbiguousCommit is wrapped by FindCommit's error when a prefix names
// several stored commits.
var ErrAmbiguousCommit = errors.New("ambiguous commit prefix")

// FindCommit returns the stored commit whose hash starts with prefix (hex
// digits, as git abbreviates a hash); found is false when no stored commit
// does, and several are an error wrapping ErrAmbiguousCommit.
func (s *Store) FindCommit(ctx context.Context, prefix string) (c Commit, found bool, err error) {
	prefix = strings.ToLower(strings.TrimSpace(prefix))
	if prefix == "" || strings.Trim(prefix, "0123456789abcdef") != "" {
		return Commit{}, false, nil
	}
	rows, err := s.db.QueryContext(ctx, "SELECT id FROM commits WHERE substr(hash, 1, ?) = ? LIMIT 2", len(prefix), prefix)
	if err != nil {
		return Commit{}, false, s.wrap(err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return Commit{}, false, s.wrap(err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	switch {
	case rows.Err() != nil:
		return Commit{}, false, s.wrap(rows.Err())
	case len(ids) == 0:
		return Commit{}, false, nil
	case len(ids) > 1:
		return Commit{}, false, fmt.Errorf("%w: %s names several commits of history store %s", ErrAmbiguousCommit, prefix, s.path)
	}
	c, err = readCommit(ctx, s.db, ids[0])
	return c, err == nil, s.wrap(err)
}
