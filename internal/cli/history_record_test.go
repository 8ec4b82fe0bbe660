package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/workload/callback"
)

// run --history adds its results as they finish; a build without a commit
// (a test binary has none) is a one-line note, and the run still succeeds.
// The store is checked before anything runs: an unusable path is refused
// in one line, no worker started.
func TestRunHistory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	store := filepath.Join(dir, "h.db")
	r := rootbench(t, nil, "run", "--cell", "ocaml", "--niters", "10", "--runs", "1", "--history", store, "--style", "none")
	r.Must(t, 0)
	if !strings.Contains(r.Stderr, "rootbench: not added to the history: msgpass results: no commit: the binary that measured it was built without VCS information") {
		t.Errorf("no note that the run has no commit:\n%s", r.Stderr)
	}
	if _, err := os.Stat(store); err != nil {
		t.Errorf("the store was not checked (created) before the run: %v", err)
	}
	refusals := []refusal{
		{args: []string{"run", "--cell", "ocaml", "--history", filepath.Join(dir, "missing", "h.db")}, want: []string{"does not exist"}},
		{args: []string{"run", "--cell", "ocaml", "--history=" + dir}, want: []string{"is a directory"}},
		{args: []string{"ab", "--base", self, "--history", "/proc/h.db"}, want: []string{"cannot be written"}},
	}
	callbackWant := "cannot be written"
	if !callback.Available {
		callbackWant = callback.Unavailable // refused first, as bad input too
	}
	refusals = append(refusals, refusal{args: []string{"callback", "--variant", "plain", "--history", "/proc/h.db"}, want: []string{callbackWant}})
	mustRefuse(t, refusals)
}

// --history PATH takes the next argument as its value on a command that
// takes no arguments, and leaves report's files alone.
func TestHistoryFlagValue(t *testing.T) {
	t.Parallel()
	root := newRootCmd()
	for _, tc := range []struct{ in, want []string }{
		{[]string{"run", "--history", "h.db", "--runs", "2"}, []string{"run", "--history=h.db", "--runs", "2"}},
		{[]string{"run", "--history", "--runs", "2"}, []string{"run", "--history", "--runs", "2"}},
		{[]string{"ab", "--history=h.db"}, []string{"ab", "--history=h.db"}},
		{[]string{"report", "--history", "a.json", "-o", "d"}, []string{"report", "--history", "a.json", "-o", "d"}},
	} {
		if got := expandMultiArgFlags(root, tc.in); strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%q: %q, want %q", tc.in, got, tc.want)
		}
	}
}
