package gitrev

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/rootbench/rootbench/harness/procgroup"
)

// DefaultPackage is the package a Builder builds when Package is empty.
const DefaultPackage = "./cmd/rootbench"

// outputTailLines is how many of the compiler's last lines a BuildError keeps.
const outputTailLines = 20

// Builder builds the main package of a repository's commits, or of its work
// tree, into binaries kept in a cache directory.
//
// A commit is built in a temporary clone (`git clone --shared`, which shares
// the repository's objects, then a detached checkout of the commit) that is
// removed afterwards, with `go build -trimpath -buildvcs=true` and
// GOTOOLCHAIN=local, so that the binary carries vcs.revision and
// vcs.modified=false (the Go command stamps nothing inside a linked
// worktree, golang/go#58218) and is built by the local Go whatever the
// commit's go.mod asks for.
//
// Cache. Entries no Build has used for 14 days are removed (by the next
// Builder that prepares the directory). A binary is cached under the
// commit's full hash and a key of everything else that shapes it: Package,
// Tags, Env, the Go version and target (`go env`) and the build recipe. It
// is written to a temporary directory inside the cache directory and renamed
// into place, so a build that is killed, or two builds of one commit running
// at once (in one process or several), never leave a partial binary under
// the final name: a file under a final name is always a whole binary. A
// build that fails leaves a marker (NAME.failed, holding the compiler's last
// lines), and the next Build of that commit returns the same *BuildError
// without building again unless RetryFailed is set. A build stopped by a
// signal (an interruption, the OOM killer) or a cancelled context is not
// remembered; a failure outside the commit that the Go command reports as an
// ordinary error (a module download without network) is, until RetryFailed.
//
// A Builder may be used concurrently once its fields are set; it must not be
// copied after first use.
type Builder struct {
	// Repo is the repository whose commits are built. Required.
	Repo *Repo
	// Package is the main package to build, relative to the repository's
	// top directory; DefaultPackage when empty. A package inside a nested
	// module (a directory below the top with its own go.mod, such as
	// ./examples/owncell) is built from that module's directory.
	Package string
	// Tags are build tags (go build -tags).
	Tags []string
	// Env holds extra environment variables (KEY=VALUE) for the Go command,
	// after the process's own and GOTOOLCHAIN=local, so they win.
	Env []string
	// CacheDir is the cache directory; DefaultCacheDir() when empty.
	CacheDir string
	// Progress, when not nil, receives a line while a build runs: redrawn
	// in place each second when it is a terminal, else one line at the start
	// and one at the end.
	Progress io.Writer
	// RetryFailed builds a commit again even when an earlier build of it
	// failed (its failure marker is ignored, and removed if it now builds).
	RetryFailed bool

	mu  sync.Mutex // guards key
	key string     // digest of the build configuration once known; see configKey
}

// Binary is a built binary.
type Binary struct {
	// Path is the binary's absolute path, in the cache directory. The file
	// is never rewritten while it exists; callers must not modify it.
	Path string
	// Commit is the commit built, or HEAD for a modified work tree.
	Commit Commit
	// Modified reports a build of a work tree with uncommitted changes to
	// Commit (see BuildWorkTree). Such a binary carries vcs.modified=true
	// only when the work tree was a repository's main worktree; callers
	// should show Modified, not read it from the binary.
	Modified bool
	// Cached reports that the binary came from the cache, not a build.
	Cached bool
}

// BuildError is a build that ran and failed: the commit does not build with
// this Go and configuration. Callers such as bisect treat it as
// "unbuildable" and go on; other errors (git or go missing, a cancelled
// context, a full disk) are not BuildErrors.
type BuildError struct {
	Commit   Commit
	Modified bool   // the work tree with uncommitted changes, not Commit itself
	Output   string // the compiler's last lines (up to 20)
	Cached   bool   // an earlier failure, remembered in the cache; not built again
}

func (e *BuildError) Error() string {
	what := e.Commit.String()
	if e.Modified {
		what = "the modified work tree at " + what
	}
	msg := "cannot build " + what
	if e.Cached {
		msg += " (failed before; cached)"
	}
	if last := lastLine(e.Output); last != "" {
		msg += ": " + last
	}
	return msg
}

