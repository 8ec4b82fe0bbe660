// Package gitrev names revisions of a git repository and builds them.
//
// A Repo is the enclosing git repository of a directory; its methods resolve
// revisions to commits, answer ancestry questions and read the commit graph
// of a range, all by running the git command (os/exec; no git library). A
// Builder builds the main package of any commit into a binary and keeps it in
// a cache directory keyed by the full commit hash, or builds the working
// tree as it is, uncommitted changes included (see Builder).
//
// Ranges are what git bisect bisects: good..bad is every commit reachable
// from bad and not from good (`git rev-list bad ^good`), merged side branches
// included, not only the ancestry path from good to bad.
//
// The errors a user causes, an unknown revision or a directory outside any
// git repository, wrap ErrUnknownRevision and ErrNotRepository so that a
// caller can report them as bad input.
package gitrev

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// ErrNotRepository is wrapped by Open's error for a directory that is not
// inside the work tree of a git repository.
var ErrNotRepository = errors.New("not a git repository")

// ErrUnknownRevision is wrapped by Resolve's error for a revision that names
// no commit of the repository.
var ErrUnknownRevision = errors.New("unknown revision")

// Repo is a git repository with a work tree. Its methods may be called
// concurrently: each runs its own git processes and Repo holds no mutable
// state.
type Repo struct {
	// Dir is the top directory of the work tree (`git rev-parse
	// --show-toplevel`); it is a linked worktree's own top directory when
	// dir was inside one.
	Dir string
	// commonDir is the directory holding the objects and refs shared by all
	// worktrees (`git rev-parse --git-common-dir`, made absolute).
	commonDir string
}

// Commit is one commit of a repository.
type Commit struct {
	Hash    string // the full hash (40 hex digits, 64 in a SHA-256 repository)
	Short   string // the abbreviated hash git prints (`%h`), unique in the repository
	Subject string // the first line of the message
}

// String returns the commit as `git log --oneline` prints it: short hash and
// subject.
func (c Commit) String() string {
	if c.Subject == "" {
		return c.Short
	}
	return c.Short + " " + c.Subject
}

// SubjectUpTo is the subject cut to at most n characters, ending in "…"
// when cut.
func (c Commit) SubjectUpTo(n int) string { return truncate(c.Subject, n) }

// Node is a commit of a range with its parents' full hashes (all of them,
// including those outside the range).
type Node struct {
	Commit
	Parents []string
}

// Open returns the git repository whose work tree contains dir. A directory
// outside any work tree gives an error wrapping ErrNotRepository that names
// dir; a missing git command gives an error saying so.
func Open(dir string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("open repository %s: %w", dir, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrNotRepository, dir, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%w: %s: not a directory", ErrNotRepository, dir)
	}
	r := &Repo{Dir: abs}
	out, err := r.git(context.Background(), "rev-parse", "--show-toplevel", "--git-common-dir")
	if err != nil {
		var ge *gitError
		if errors.As(err, &ge) {
			return nil, fmt.Errorf("%w: %s", ErrNotRepository, dir)
		}
		return nil, err
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || lines[0] == "" {
		// Inside .git, git answers without a top level.
		return nil, fmt.Errorf("%w: %s", ErrNotRepository, dir)
	}
	r.Dir = lines[0]
	r.commonDir = lines[1]
	if !filepath.IsAbs(r.commonDir) {
		// Relative to where git ran (dir), not to the top level.
		r.commonDir = filepath.Join(abs, r.commonDir)
	}
	return r, nil
}

// Resolve returns the commit that rev names: anything `git rev-parse`
// accepts (a hash or unique prefix, a branch or tag, HEAD~3, ...) that
// designates a commit. A revision that names no commit gives an error
// wrapping ErrUnknownRevision that quotes rev.
func (r *Repo) Resolve(ctx context.Context, rev string) (Commit, error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return Commit{}, fmt.Errorf("%w %q in %s: accepted: a commit hash, branch, tag or other git revision", ErrUnknownRevision, rev, r.Dir)
	}
	out, err := r.git(ctx, "rev-parse", "-q", "--verify", "--end-of-options", rev+"^{commit}")
	if err != nil {
		var ge *gitError
		if errors.As(err, &ge) && ctx.Err() == nil {
			why := ""
			if ge.stderr != "" {
				why = ": " + ge.stderr
			}
			return Commit{}, fmt.Errorf("%w %q in %s%s", ErrUnknownRevision, rev, r.Dir, why)
		}
		return Commit{}, err
	}
	hash := strings.TrimSpace(out)
	out, err = r.git(ctx, "log", "-1", "--no-show-signature", "--format=%H%x1f%h%x1f%s", hash, "--")
	if err != nil {
		return Commit{}, err
	}
	fields := strings.Split(strings.TrimSuffix(out, "\n"), "\x1f")
	if len(fields) != 3 {
		return Commit{}, fmt.Errorf("git log %s: unexpected output %q", hash, out)
	}
	return Commit{Hash: fields[0], Short: fields[1], Subject: fields[2]}, nil
}

