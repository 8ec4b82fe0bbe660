// Package gittest makes temporary git repositories for tests: commits of
// small Go programs, branches and merges, in a directory the test removes.
//
// Its git commands ignore the user's and the system's git configuration,
// run no automatic maintenance and carry a fixed author, so they behave the
// same on every machine. Each
// commit's date is one minute after the previous one, so that time-ordered
// git output is the commit order.
package gittest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Module is the module path of GoMod.
const Module = "example.com/tiny"

// GoMod is a go.mod for a module with no dependencies.
const GoMod = "module " + Module + "\n\ngo 1.22\n"

// epoch is the date of a repository's first commit.
var epoch = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// Repo is a temporary git repository.
type Repo struct {
	// Dir is its work tree's top directory.
	Dir     string
	commits int
}

// New creates an empty repository (branch main, no commit) in a temporary
// directory that is removed when t ends.
func New(t testing.TB) *Repo {
	t.Helper()
	r := &Repo{Dir: t.TempDir()}
	r.Git(t, "init", "-q", "-b", "main")
	return r
}

// Program returns the files of a main package, go.mod (GoMod) and main.go
// with the given source.
func Program(mainGo string) map[string]string {
	return map[string]string{"go.mod": GoMod, "main.go": mainGo}
}

// Prints returns the source of a main.go that prints s and a newline.
func Prints(s string) string {
	return fmt.Sprintf("package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(%q) }\n", s)
}

// Write writes files (name relative to Dir -> contents) into the work tree,
// creating directories as needed, without committing. An empty content
// removes the file.
func (r *Repo) Write(t testing.TB, files map[string]string) {
	t.Helper()
	for name, data := range files {
		path := filepath.Join(r.Dir, filepath.FromSlash(name))
		if data == "" {
			if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Commit writes files as Write does, stages every change in the work tree
// and commits it with the subject as message; it returns the commit's full
// hash. A commit with no change is allowed.
func (r *Repo) Commit(t testing.TB, files map[string]string, subject string) string {
	t.Helper()
	r.Write(t, files)
	r.Git(t, "add", "-A")
	r.gitDated(t, "commit", "-q", "--allow-empty", "-m", subject)
	return r.Git(t, "rev-parse", "HEAD")
}

// Checkout checks out rev; a branch name stays attached, anything else is
// detached.
func (r *Repo) Checkout(t testing.TB, rev string) {
	t.Helper()
	r.Git(t, "checkout", "-q", rev)
}

// Branch creates branch name at rev and checks it out.
func (r *Repo) Branch(t testing.TB, name, rev string) {
	t.Helper()
	r.Git(t, "checkout", "-q", "-b", name, rev)
}

// Merge merges rev into the checked-out branch with a merge commit (never a
// fast-forward) whose subject is subject, and returns its full hash. The
// merge must be free of conflicts.
func (r *Repo) Merge(t testing.TB, rev, subject string) string {
	t.Helper()
	r.gitDated(t, "merge", "-q", "--no-ff", "--no-edit", "-m", subject, rev)
	return r.Git(t, "rev-parse", "HEAD")
}

// Git runs git with args in Dir and returns its output, trimmed; a failure
// ends the test with git's error output.
func (r *Repo) Git(t testing.TB, args ...string) string {
	t.Helper()
	return r.run(t, nil, args...)
}

// gitDated runs a git command that makes a commit, dated one minute after
// the previous one.
func (r *Repo) gitDated(t testing.TB, args ...string) {
	t.Helper()
	date := epoch.Add(time.Duration(r.commits) * time.Minute).Format(time.RFC3339)
	r.commits++
	r.run(t, []string{"GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date}, args...)
}

func (r *Repo) run(t testing.TB, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.Dir
	cmd.Env = append(os.Environ(),
		"GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_CONFIG_NOSYSTEM=1",
		// No automatic maintenance after a commit: a process each that
		// has nothing to do in a repository of a few commits.
		"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=maintenance.auto", "GIT_CONFIG_VALUE_0=false",
		"GIT_AUTHOR_NAME=gittest", "GIT_AUTHOR_EMAIL=gittest@example.com",
		"GIT_COMMITTER_NAME=gittest", "GIT_COMMITTER_EMAIL=gittest@example.com",
	)
	cmd.Env = append(cmd.Env, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSpace(stdout.String())
}
