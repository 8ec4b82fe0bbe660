package history

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/rootbench/rootbench/history/series"
	"github.com/rootbench/rootbench/internal/gitrev"
)

// CommitLookup tells Add what is known of a commit: its time and branch
// (found false when it does not know the commit).
type CommitLookup interface {
	LookupCommit(ctx context.Context, hash string) (c series.Commit, found bool, err error)
}

// GitCommits looks commits up in repo: the committer time, and the branch
// gitrev.Repo.Branch names (the checked-out branch when it holds the
// commit, else main or master, else the first by name). A commit the
// repository does not have is not found.
func GitCommits(repo *gitrev.Repo) CommitLookup { return gitCommits{repo} }

type gitCommits struct{ repo *gitrev.Repo }

func (g gitCommits) LookupCommit(ctx context.Context, hash string) (series.Commit, bool, error) {
	// Two git commands: the time (which fails for a commit the repository
	// does not have) and the branches.
	c := gitrev.Commit{Hash: hash}
	t, err := g.repo.CommitTime(ctx, c)
	if errors.Is(err, gitrev.ErrUnknownRevision) {
		return series.Commit{}, false, nil
	}
	if err != nil {
		return series.Commit{}, false, err
	}
	branch, err := g.repo.Branch(ctx, c)
	if err != nil {
		return series.Commit{}, false, err
	}
	return series.Commit{Hash: hash, Time: t, Branch: branch}, true, nil
}

// ErrAmbiguousCommit is wrapped by FindCommit's error when a prefix names
// several stored commits.
var ErrAmbiguousCommit = errors.New("ambiguous commit prefix")

// FindCommit returns the stored commit whose hash starts with prefix (hex
// digits, as git abbreviates a hash); found is false when no stored commit
// does, and several are an error wrapping ErrAmbiguousCommit.
func (s *Store) FindCommit(ctx context.Context, prefix string) (c series.Commit, found bool, err error) {
	prefix = strings.ToLower(strings.TrimSpace(prefix))
	if prefix == "" || strings.Trim(prefix, "0123456789abcdef") != "" {
		return series.Commit{}, false, nil
	}
	rows, err := s.db.QueryContext(ctx, "SELECT id FROM commits WHERE substr(hash, 1, ?) = ? LIMIT 2", len(prefix), prefix)
	if err != nil {
		return series.Commit{}, false, s.wrap(err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return series.Commit{}, false, s.wrap(err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	switch {
	case rows.Err() != nil:
		return series.Commit{}, false, s.wrap(rows.Err())
	case len(ids) == 0:
		return series.Commit{}, false, nil
	case len(ids) > 1:
		return series.Commit{}, false, fmt.Errorf("%w: %s names several commits of history store %s", ErrAmbiguousCommit, prefix, s.path)
	}
	c, err = readCommit(ctx, s.db, ids[0])
	return c, err == nil, s.wrap(err)
}
