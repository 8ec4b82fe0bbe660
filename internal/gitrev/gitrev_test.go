package gitrev_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/internal/gitrev"
	"github.com/rootbench/rootbench/internal/gitrev/gittest"
)

func open(t *testing.T, dir string) *gitrev.Repo {
	t.Helper()
	r, err := gitrev.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func resolve(t *testing.T, r *gitrev.Repo, rev string) gitrev.Commit {
	t.Helper()
	c, err := r.Resolve(context.Background(), rev)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestOpenNotRepository(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{dir, file, filepath.Join(dir, "missing")} {
		_, err := gitrev.Open(d)
		if !errors.Is(err, gitrev.ErrNotRepository) {
			t.Errorf("Open(%s): error %v, want one wrapping ErrNotRepository", d, err)
			continue
		}
		if !strings.HasPrefix(err.Error(), "not a git repository: "+d) {
			t.Errorf("Open(%s): error %q does not start with %q", d, err, "not a git repository: "+d)
		}
	}
}

func TestOpenSubdirectory(t *testing.T) {
	t.Parallel()
	g := gittest.New(t)
	g.Commit(t, map[string]string{"a/b/c.txt": "x"}, "one")
	r := open(t, filepath.Join(g.Dir, "a", "b"))
	want, err := filepath.EvalSymlinks(g.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if r.Dir != want {
		t.Errorf("Dir = %s, want the top directory %s", r.Dir, want)
	}
	if _, err := gitrev.Open(filepath.Join(g.Dir, ".git")); !errors.Is(err, gitrev.ErrNotRepository) {
		t.Errorf("Open(.git): error %v, want one wrapping ErrNotRepository", err)
	}
}

func TestResolve(t *testing.T) {
	t.Parallel()
	g := gittest.New(t)
	h1 := g.Commit(t, gittest.Program(gittest.Prints("one")), "first: the program prints one")
	h2 := g.Commit(t, gittest.Program(gittest.Prints("two")), "second")
	g.Git(t, "tag", "v1", h1)
	r := open(t, g.Dir)
	revs := map[string]string{
		h1: h1, h1[:7]: h1, "v1": h1, "HEAD~1": h1, "main^": h1,
		h2: h2, "HEAD": h2, "main": h2,
	}
	if testing.Short() {
		// Every spelling goes through the same two git commands; -short
		// keeps an abbreviation, a tag and a relative one.
		revs = map[string]string{h1[:7]: h1, "v1": h1, "HEAD~1": h1}
	}
	for rev, want := range revs {
		c := resolve(t, r, rev)
		if c.Hash != want {
			t.Errorf("Resolve(%q) = %s, want %s", rev, c.Hash, want)
		}
		if !strings.HasPrefix(want, c.Short) || len(c.Short) < 4 || len(c.Short) >= len(want) {
			t.Errorf("Resolve(%q).Short = %q, want an abbreviation of %s", rev, c.Short, want)
		}
	}
	if c := resolve(t, r, h1); c.Subject != "first: the program prints one" {
		t.Errorf("Subject = %q", c.Subject)
	}
	head, err := r.Head(context.Background())
	if err != nil || head.Hash != h2 {
		t.Errorf("Head() = %v, %v; want %s", head, err, h2)
	}
}

func TestResolveUnknown(t *testing.T) {
	t.Parallel()
	g := gittest.New(t)
	g.Commit(t, gittest.Program(gittest.Prints("one")), "first")
	r := open(t, g.Dir)
	for _, rev := range []string{"", "nope", "HEAD~5", "HEAD:go.mod", "-v", "--all", "0123456789abcdef0123456789abcdef01234567"} {
		_, err := r.Resolve(context.Background(), rev)
		if !errors.Is(err, gitrev.ErrUnknownRevision) {
			t.Errorf("Resolve(%q): error %v, want one wrapping ErrUnknownRevision", rev, err)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, "unknown revision") || !strings.Contains(msg, "\""+rev+"\"") || strings.Contains(msg, "\n") {
			t.Errorf("Resolve(%q): error %q: want one line naming the revision", rev, msg)
		}
	}
	// An empty repository has no HEAD.
	_, err := open(t, gittest.New(t).Dir).Head(context.Background())
	if !errors.Is(err, gitrev.ErrUnknownRevision) {
		t.Errorf("Head of an empty repository: error %v, want ErrUnknownRevision", err)
	}
}

// history makes
//
//	c1 - c2 - c3 ------ m - c4   (main)
//	   \               /
//	    s1 - s2 ------'          (side)
//
// and returns the hashes by name.
func history(t *testing.T) (*gittest.Repo, map[string]string) {
	g := gittest.New(t)
	h := map[string]string{}
	h["c1"] = g.Commit(t, map[string]string{"main.txt": "1"}, "c1")
	h["c2"] = g.Commit(t, map[string]string{"main.txt": "2"}, "c2")
	h["c3"] = g.Commit(t, map[string]string{"main.txt": "3"}, "c3")
	g.Branch(t, "side", h["c1"])
	h["s1"] = g.Commit(t, map[string]string{"side.txt": "1"}, "s1")
	h["s2"] = g.Commit(t, map[string]string{"side.txt": "2"}, "s2")
	g.Checkout(t, "main")
	h["m"] = g.Merge(t, "side", "m")
	h["c4"] = g.Commit(t, map[string]string{"main.txt": "4"}, "c4")
	return g, h
}

// openHistory is history's repository opened, for a test that runs in
// parallel with the others and only in the full suite (a git history with
// a merge is too slow for -short).
func openHistory(t *testing.T) (*gitrev.Repo, map[string]string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a git history with a merge: skipped in -short (the full suite runs it)")
	}
	t.Parallel()
	g, h := history(t)
	return open(t, g.Dir), h
}

func TestIsAncestor(t *testing.T) {
	r, h := openHistory(t)
	cases := []struct {
		a, b string
		want bool
	}{
		{"c1", "c4", true}, {"c2", "m", true}, {"s1", "c4", true}, {"c4", "c4", true},
		{"c4", "c1", false}, {"s1", "c3", false}, {"c3", "s2", false},
	}
	for _, c := range cases {
		got, err := r.IsAncestor(context.Background(), resolve(t, r, h[c.a]), resolve(t, r, h[c.b]))
		if err != nil || got != c.want {
			t.Errorf("IsAncestor(%s, %s) = %v, %v; want %v", c.a, c.b, got, err, c.want)
		}
	}
}

// TestFirstParents: HEAD's first-parent line is main's own commits and
// the merge, oldest first, without the side branch's commits.
func TestFirstParents(t *testing.T) {
	r, h := openHistory(t)
	got, err := r.FirstParents(context.Background(), resolve(t, r, h["c4"]))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{h["c1"], h["c2"], h["c3"], h["m"], h["c4"]}
	if !slices.Equal(got, want) {
		t.Errorf("FirstParents(c4) = %v; want c1, c2, c3, m, c4: %v", got, want)
	}
}

func TestRangeIsWhatBisectSearches(t *testing.T) {
	r, h := openHistory(t)
	names := map[string]string{}
	for n, hash := range h {
		names[hash] = n
	}
	cases := []struct {
		good, bad string
		want      []string // as a set; order is checked separately
	}{
		// The side branch forked before c2 and is merged after: git bisect
		// searches it too.
		{"c2", "c4", []string{"c3", "s1", "s2", "m", "c4"}},
		{"c3", "m", []string{"s1", "s2", "m"}},
		{"c1", "c2", []string{"c2"}},
		{"c4", "c4", nil},
		{"c4", "c1", nil},
	}
	for _, c := range cases {
		nodes, err := r.Graph(context.Background(), resolve(t, r, h[c.good]), resolve(t, r, h[c.bad]))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		seen := map[string]bool{}
		for _, n := range nodes {
			got = append(got, names[n.Hash])
			for _, p := range n.Parents {
				if _, inRange := names[p]; inRange && slices.Contains(c.want, names[p]) && !seen[p] {
					t.Errorf("%s..%s: %s comes before its parent %s", c.good, c.bad, names[n.Hash], names[p])
				}
			}
			seen[n.Hash] = true
			if n.Subject != names[n.Hash] || !strings.HasPrefix(n.Hash, n.Short) {
				t.Errorf("%s..%s: node %+v: wrong subject or short hash", c.good, c.bad, n.Commit)
			}
		}
		if !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(c.want))) {
			t.Errorf("Graph(%s, %s) = %v, want %v", c.good, c.bad, got, c.want)
		}
		cs, err := r.Range(context.Background(), resolve(t, r, h[c.good]), resolve(t, r, h[c.bad]))
		if err != nil || len(cs) != len(nodes) {
			t.Errorf("Range(%s, %s): %d commits, %v; want the %d of Graph", c.good, c.bad, len(cs), err, len(nodes))
		}
	}
	m, err := r.Graph(context.Background(), resolve(t, r, h["c3"]), resolve(t, r, h["m"]))
	if err != nil {
		t.Fatal(err)
	}
	if last := m[len(m)-1]; !slices.Equal(last.Parents, []string{h["c3"], h["s2"]}) {
		t.Errorf("merge parents = %v, want [c3 s2]", last.Parents)
	}
}