// Build returns a binary of c's Package: from the cache, or built in a
// temporary clone and cached. A commit that does not build gives a
// *BuildError (see Builder for the cached failure).
func (b *Builder) Build(ctx context.Context, c Commit) (*Binary, error) {
	if c.Hash == "" {
		return nil, errors.New("build: no commit given")
	}
	dir, key, err := b.prepare(ctx)
	if err != nil {
		return nil, err
	}
	final := filepath.Join(dir, c.Hash+"-"+key)
	if fileExists(final) {
		touch(final)
		return &Binary{Path: final, Commit: c, Cached: true}, nil
	}
	failed := final + ".failed"
	if !b.RetryFailed {
		if out, err := os.ReadFile(failed); err == nil {
			touch(failed)
			return nil, &BuildError{Commit: c, Output: string(out), Cached: true}
		}
	}

	tmp, err := os.MkdirTemp(dir, ".tmp-"+c.Short+"-")
	if err != nil {
		return nil, fmt.Errorf("build %s: %w", c.Short, err)
	}
	defer os.RemoveAll(tmp)
	p := startProgress(b.Progress, c, false)
	src := filepath.Join(tmp, "src")
	err = b.checkout(ctx, c, src)
	if err == nil {
		err = b.goBuild(ctx, src, "-buildvcs=true", filepath.Join(tmp, "bin"), final)
	}
	p.finish(err)
	var be *BuildError
	if errors.As(err, &be) {
		// The temporary clone is gone: name its files as the commit's.
		be.Commit, be.Output = c, strings.ReplaceAll(be.Output, src, ".")
		if werr := writeAtomic(dir, failed, []byte(be.Output)); werr != nil {
			return nil, errors.Join(err, werr)
		}
		return nil, err
	}
	if err != nil {
		return nil, err
	}
	if err := os.Remove(failed); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("build %s: remove the old failure marker: %w", c.Short, err)
	}
	return &Binary{Path: final, Commit: c}, nil
}

// BuildWorkTree returns a binary of the work tree as it is. A clean work
// tree is HEAD: it is Build(HEAD). A work tree with uncommitted changes (see
// Repo.Dirty) is built in place and marked Modified; it is cached under
// HEAD's hash and a digest of the changes (`git diff HEAD` and the untracked
// files' names and contents), never under the commit's own key, and a
// failure is not remembered. A file changed while the build runs may be in
// the binary and not in the digest.
func (b *Builder) BuildWorkTree(ctx context.Context) (*Binary, error) {
	if b.Repo == nil {
		return nil, errors.New("build: Builder.Repo is nil")
	}
	head, err := b.Repo.Head(ctx)
	if err != nil {
		return nil, err
	}
	dirty, err := b.Repo.Dirty(ctx)
	if err != nil {
		return nil, err
	}
	if !dirty {
		return b.Build(ctx, head)
	}
	dir, key, err := b.prepare(ctx)
	if err != nil {
		return nil, err
	}
	changes, err := b.Repo.changesDigest(ctx)
	if err != nil {
		return nil, err
	}
	final := filepath.Join(dir, head.Hash+"-"+key+"-modified-"+changes)
	if fileExists(final) {
		touch(final)
		return &Binary{Path: final, Commit: head, Modified: true, Cached: true}, nil
	}
	tmp, err := os.MkdirTemp(dir, ".tmp-"+head.Short+"-modified-")
	if err != nil {
		return nil, fmt.Errorf("build the work tree: %w", err)
	}
	defer os.RemoveAll(tmp)
	p := startProgress(b.Progress, head, true)
	// -buildvcs=auto: stamped (vcs.modified=true) in a main worktree;
	// inside a linked worktree the Go command stamps nothing.
	err = b.goBuild(ctx, b.Repo.Dir, "-buildvcs=auto", filepath.Join(tmp, "bin"), final)
	p.finish(err)
	if err != nil {
		var be *BuildError
		if errors.As(err, &be) {
			be.Commit, be.Modified = head, true
		}
		return nil, err
	}
	return &Binary{Path: final, Commit: head, Modified: true}, nil
}

func (b *Builder) pkg() string {
	if b.Package == "" {
		return DefaultPackage
	}
	return b.Package
}

// env is the Go command's environment: the process's, GOTOOLCHAIN=local,
// then b.Env.
func (b *Builder) env() []string {
	env := append(os.Environ(), "GOTOOLCHAIN=local")
	return append(env, b.Env...)
}

