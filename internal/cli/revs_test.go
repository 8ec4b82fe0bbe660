package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/internal/gitrev"
)

// The package built from revisions: --package when given and a directory
// below the top; else ./cmd/rootbench in rootbench's own repository, and
// the top in a repository of a program of one's own. buildPackage reads
// the work tree only: the repositories here are their top directories.
func TestBuildPackage(t *testing.T) {
	t.Parallel()
	tree := func(files ...string) *gitrev.Repo {
		dir := t.TempDir()
		for _, f := range files {
			path := filepath.Join(dir, filepath.FromSlash(f))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte("package main\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return &gitrev.Repo{Dir: dir}
	}
	own := tree("go.mod", "main.go", "tools/x/main.go")
	rb := tree("go.mod", "cmd/rootbench/main.go")
	for _, c := range []struct {
		repo       *gitrev.Repo
		flag, want string
	}{
		{own, "", "."},
		{rb, "", gitrev.DefaultPackage},
		{own, "tools/x", "./tools/x"},
		{own, "./tools/x/", "./tools/x"},
		{own, ".", "."},
		{rb, ".", "."},
	} {
		got, err := buildPackage(c.repo, c.flag)
		if err != nil || got != c.want {
			t.Errorf("buildPackage(%q) = %q, %v; want %q", c.flag, got, err, c.want)
		}
	}
	for _, flag := range []string{"./nosuch", "../x", "/tmp", "main.go"} {
		if _, err := buildPackage(own, flag); err == nil || !strings.Contains(err.Error(), "--package "+flag) || !strings.Contains(err.Error(), "accepted") {
			t.Errorf("buildPackage(%q) error %v; want one naming the flag and what is accepted", flag, err)
		}
	}
}
