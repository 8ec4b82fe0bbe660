package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/history"
	"github.com/rootbench/rootbench/history/series"
)

func newHistoryAddCmd() *cobra.Command {
	var branch string
	cmd := &cobra.Command{
		Use:   "add FILE...",
		Short: "Store results files (run, callback, ab --export-json) in the history",
		Long: `Store results files in the history: the files rootbench run and callback
export (--export-json; ` + harness.Schema + ` and later, .gz too) and A/B sessions
(ab --export-json: base and head each a measurement of its own commit). Every
file is read and checked first; then each is added in one transaction. A file
whose content is stored already adds nothing, and says so. A run that another
stored file holds too (a snapshot written during a session, then its final
file) counts once.

Runs are placed by the commit of the binary that measured them; a file from a
build without VCS information is refused. The commit's time and branch come
from the git repository of the current directory when it has the commit (the
branch: the checked-out one if it holds the commit, else main or master, else
the first by name); --branch names the branch instead. A commit the repository
does not have keeps an unknown time and branch, and sorts after the others.
Runs of a build with uncommitted changes are stored but belong to no series.

One line per file: the runs added, their commit, and the series they touched
(one metric of one benchmark with one set of parameters on one kind of
machine).

Exit status: 0 when every file is stored (or was already); 2 with one line and
nothing added for a file that does not parse, of a newer schema or without a
commit, a store whose directory does not exist or cannot be written, a store of
a newer version, or one another rootbench keeps locked for ` + history.DefaultLockWait.String() + `.`,
		Example: `  rootbench run --export-json run.json && rootbench history add run.json
  rootbench history add results/sessions/*.json.gz
  rootbench history add --branch "$GITHUB_REF_NAME" ab.json
  rootbench history add --history ci-history.db run.json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			path, err := historyPath(cmd)
			if err != nil {
				return err
			}
			sources, err := readSources(args)
			if err != nil {
				return usageError(err)
			}
			ctx := context.Background()
			opt := history.AddOptions{Branch: strings.TrimSpace(branch)}
			var unknown string
			opt.Commits, unknown = commitLookup()
			s, err := history.Open(ctx, path, history.Options{})
			if err != nil {
				return usageError(err)
			}
			defer s.Close()
			for _, src := range sources {
				added, err := s.Add(ctx, src, opt)
				if err != nil {
					return usageError(fmt.Errorf("%s: %w", src.Name, err))
				}
				printAdded(cmd.OutOrStdout(), src.Name, added, unknown)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&branch, "branch", "", "the branch the files' commits are on (default: asked of git, else unknown)")
	return cmd
}

// readSources reads and checks every file before anything is added, so
// that a bad file adds nothing.
func readSources(paths []string) ([]*history.Source, error) {
	if i := slices.Index(paths, "-"); i >= 0 && slices.Contains(paths[i+1:], "-") {
		return nil, fmt.Errorf("standard input (-) is named twice: it can be read once")
	}
	sources := make([]*history.Source, 0, len(paths))
	for _, p := range paths {
		src, err := history.ReadFile(p)
		if err != nil {
			return nil, err
		}
		sources = append(sources, src)
	}
	return sources, nil
}

// printAdded prints what one add did, in one line; unknown says why a
// commit's time and branch are unknown.
func printAdded(w io.Writer, name string, a history.Added, unknown string) {
	if a.AlreadyStored {
		fmt.Fprintf(w, "%s: already stored (same content), nothing added\n", name)
		return
	}
	var what string
	switch {
	case len(a.Sides) == 1 && a.Sides[0].Modified:
		what = fmt.Sprintf("stored %s of a modified build of %s, in no series (uncommitted changes)", countRuns(a.Runs()), commitNote(a.Sides[0].Commit, unknown))
	case len(a.Sides) == 1:
		what = fmt.Sprintf("added %s of %s, %d series", countRuns(a.Runs()), commitNote(a.Sides[0].Commit, unknown), a.Series)
	default:
		parts := make([]string, len(a.Sides))
		for i, s := range a.Sides {
			parts[i] = fmt.Sprintf("%s %s %d", s.Name, commitNote(s.Commit, unknown), s.Runs)
			if s.Modified {
				parts[i] += " (modified build: in no series)"
			}
		}
		what = fmt.Sprintf("added %s: %s; %d series", countRuns(a.Runs()), strings.Join(parts, ", "), a.Series)
	}
	repeated := 0
	for _, s := range a.Sides {
		repeated += s.Repeated
	}
	if repeated > 0 {
		what += fmt.Sprintf("; %d of them already stored from another file, counted once", repeated)
	}
	fmt.Fprintf(w, "%s: %s\n", name, what)
}

// countRuns is "1 run" or "N runs".
func countRuns(n int) string {
	if n == 1 {
		return "1 run"
	}
	return fmt.Sprintf("%d runs", n)
}

// commitNote is a commit as an add line names it: "1a2b3c4 (main)".
func commitNote(c series.Commit, unknown string) string {
	switch {
	case c.Time.IsZero() && c.Branch == "":
		return c.Short() + " (" + unknown + ")"
	case c.Time.IsZero():
		return c.Short() + " (" + c.Branch + ", time unknown)"
	case c.Branch == "":
		return c.Short() + " (on no branch)"
	}
	return c.Short() + " (" + c.Branch + ")"
}
