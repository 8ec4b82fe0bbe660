package gitrev_test

import (
	"bytes"
	"context"
	"debug/buildinfo"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rootbench/rootbench/internal/gitrev"
	"github.com/rootbench/rootbench/internal/gitrev/gittest"
)

// buildTestRepo starts a test that builds revisions with the go command: it
// skips in -short (the full suite runs it), runs in parallel, and returns a
// temporary repository.
func buildTestRepo(t *testing.T) *gittest.Repo {
	t.Helper()
	if testing.Short() {
		t.Skip("builds revisions with go build: skipped in -short (the full suite runs it)")
	}
	t.Parallel()
	return gittest.New(t)
}

// output runs the binary and returns what it printed, trimmed.
func output(t *testing.T, b *gitrev.Binary) string {
	t.Helper()
	out, err := exec.Command(b.Path).Output()
	if err != nil {
		t.Fatalf("run %s: %v", b.Path, err)
	}
	return strings.TrimSpace(string(out))
}

// vcs returns the binary's vcs.revision and vcs.modified settings.
func vcs(t *testing.T, path string) (rev, modified string) {
	t.Helper()
	bi, err := buildinfo.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	return rev, modified
}

// builder builds g's main package into a fresh cache, writing progress to
// progress unless it is nil.
func builder(t *testing.T, g *gittest.Repo, progress *bytes.Buffer) *gitrev.Builder {
	b := &gitrev.Builder{Repo: open(t, g.Dir), Package: ".", CacheDir: t.TempDir()}
	if progress != nil {
		b.Progress = progress
	}
	return b
}

// tempLeftovers lists the cache directory's temporary files.
func tempLeftovers(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, ".tmp-*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestBuildCachesByCommit(t *testing.T) {
	g := buildTestRepo(t)
	h1 := g.Commit(t, gittest.Program(gittest.Prints("one")), "one: the first program")
	h2 := g.Commit(t, gittest.Program(gittest.Prints("two")), "two")
	var progress bytes.Buffer
	b := builder(t, g, &progress)
	ctx := context.Background()
	c1 := resolve(t, b.Repo, h1)

	bin, err := b.Build(ctx, c1)
	if err != nil {
		t.Fatal(err)
	}
	if bin.Cached || bin.Modified || bin.Commit != c1 || !strings.HasPrefix(filepath.Base(bin.Path), h1) {
		t.Errorf("first build: %+v", bin)
	}
	if got := output(t, bin); got != "one" {
		t.Errorf("binary of %s prints %q, want one", c1.Short, got)
	}
	if rev, mod := vcs(t, bin.Path); rev != h1 || mod != "false" {
		t.Errorf("binary stamped vcs.revision=%q vcs.modified=%q, want %s and false", rev, mod, h1)
	}
	if p := progress.String(); !strings.Contains(p, "building "+c1.Short+" (one: the first program)") || !strings.Contains(p, "built in") {
		t.Errorf("progress %q: want the commit, its subject and the end", p)
	}

	progress.Reset()
	again, err := b.Build(ctx, c1)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Cached || again.Path != bin.Path {
		t.Errorf("second build of %s: %+v, want the cached %s", c1.Short, again, bin.Path)
	}
	if progress.Len() != 0 {
		t.Errorf("a cache hit printed progress %q", progress.String())
	}

	// Another build configuration is another cache entry.
	tagged := &gitrev.Builder{Repo: b.Repo, Package: ".", CacheDir: b.CacheDir, Tags: []string{"sometag"}}
	tb, err := tagged.Build(ctx, c1)
	if err != nil {
		t.Fatal(err)
	}
	if tb.Cached || tb.Path == bin.Path {
		t.Errorf("build with tags reused the untagged binary: %+v", tb)
	}

	bin2, err := b.Build(ctx, resolve(t, b.Repo, h2))
	if err != nil {
		t.Fatal(err)
	}
	if got := output(t, bin2); got != "two" || bin2.Path == bin.Path {
		t.Errorf("binary of the second commit prints %q at %s", got, bin2.Path)
	}
	if left := tempLeftovers(t, b.CacheDir); len(left) != 0 {
		t.Errorf("temporary files left in the cache: %v", left)
	}
	// The clone is gone: no worktree or remote was added to the repository.
	if wt := g.Git(t, "worktree", "list"); strings.Count(wt, "\n") != 0 {
		t.Errorf("worktrees after builds:\n%s", wt)
	}
}

