package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/rootbench/rootbench/history"
	"github.com/rootbench/rootbench/internal/gitrev"
)

// historyDefault is --history's value when the flag is given alone: the
// default store ($ROOTBENCH_HISTORY, else history.db in rootbench's cache
// directory).
const historyDefault = "default"

// historyOption is --history [PATH] of a command that measures (run,
// callback, ab): add what it measured to the store as it finishes.
type historyOption struct {
	value string // the flag's value; "" when not given
	path  string // the store, once resolved
}

// register adds --history to f with its usage.
func (h *historyOption) register(f *pflag.FlagSet, usage string) {
	f.StringVar(&h.value, historyFlag, "", usage+" (--history alone: $"+history.Env+", else "+history.FileName+" in rootbench's cache directory)")
	f.Lookup(historyFlag).NoOptDefVal = historyDefault
}

// addsUsage is the usage of --history on a command that measures: what it
// adds.
func addsUsage(what string) string {
	return "also add " + what + " to the history store at PATH as it finishes (a build without a commit is noted, not added)"
}

// given reports whether --history was given.
func (h *historyOption) given() bool { return h.value != "" }

// resolve finds the store and checks that its directory can hold it
// (history.Prepare), writing nothing: a usage error otherwise.
func (h *historyOption) resolve() error {
	if !h.given() {
		return nil
	}
	flag := h.value
	if flag == historyDefault {
		flag = ""
	}
	path, err := history.Path(flag)
	if err != nil {
		return err
	}
	if err := history.Prepare(path); err != nil {
		return err
	}
	h.path = path
	return nil
}

// check opens the store once before anything is measured, so that a store
// that is not one, of a newer version or locked beyond the wait is refused
// first (it creates the store when there is none).
func (h *historyOption) check(ctx context.Context) error {
	if h.path == "" {
		return nil
	}
	s, err := history.Open(ctx, h.path, history.Options{})
	if err != nil {
		return usageError(err)
	}
	return s.Close()
}

// add stores what the command measured, as history add does, and says
// what it added in one line on w. A source that cannot be stored (srcErr:
// a build without a commit) is a note on w, not an error: the command's
// own results stand. A store that fails (locked beyond the wait) is a
// usage error.
func (h *historyOption) add(ctx context.Context, w io.Writer, src *history.Source, srcErr error) error {
	if h.path == "" {
		return nil
	}
	if srcErr != nil {
		fmt.Fprintf(w, "rootbench: not added to the history: %v\n", srcErr)
		return nil
	}
	// What was measured is added even after an interrupt.
	added, unknown, err := addToHistory(context.WithoutCancel(ctx), h.path, src, history.AddOptions{})
	if err != nil {
		return usageError(err)
	}
	printAdded(w, "history "+h.path+": "+src.Name, added, unknown)
	return nil
}

// addToHistory adds src to the store at path in one transaction, the
// commits' time and branch from the git repository of the current
// directory when it has them; unknown says why a commit's are unknown.
func addToHistory(ctx context.Context, path string, src *history.Source, opt history.AddOptions) (history.Added, string, error) {
	var unknown string
	opt.Commits, unknown = commitLookup()
	s, err := history.Open(ctx, path, history.Options{})
	if err != nil {
		return history.Added{}, "", err
	}
	defer s.Close()
	added, err := s.Add(ctx, src, opt)
	if err != nil {
		return history.Added{}, "", fmt.Errorf("%s: %w", src.Name, err)
	}
	return added, unknown, nil
}

// commitLookup looks commits up in the git repository of the current
// directory (nil outside one); unknown says, for a commit it does not
// know, why its time and branch are unknown.
func commitLookup() (lookup history.CommitLookup, unknown string) {
	if repo, err := gitrev.Open("."); err == nil {
		return history.GitCommits(repo), "not in this repository: time and branch unknown"
	}
	return nil, "no git repository here: time and branch unknown"
}