// Head returns the commit checked out in the work tree.
func (r *Repo) Head(ctx context.Context) (Commit, error) {
	return r.Resolve(ctx, "HEAD")
}

// FirstParents returns head's first-parent line, oldest first: head, its
// first parent, that commit's first parent, and so on (`git rev-list
// --first-parent`). These are the commits head's branch has pointed at; a
// merge on the line stands for the branch it brought in.
func (r *Repo) FirstParents(ctx context.Context, head Commit) ([]string, error) {
	out, err := r.git(ctx, "rev-list", "--first-parent", "--reverse", head.Hash, "--")
	if err != nil {
		return nil, err
	}
	return strings.Fields(out), nil
}

// IsAncestor reports whether a is an ancestor of b; a commit is its own
// ancestor (`git merge-base --is-ancestor`).
func (r *Repo) IsAncestor(ctx context.Context, a, b Commit) (bool, error) {
	_, err := r.git(ctx, "merge-base", "--is-ancestor", a.Hash, b.Hash)
	if err == nil {
		return true, nil
	}
	var ge *gitError
	if errors.As(err, &ge) && ge.code == 1 && ctx.Err() == nil {
		return false, nil
	}
	return false, err
}

// ChangedDirs returns the directories (relative to the repository's top,
// "." for files at the top) holding the files that differ between from and
// to, sorted, each with its count of changed files: what a bisection's
// reader needs to judge whether a culprit could have made the benchmark
// slower.
func (r *Repo) ChangedDirs(ctx context.Context, from, to Commit) ([]DirChange, error) {
	return r.changedDirs(ctx, from.Hash, to.Hash)
}

// ChangedDirsInWorkTree is ChangedDirs from a commit to the work tree as it
// is (tracked files; an untracked file is not counted).
func (r *Repo) ChangedDirsInWorkTree(ctx context.Context, from Commit) ([]DirChange, error) {
	return r.changedDirs(ctx, from.Hash)
}

// changedDirs runs git diff --name-only over revs and counts the files by
// directory.
func (r *Repo) changedDirs(ctx context.Context, revs ...string) ([]DirChange, error) {
	out, err := r.git(ctx, append([]string{"diff", "--name-only", "--no-renames"}, revs...)...)
	if err != nil {
		return nil, err
	}
	counts := map[string]int{}
	for _, f := range strings.Split(strings.TrimSpace(out), "\n") {
		if f != "" {
			counts[path.Dir(f)]++
		}
	}
	dirs := make([]DirChange, 0, len(counts))
	for d, n := range counts {
		dirs = append(dirs, DirChange{Dir: d, Files: n})
	}
	slices.SortFunc(dirs, func(a, b DirChange) int { return strings.Compare(a.Dir, b.Dir) })
	return dirs, nil
}