func TestDirty(t *testing.T) {
	t.Parallel()
	g := gittest.New(t)
	g.Commit(t, map[string]string{"a.txt": "a", ".gitignore": "ignored/\n"}, "one")
	r := open(t, g.Dir)
	check := func(what string, want bool) {
		t.Helper()
		got, err := r.Dirty(context.Background())
		if err != nil || got != want {
			t.Errorf("%s: Dirty() = %v, %v; want %v", what, got, err, want)
		}
	}
	check("clean", false)
	g.Write(t, map[string]string{"ignored/x": "x"})
	check("an ignored file", false)
	g.Write(t, map[string]string{"new.txt": "n"})
	check("an untracked file", true)
	g.Write(t, map[string]string{"new.txt": ""})
	check("untracked file removed", false)
	g.Write(t, map[string]string{"a.txt": "changed"})
	check("a modified file", true)
	g.Git(t, "add", "a.txt")
	check("a staged change", true)
}

func TestChangedDirs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a git history: skipped in -short (the full suite runs it)")
	}
	t.Parallel()
	g := gittest.New(t)
	a := g.Commit(t, map[string]string{"go.mod": "module x\n", "impls/a.go": "package impls\n", "cmd/x/main.go": "package main\n"}, "first")
	b := g.Commit(t, map[string]string{"impls/a.go": "package impls // changed\n", "impls/b.go": "package impls\n", "README.md": "hi\n"}, "second")
	r := open(t, g.Dir)
	got, err := r.ChangedDirs(context.Background(), resolve(t, r, a), resolve(t, r, b))
	want := []gitrev.DirChange{{Dir: ".", Files: 1}, {Dir: "impls", Files: 2}}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("ChangedDirs = %v, %v; want %v", got, err, want)
	}
	if got, err := r.ChangedDirs(context.Background(), resolve(t, r, b), resolve(t, r, b)); err != nil || len(got) != 0 {
		t.Errorf("ChangedDirs of a commit with itself = %v, %v; want none", got, err)
	}
	if s := gitrev.DirList(want); s != ". (1), impls (2)" {
		t.Errorf("DirList = %q", s)
	}
	g.Write(t, map[string]string{"cmd/x/main.go": "package main // edited\n", "notes.txt": "untracked\n"})
	got, err = r.ChangedDirsInWorkTree(context.Background(), resolve(t, r, b))
	if want := []gitrev.DirChange{{Dir: "cmd/x", Files: 1}}; err != nil || !slices.Equal(got, want) {
		t.Errorf("ChangedDirsInWorkTree = %v, %v; want %v (tracked files only)", got, err, want)
	}
}