func TestBuildUnbuildable(t *testing.T) {
	g := buildTestRepo(t)
	h := g.Commit(t, gittest.Program("package main\n\nfunc main() { undefinedName() }\n"), "broken")
	var progress bytes.Buffer
	b := builder(t, g, &progress)
	ctx := context.Background()
	c := resolve(t, b.Repo, h)

	_, err := b.Build(ctx, c)
	var be *gitrev.BuildError
	if !errors.As(err, &be) {
		t.Fatalf("Build of a broken commit: error %v, want a *BuildError", err)
	}
	if be.Commit != c || be.Cached || !strings.Contains(be.Output, "undefined: undefinedName") {
		t.Errorf("BuildError %+v: want the commit and the compiler's message", be)
	}
	if msg := err.Error(); !strings.Contains(msg, c.Short) || strings.Contains(msg, "\n") {
		t.Errorf("error %q: want one line naming %s", msg, c.Short)
	}
	if !strings.Contains(progress.String(), "failed after") {
		t.Errorf("progress %q does not say the build failed", progress.String())
	}

	progress.Reset()
	_, err = b.Build(ctx, c)
	if !errors.As(err, &be) || !be.Cached || !strings.Contains(be.Output, "undefinedName") {
		t.Errorf("second Build: error %v, want the cached *BuildError", err)
	}
	if progress.Len() != 0 {
		t.Errorf("a cached failure built again: %q", progress.String())
	}

	b.RetryFailed = true
	_, err = b.Build(ctx, c)
	if !errors.As(err, &be) || be.Cached {
		t.Errorf("Build with RetryFailed: error %v, want a fresh *BuildError", err)
	}
	if !strings.Contains(progress.String(), "building") {
		t.Errorf("RetryFailed did not build: progress %q", progress.String())
	}

	// A package missing from the commit is unbuildable too, not a failure
	// of the builder.
	b.Package = "./cmd/absent"
	if _, err := b.Build(ctx, c); !errors.As(err, &be) || strings.Contains(be.Output, b.CacheDir) || !strings.Contains(be.Output, "./cmd/absent") {
		t.Errorf("Build of a missing package: error %v, want a *BuildError naming ./cmd/absent and no temporary directory", err)
	}
	if left := tempLeftovers(t, b.CacheDir); len(left) != 0 {
		t.Errorf("temporary files left in the cache: %v", left)
	}
}

// A package of a nested module (its own go.mod below the top) builds, from
// a commit and from the modified work tree.
func TestBuildNestedModule(t *testing.T) {
	g := buildTestRepo(t)
	files := gittest.Program(gittest.Prints("top"))
	files["tool/go.mod"] = "module example.com/tool\n\ngo 1.22\n"
	files["tool/main.go"] = gittest.Prints("nested")
	h := g.Commit(t, files, "a nested module")
	b := builder(t, g, nil)
	b.Package = "./tool"
	ctx := context.Background()
	bin, err := b.Build(ctx, resolve(t, b.Repo, h))
	if err != nil || output(t, bin) != "nested" {
		t.Fatalf("Build of ./tool = %+v, %v; want the nested module's program", bin, err)
	}
	g.Write(t, map[string]string{"tool/main.go": gittest.Prints("changed")})
	bin, err = b.BuildWorkTree(ctx)
	if err != nil || !bin.Modified || output(t, bin) != "changed" {
		t.Fatalf("BuildWorkTree of ./tool = %+v, %v; want the changed program", bin, err)
	}
}

// A repository opened from a subdirectory builds its commits: git names
// the common directory relative to that subdirectory.
func TestBuildFromASubdirectory(t *testing.T) {
	g := buildTestRepo(t)
	files := gittest.Program(gittest.Prints("from below"))
	files["sub/deeper/notes.txt"] = "a directory to open the repository from\n"
	h := g.Commit(t, files, "one")
	b := &gitrev.Builder{Repo: open(t, filepath.Join(g.Dir, "sub", "deeper")), Package: ".", CacheDir: t.TempDir()}
	bin, err := b.Build(context.Background(), resolve(t, b.Repo, h))
	if err != nil || output(t, bin) != "from below" {
		t.Fatalf("Build from a subdirectory = %+v, %v", bin, err)
	}
}

