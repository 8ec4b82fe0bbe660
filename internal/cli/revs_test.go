package cli

import (
	"strings"
	"testing"

	"github.com/rootbench/rootbench/internal/gitrev"
	"github.com/rootbench/rootbench/internal/gitrev/gittest"
)

// The package built from revisions: --package when given and a directory
// below the top; else ./cmd/rootbench in rootbench's own repository, and
// the top in a repository of a program of one's own.
func TestBuildPackage(t *testing.T) {
	own := gittest.New(t)
	own.Commit(t, map[string]string{"go.mod": gittest.GoMod, "main.go": gittest.Prints("own"), "tools/x/main.go": gittest.Prints("x")}, "a program of one's own")
	rb := gittest.New(t)
	rb.Commit(t, map[string]string{"go.mod": gittest.GoMod, "cmd/rootbench/main.go": gittest.Prints("rootbench")}, "rootbench")
	for _, c := range []struct {
		repo       *gittest.Repo
		flag, want string
	}{
		{own, "", "."},
		{rb, "", gitrev.DefaultPackage},
		{own, "tools/x", "./tools/x"},
		{own, "./tools/x/", "./tools/x"},
		{own, ".", "."},
		{rb, ".", "."},
	} {
		repo, err := openRepo(c.repo.Dir)
		if err != nil {
			t.Fatal(err)
		}
		got, err := buildPackage(repo, c.flag)
		if err != nil || got != c.want {
			t.Errorf("buildPackage(%q) = %q, %v; want %q", c.flag, got, err, c.want)
		}
	}
	repo, err := openRepo(own.Dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, flag := range []string{"./nosuch", "../x", "/tmp", "main.go"} {
		if _, err := buildPackage(repo, flag); err == nil || !strings.Contains(err.Error(), "--package "+flag) || !strings.Contains(err.Error(), "accepted") {
			t.Errorf("buildPackage(%q) error %v; want one naming the flag and what is accepted", flag, err)
		}
	}
}
