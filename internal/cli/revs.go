package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rootbench/rootbench/internal/absession"
	"github.com/rootbench/rootbench/internal/gitrev"
)

// A build side given by revision (`ab --base-rev`, `bisect`): resolved
// before anything builds, so that an unknown revision or a directory that
// is not a git repository is refused with one line (exit 2); built when the
// session starts, cached by commit.

// revSide is one side of a session given as a git revision, or the work
// tree as it is (rev "" with workTree).
type revSide struct {
	flag     string // the flag that named it, for messages
	rev      string
	workTree bool
	commit   gitrev.Commit
}

// openRepo opens the git repository enclosing dir, as a usage error when
// there is none.
func openRepo(dir string) (*gitrev.Repo, error) {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	repo, err := gitrev.Open(dir)
	if err != nil {
		if errors.Is(err, gitrev.ErrNotRepository) {
			return nil, fmt.Errorf("%s is not inside a git repository: revisions can only be built from one (use --repo DIR, or --base PATH with a built binary)", dir)
		}
		return nil, err
	}
	return repo, nil
}

// resolve finds the side's commit; an unknown revision is one line naming
// the flag.
func (s *revSide) resolve(ctx context.Context, repo *gitrev.Repo) error {
	var err error
	if s.workTree {
		s.commit, err = repo.Head(ctx)
	} else {
		s.commit, err = repo.Resolve(ctx, s.rev)
	}
	if err != nil {
		if errors.Is(err, gitrev.ErrUnknownRevision) {
			return fmt.Errorf("%s %s: unknown revision in %s (accepted: anything git rev-parse takes: a hash, a branch, a tag, HEAD~3)", s.flag, s.rev, repo.Dir)
		}
		return fmt.Errorf("%s %s: %w", s.flag, s.rev, err)
	}
	return nil
}

// spec is the side as the session runner builds it; nil for a side given
// as a binary (s nil).
func (s *revSide) spec() *absession.Rev {
	if s == nil {
		return nil
	}
	return &absession.Rev{Commit: s.commit, WorkTree: s.workTree}
}

// buildPackage returns the main package to build from the repository's
// revisions: flag (--package) when given, which must be a directory of the
// work tree below its top; else gitrev.DefaultPackage when the work tree has
// it (rootbench's own repository), else "." (a program of your own at the
// top of its repository).
func buildPackage(repo *gitrev.Repo, flag string) (string, error) {
	if flag == "" {
		if isDir(filepath.Join(repo.Dir, filepath.FromSlash(gitrev.DefaultPackage))) {
			return gitrev.DefaultPackage, nil
		}
		return ".", nil
	}
	rel := filepath.Clean(filepath.FromSlash(flag))
	if filepath.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || !isDir(filepath.Join(repo.Dir, rel)) {
		return "", fmt.Errorf("--package %s: not a directory below %s (accepted: a main package's directory relative to the repository's top, e.g. ./cmd/rootbench, ./examples/owncell or .)", flag, repo.Dir)
	}
	if rel == "." {
		return ".", nil
	}
	return "./" + filepath.ToSlash(rel), nil
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