// checkout makes dst a clone of the repository sharing its objects, with c
// checked out (detached). The objects of every commit are reachable through
// the shared object store, so c need not be on a branch.
func (b *Builder) checkout(ctx context.Context, c Commit, dst string) error {
	if _, err := b.Repo.git(ctx, "clone", "-q", "--shared", "--no-checkout", b.Repo.commonDir, dst); err != nil {
		return fmt.Errorf("build %s: %w", c.Short, err)
	}
	src := &Repo{Dir: dst}
	if _, err := src.git(ctx, "-c", "advice.detachedHead=false", "checkout", "-q", "--detach", c.Hash, "--"); err != nil {
		return fmt.Errorf("build %s: %w", c.Short, err)
	}
	return nil
}

// goBuild runs go build in dir with the vcs flag, writing the binary to tmp
// and renaming it to final. A build that exits non-zero, the context not
// cancelled, gives a *BuildError.
func (b *Builder) goBuild(ctx context.Context, dir, vcs, tmp, final string) error {
	args := []string{"build", "-trimpath", vcs, "-o", tmp}
	if len(b.Tags) > 0 {
		args = append(args, "-tags", strings.Join(b.Tags, ","))
	}
	modDir, pkg := moduleDir(dir, b.pkg())
	args = append(args, pkg)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = modDir
	cmd.Env = b.env()
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	// The Go command leads its own process group, so that a terminal's
	// SIGINT reaches only the caller (which cancels ctx) and a cancellation
	// kills the compiler and linker too: an interrupted build must not be
	// remembered as a failure of the commit.
	procgroup.Own(cmd, 10*time.Second)
	err := cmd.Run()
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("go build: %w", ctx.Err())
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return buildFailure(ee, out.String())
		}
		return fmt.Errorf("go build: %w", err)
	}
	if err := os.Rename(tmp, final); err != nil {
		return fmt.Errorf("go build: move the binary into the cache: %w", err)
	}
	return nil
}

// moduleDir returns where to run go build for pkg, a directory relative to
// top: the innermost directory from pkg's up to (not including) top that
// holds a go.mod, with pkg relative to it; else top and pkg as given.
func moduleDir(top, pkg string) (dir, arg string) {
	rel := filepath.Clean(filepath.FromSlash(pkg))
	if filepath.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return top, pkg
	}
	for d := rel; d != "." && d != filepath.Dir(d); d = filepath.Dir(d) {
		if fileExists(filepath.Join(top, d, "go.mod")) {
			sub, err := filepath.Rel(d, rel)
			if err != nil {
				return top, pkg
			}
			return filepath.Join(top, d), "./" + filepath.ToSlash(sub)
		}
	}
	return top, pkg
}

// killedTool matches the Go command's report of a compiler or linker that
// a signal ended ("signal: killed" after an OOM kill, say).
var killedTool = regexp.MustCompile(`(?m)signal: (killed|interrupt|terminated|hangup|segmentation fault)$`)

// buildFailure classifies a Go command that exited non-zero with output
// out: a *BuildError when the commit failed to build, a plain error when a
// signal ended the Go command or one of its tools, which says nothing about
// the commit and must not be remembered.
func buildFailure(ee *exec.ExitError, out string) error {
	if ee.ExitCode() < 0 || killedTool.MatchString(out) {
		return fmt.Errorf("go build was stopped by a signal (%v): %s", ee, lastLine(out))
	}
	return &BuildError{Output: tail(out, outputTailLines)}
}

// changesDigest digests the work tree's differences from HEAD: `git diff
// HEAD --binary` and each untracked, not ignored, file's name and contents.
func (r *Repo) changesDigest(ctx context.Context) (string, error) {
	diff, err := r.git(ctx, "diff", "HEAD", "--binary", "--no-ext-diff", "--no-textconv", "--no-color")
	if err != nil {
		return "", err
	}
	others, err := r.git(ctx, "ls-files", "-z", "--others", "--exclude-standard")
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "%d:%s\n", len(diff), diff)
	for name := range strings.SplitSeq(others, "\x00") {
		if name == "" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(r.Dir, name))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("digest the work tree's changes: %w", err)
		}
		fmt.Fprintf(h, "%d:%s\n%d:%s\n", len(name), name, len(data), data)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// tail returns s's last n lines.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// lastLine returns s's last non-empty line, trimmed.
func lastLine(s string) string {
	lines := strings.Split(s, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			return l
		}
	}
	return ""
}