func TestBuildWorkTree(t *testing.T) {
	g := buildTestRepo(t)
	h := g.Commit(t, gittest.Program(gittest.Prints("committed")), "one")
	var progress bytes.Buffer
	b := builder(t, g, &progress)
	ctx := context.Background()

	clean, err := b.BuildWorkTree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if clean.Modified || clean.Commit.Hash != h || output(t, clean) != "committed" {
		t.Errorf("clean work tree: %+v", clean)
	}
	byCommit, err := b.Build(ctx, clean.Commit)
	if err != nil || !byCommit.Cached || byCommit.Path != clean.Path {
		t.Errorf("Build(HEAD) after BuildWorkTree of a clean tree = %+v, %v; want its cached binary", byCommit, err)
	}

	g.Write(t, map[string]string{"main.go": gittest.Prints("edited")})
	mod, err := b.BuildWorkTree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !mod.Modified || mod.Cached || mod.Commit.Hash != h || output(t, mod) != "edited" {
		t.Errorf("modified work tree: %+v", mod)
	}
	if _, m := vcs(t, mod.Path); m != "true" {
		t.Errorf("binary of a modified tree stamped vcs.modified=%q, want true", m)
	}
	if !strings.Contains(progress.String(), "modified work tree at "+clean.Commit.Short) {
		t.Errorf("progress %q does not say the tree is modified", progress.String())
	}
	// The commit's own cache entry is untouched.
	if output(t, clean) != "committed" {
		t.Error("the modified build overwrote the commit's binary")
	}

	again, err := b.BuildWorkTree(ctx)
	if err != nil || !again.Cached || again.Path != mod.Path {
		t.Errorf("same changes again: %+v, %v; want the cached %s", again, err, mod.Path)
	}

	// An untracked file is a change: another binary.
	g.Write(t, map[string]string{"extra.go": "package main\n\nfunc init() { println(\"extra\") }\n"})
	withExtra, err := b.BuildWorkTree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if withExtra.Cached || withExtra.Path == mod.Path {
		t.Errorf("an untracked source file reused the earlier binary: %+v", withExtra)
	}

	g.Write(t, map[string]string{"extra.go": "package main\n\nfunc init() { broken }\n"})
	_, err = b.BuildWorkTree(ctx)
	var be *gitrev.BuildError
	if !errors.As(err, &be) || !be.Modified || be.Commit.Hash != h {
		t.Errorf("broken work tree: error %v, want a *BuildError marked Modified", err)
	}
}

// Builds of one commit running at once, in separate Builders sharing a
// cache (as separate processes would), all succeed and leave one whole
// binary and no temporary file.
func TestBuildConcurrent(t *testing.T) {
	g := buildTestRepo(t)
	h := g.Commit(t, gittest.Program(gittest.Prints("one")), "one")
	r := open(t, g.Dir)
	dir := t.TempDir()
	c := resolve(t, r, h)
	const n = 3
	bins := make([]*gitrev.Binary, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			b := &gitrev.Builder{Repo: r, Package: ".", CacheDir: dir}
			bins[i], errs[i] = b.Build(context.Background(), c)
		})
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("build %d: %v", i, errs[i])
		}
		if bins[i].Path != bins[0].Path {
			t.Errorf("build %d at %s, build 0 at %s", i, bins[i].Path, bins[0].Path)
		}
	}
	if got := output(t, bins[0]); got != "one" {
		t.Errorf("binary prints %q", got)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("cache holds %d entries, want the one binary", len(entries))
	}
}

func TestBuildCancelled(t *testing.T) {
	g := buildTestRepo(t)
	h := g.Commit(t, gittest.Program(gittest.Prints("one")), "one")
	b := builder(t, g, nil)
	c := resolve(t, b.Repo, h)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := b.Build(ctx, c)
	var be *gitrev.BuildError
	if err == nil || errors.As(err, &be) {
		t.Fatalf("Build with a cancelled context: error %v, want a non-BuildError", err)
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v does not wrap context.Canceled", err)
	}
	if m, _ := filepath.Glob(filepath.Join(b.CacheDir, "*.failed")); len(m) != 0 {
		t.Errorf("a cancelled build left failure markers %v", m)
	}
	// The cancellation is not remembered.
	bin, err := b.Build(context.Background(), c)
	if err != nil || output(t, bin) != "one" {
		t.Errorf("Build after a cancelled one: %+v, %v", bin, err)
	}
}

func TestDefaultCacheDir(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(gitrev.CacheEnv, dir)
	got, err := gitrev.DefaultCacheDir()
	if err != nil || got != filepath.Join(dir, "builds") {
		t.Errorf("DefaultCacheDir() with $%s=%s = %q, %v", gitrev.CacheEnv, dir, got, err)
	}
	if root, err := gitrev.CacheRoot(); err != nil || root != dir {
		t.Errorf("CacheRoot() with $%s=%s = %q, %v", gitrev.CacheEnv, dir, root, err)
	}
	t.Setenv(gitrev.CacheEnv, "")
	t.Setenv("XDG_CACHE_HOME", dir)
	t.Setenv("HOME", dir)
	got, err = gitrev.DefaultCacheDir()
	if err != nil || !strings.HasPrefix(got, dir) || !strings.HasSuffix(got, filepath.Join("rootbench", "builds")) {
		t.Errorf("DefaultCacheDir() = %q, %v; want rootbench/builds in the user cache directory", got, err)
	}
}
