// Command historycheck measures the error rates of analysis.ChangePoints
// on synthetic series and writes them to results/history.md (make
// history-check): how often a 5% step in 3% noise over 40 commits is found
// and located, how many change points pure noise gives per 1,000 commits,
// whether a creep of small steps is reported, and the same under other
// noise models (the median of several runs a commit, a build-to-build
// factor), at other places of the step and at other settings of the
// method. Series are drawn with gonum's distributions from fixed seeds, so
// the file depends on the revision only; every figure in it is computed
// here, from analysis' own counts and analysis.WilsonInterval.
//
// The file has two sections between markers: the synthetic one, which
// this command rewrites, and the real history's (a backfill of this
// repository measured into the history store), which it keeps as it is or
// replaces with -real FILE; -only-real replaces that section and computes
// nothing. FILE is the section's Markdown, or the backfill's history as
// `rootbench history show --format json` writes it (schema
// rootbench-history/v1), from which the section is made (real.go: the
// series of boxroot-handle and boxroot, whether the drop-in API rises in a
// range that holds 3e8f312 and falls in one that holds db6e7d7, and the
// domain API's change points with the ab command that would confirm each;
// git answers which commits a range holds):
//
//	go run ./cmd/historycheck [-series 2000] [-seed 1] [-out results/history.md] [-real FILE]
//	go run ./cmd/historycheck -only-real -real FILE [-out results/history.md]
//
// Exit status: 0 when the file is written (whatever the rates), 1 when it
// cannot be, 2 for bad flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/rootbench/rootbench/report/export"
	"github.com/rootbench/rootbench/report/historyreport"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// config is what the flags say.
type config struct {
	out      string
	series   int
	seed     uint64
	real     string // a file with the real-history section, or ""
	onlyReal bool
	command  string // the command line, recorded
}

// errUsage marks a bad command line (exit 2).
var errUsage = errors.New("usage")

func parseFlags(args []string) (config, error) {
	fs := flag.NewFlagSet("historycheck", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	c := config{command: strings.Join(append([]string{"historycheck"}, args...), " ")}
	fs.StringVar(&c.out, "out", "results/history.md", "the report to write")
	fs.IntVar(&c.series, "series", 2000, "series per experiment")
	fs.Uint64Var(&c.seed, "seed", 1, "the base seed of every series")
	fs.StringVar(&c.real, "real", "", "the real-history section to put in the report: its Markdown, or the backfill's history as rootbench history show --format json writes it")
	fs.BoolVar(&c.onlyReal, "only-real", false, "replace the real-history section only (needs -real), computing nothing")
	if err := fs.Parse(args); err != nil {
		return c, fmt.Errorf("%w: %v (flags: -out FILE, -series N, -seed N, -real FILE, -only-real)", errUsage, err)
	}
	switch {
	case fs.NArg() > 0:
		return c, fmt.Errorf("%w: unexpected argument %q; historycheck takes flags only", errUsage, fs.Arg(0))
	case c.series < 1:
		return c, fmt.Errorf("%w: -series %d: expected a count of series of at least 1, e.g. 2000", errUsage, c.series)
	case c.onlyReal && c.real == "":
		return c, fmt.Errorf("%w: -only-real needs -real FILE, the section's Markdown", errUsage)
	case c.out == "":
		return c, fmt.Errorf("%w: -out is empty; expected the report's path, e.g. results/history.md", errUsage)
	}
	return c, nil
}

func main() {
	c, err := parseFlags(os.Args[1:])
	if err == nil {
		err = run(c, os.Stderr)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "historycheck: %v\n", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// run writes the report c asks for, with progress on stderr.
func run(c config, stderr io.Writer) error {
	old, err := os.ReadFile(c.out)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("read %s: %w", c.out, err)
	}
	realSection, ok := between(string(old), realBegin, realEnd)
	if !ok {
		realSection = realPlaceholder
	}
	if c.real != "" {
		if realSection, err = readReal(c.real); err != nil {
			return err
		}
	}
	var doc string
	if c.onlyReal {
		doc, ok = replaceBetween(string(old), realBegin, realEnd, realSection)
		if !ok {
			return fmt.Errorf("%w: -only-real: %s has no real-history section (%s … %s); run historycheck without -only-real first",
				errUsage, c.out, realBegin, realEnd)
		}
	} else {
		start := time.Now()
		p := newPlan(c.series)
		done := progress(stderr, p.seriesCount())
		ts, err := runExperiments(c.seed, p.exps, done)
		if err != nil {
			return err
		}
		doc = document(headingOf(c.command, revision()), synthetic(p, ts, c.series), realSection)
		fmt.Fprintf(stderr, "historycheck: %d series in %s\n", p.seriesCount(), time.Since(start).Round(time.Second))
	}
	if err := export.WriteAtomic(c.out, func(w io.Writer) error {
		_, err := io.WriteString(w, doc)
		return err
	}); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "historycheck: wrote %s\n", c.out)
	return nil
}

// progress returns what to call after each series: a bar on a terminal,
// nothing elsewhere.
func progress(w io.Writer, total int) func() {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return func() {}
	}
	bar := progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("series"),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionThrottle(100*time.Millisecond),
	)
	return func() { _ = bar.Add(1) }
}

// revision is the work tree's commit, and whether it has changes.
func revision() string {
	out, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		return "unknown (not a git work tree)"
	}
	rev := strings.TrimSpace(string(out))
	if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(st) > 0 {
		rev += " with uncommitted changes"
	}
	return rev
}

// readReal reads -real FILE: the section's Markdown, or a history
// document (JSON) to make it from.
func readReal(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("%w: -real: %v", errUsage, err)
	}
	if !strings.HasPrefix(strings.TrimSpace(string(b)), "{") {
		return string(b), nil
	}
	doc, err := historyreport.Decode(b, path)
	if err != nil {
		return "", fmt.Errorf("%w: -real: %v", errUsage, err)
	}
	holds, err := gitHolder(context.Background())
	if err != nil {
		return "", fmt.Errorf("-real %s: which commits a range holds: %w", path, err)
	}
	return realSection(doc, holds)
}