// DirChange is a directory and how many of its files a change touches.
type DirChange struct {
	Dir   string
	Files int
}

// DirList is "impls/boxroot (3), docs (1)".
func DirList(dirs []DirChange) string {
	parts := make([]string, len(dirs))
	for i, d := range dirs {
		parts[i] = fmt.Sprintf("%s (%d)", d.Dir, d.Files)
	}
	return strings.Join(parts, ", ")
}

// Range returns the commits of good..bad, the set git bisect searches: the
// commits reachable from bad and not from good, in topological order, oldest
// first (every commit after its parents in the range). It is empty when bad
// is an ancestor of good.
func (r *Repo) Range(ctx context.Context, good, bad Commit) ([]Commit, error) {
	nodes, err := r.Graph(ctx, good, bad)
	if err != nil {
		return nil, err
	}
	cs := make([]Commit, len(nodes))
	for i, n := range nodes {
		cs[i] = n.Commit
	}
	return cs, nil
}

// Graph returns the commits of Range with their parents, read by one
// `git rev-list --topo-order --reverse --parents bad ^good`.
func (r *Repo) Graph(ctx context.Context, good, bad Commit) ([]Node, error) {
	out, err := r.git(ctx, "rev-list", "--topo-order", "--reverse",
		"--format=%H%x1f%P%x1f%h%x1f%s", bad.Hash, "^"+good.Hash, "--")
	if err != nil {
		return nil, err
	}
	var nodes []Node
	for line := range strings.SplitSeq(out, "\n") {
		// rev-list prints a "commit HASH" line before each formatted one;
		// only the formatted lines hold the separator.
		if !strings.Contains(line, "\x1f") {
			continue
		}
		f := strings.SplitN(line, "\x1f", 4)
		if len(f) != 4 {
			return nil, fmt.Errorf("git rev-list %s..%s: unexpected line %q", good.Short, bad.Short, line)
		}
		nodes = append(nodes, Node{
			Commit:  Commit{Hash: f[0], Short: f[2], Subject: f[3]},
			Parents: strings.Fields(f[1]),
		})
	}
	return nodes, nil
}

// Dirty reports whether the work tree differs from HEAD: a modified, added,
// deleted or untracked (not ignored) file, which is what the Go command
// stamps as vcs.modified (`git status --porcelain` prints anything).
func (r *Repo) Dirty(ctx context.Context) (bool, error) {
	out, err := r.git(ctx, "status", "--porcelain")
	if err != nil {
		return false, err
	}
	return out != "", nil
}

// gitError is a git command that ran and exited with a non-zero status.
type gitError struct {
	args   []string
	code   int
	stderr string // its first line
}

func (e *gitError) Error() string {
	msg := fmt.Sprintf("git %s: exit status %d", strings.Join(e.args, " "), e.code)
	if e.stderr != "" {
		msg += ": " + e.stderr
	}
	return msg
}

// git runs git with args in r.Dir and returns its standard output.
func (r *Repo) git(ctx context.Context, args ...string) (string, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = r.Dir
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	cmd.Env = append(os.Environ(),
		"GIT_TERMINAL_PROMPT=0",
		// status refreshes the index only when it can; never contend with
		// the user's own git commands for index.lock.
		"GIT_OPTIONAL_LOCKS=0",
	)
	err := cmd.Run()
	if err == nil {
		return stdout.String(), nil
	}
	if ctx.Err() != nil {
		return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), ctx.Err())
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return "", &gitError{args: args, code: ee.ExitCode(), stderr: firstLine(stderr.String())}
	}
	if errors.Is(err, exec.ErrNotFound) {
		return "", fmt.Errorf("git is needed and was not found on PATH: %w", err)
	}
	return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
}

// firstLine returns s's first non-empty line, trimmed.
func firstLine(s string) string {
	for line := range strings.SplitSeq(s, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			return line
		}
	}
	return ""
}
