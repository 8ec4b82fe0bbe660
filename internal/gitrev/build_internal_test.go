package gitrev

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rootbench/rootbench/internal/gitrev/gittest"
)

// A compiler or Go command ended by a signal is not the commit's failure.
func TestBuildFailureSignals(t *testing.T) {
	t.Parallel()
	exitErr := func(script string) *exec.ExitError {
		t.Helper()
		err := exec.Command("sh", "-c", script).Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("sh -c %q: %v, want an exit error", script, err)
		}
		return ee
	}
	var be *BuildError
	compile := "# example.com/tiny\n./main.go:3:15: undefined: signal\n"
	if err := buildFailure(exitErr("exit 1"), compile); !errors.As(err, &be) || be.Output != strings.TrimSpace(compile) {
		t.Errorf("compile error: %v, want a *BuildError with the output", err)
	}
	killedCompiler := "# example.com/tiny\ngo build example.com/tiny: /usr/local/go/pkg/tool/linux_amd64/compile: signal: killed\n"
	if err := buildFailure(exitErr("exit 1"), killedCompiler); err == nil || errors.As(err, &be) {
		t.Errorf("compiler killed: %v, want a plain error", err)
	}
	if err := buildFailure(exitErr("kill -KILL $$"), ""); err == nil || errors.As(err, &be) {
		t.Errorf("go command killed: %v, want a plain error", err)
	}
}

// A package below a nested go.mod is built from that module's directory;
// anything else from the top, as given.
func TestModuleDir(t *testing.T) {
	t.Parallel()
	top := t.TempDir()
	for _, f := range []string{"go.mod", "examples/own/go.mod", "examples/own/sub/x.go"} {
		p := filepath.Join(top, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ pkg, dir, arg string }{
		{".", top, "."},
		{"./cmd/rootbench", top, "./cmd/rootbench"},
		{"./examples/own", filepath.Join(top, "examples/own"), "./."},
		{"examples/own/sub", filepath.Join(top, "examples/own"), "./sub"},
		{"./examples/absent", top, "./examples/absent"},
		{"../elsewhere", top, "../elsewhere"},
		{"/abs/path", top, "/abs/path"},
	} {
		dir, arg := moduleDir(top, c.pkg)
		if dir != c.dir || arg != c.arg {
			t.Errorf("moduleDir(top, %q) = %s, %q; want %s, %q", c.pkg, dir, arg, c.dir, c.arg)
		}
	}
}

// The cache keeps what was used recently and drops what was not: temporary
// directories after staleTemp, binaries and failure markers after
// unusedAge; a hit (touch) renews an entry.
func TestRemoveStale(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	now := time.Now()
	entries := map[string]time.Duration{ // name: age
		"aaa-key":                  unusedAge + time.Hour, // unused: removed
		"bbb-key":                  unusedAge - time.Hour, // kept
		"ccc-key.failed":           unusedAge + time.Hour, // removed
		"ddd-key-modified-digest":  2 * unusedAge,         // removed, then renewed below
		".tmp-eee-123":             staleTemp + time.Hour, // a killed build: removed
		".tmp-fff-456":             staleTemp - time.Hour, // a build running: kept
		"subdir-someone-else-made": 10 * unusedAge,        // not a file of ours: kept
	}
	for name, age := range entries {
		p := filepath.Join(dir, name)
		var err error
		if strings.HasPrefix(name, ".tmp-") || strings.HasPrefix(name, "subdir") {
			err = os.Mkdir(p, 0o755)
		} else {
			err = os.WriteFile(p, []byte("x"), 0o755)
		}
		if err == nil {
			err = os.Chtimes(p, now.Add(-age), now.Add(-age))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	touch(filepath.Join(dir, "ddd-key-modified-digest")) // a cache hit
	removeStale(dir, now)
	for name := range entries {
		_, err := os.Stat(filepath.Join(dir, name))
		want := map[string]bool{"bbb-key": true, "ddd-key-modified-digest": true, ".tmp-fff-456": true, "subdir-someone-else-made": true}[name]
		if got := err == nil; got != want {
			t.Errorf("%s: kept %v, want %v", name, got, want)
		}
	}
}

// Build answers from the cache without building: a binary under the
// commit's final name is returned as cached, and a failure marker as the
// cached *BuildError; another build configuration is another key. (The
// tests that build run only in the full suite; this one runs in -short.)
func TestBuildFromTheCache(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program from a git history: skipped in -short (the full suite runs it)")
	}
	t.Parallel()
	g := gittest.New(t)
	h1 := g.Commit(t, gittest.Program(gittest.Prints("one")), "one")
	h2 := g.Commit(t, gittest.Program(gittest.Prints("two")), "two")
	repo, err := Open(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var progress bytes.Buffer
	b := &Builder{Repo: repo, Package: ".", CacheDir: t.TempDir(), Progress: &progress}
	dir, key, err := b.prepare(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c1, err := repo.Resolve(ctx, h1)
	if err != nil {
		t.Fatal(err)
	}
	c2, err := repo.Resolve(ctx, h2)
	if err != nil {
		t.Fatal(err)
	}
	cached := filepath.Join(dir, c1.Hash+"-"+key)
	if err := os.WriteFile(cached, []byte("a binary"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, c2.Hash+"-"+key+".failed"), []byte("# example.com/tiny\n./main.go:1: broken"), 0o644); err != nil {
		t.Fatal(err)
	}

	bin, err := b.Build(ctx, c1)
	if err != nil || !bin.Cached || bin.Path != cached || bin.Commit != c1 || bin.Modified {
		t.Errorf("Build(%s) = %+v, %v; want the cached %s", c1.Short, bin, err, cached)
	}
	_, err = b.Build(ctx, c2)
	var be *BuildError
	if !errors.As(err, &be) || !be.Cached || be.Commit != c2 || !strings.HasSuffix(be.Output, "broken") {
		t.Errorf("Build(%s): error %v; want the cached *BuildError", c2.Short, err)
	}
	if msg := err.Error(); !strings.Contains(msg, "(failed before; cached): ./main.go:1: broken") {
		t.Errorf("error %q: want the cached failure's last line", msg)
	}
	if progress.Len() != 0 {
		t.Errorf("answers from the cache printed progress %q", progress.String())
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".tmp-*")); len(left) != 0 {
		t.Errorf("answers from the cache left temporary files %v", left)
	}

	tagged := &Builder{Repo: repo, Package: ".", CacheDir: dir, Tags: []string{"sometag"}}
	if _, tkey, err := tagged.prepare(ctx); err != nil || tkey == key {
		t.Errorf("a builder with tags has key %q (%v), the same as without", tkey, err)
	}
}
