package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/internal/absession"
	"github.com/rootbench/rootbench/internal/gitrev"
	"github.com/rootbench/rootbench/parse"
	"github.com/rootbench/rootbench/report"
)

// abPlan is what the ab flags resolve to.
type abPlan struct {
	opts     harness.ABOptions
	pin      string              // --pin, rendered into each side's worker arguments
	repo     *gitrev.Repo        // with revisions: the repository they are built from
	baseRev  *revSide            // the base given as a revision (nil: a binary)
	headRev  *revSide            // the head given as a revision (nil: a binary)
	runner   *absession.Runner   // builds the revisions and runs the sessions
	rule     analysis.Sequential // the sequential rule: looks, alpha per look, outcomes
	format   string
	export   string
	gcTables bool
	ropts    report.Options
	out      io.Writer     // human-readable output besides the comparison
	planNote string        // what the plan left out, said when the session starts
	layouts  []string      // --layouts: one session per layout seed, combined
	history  historyOption // --history: where each session's sides are added
	// work gives benchmarks their own work (--equal-time, --niters-for);
	// nil when all run the work asked. Once a session has decided it, its
	// Decided holds the sizes every later session runs.
	work *absession.Work
}

// resolve checks every flag before anything runs.
func (af *abFlags) resolve(cmd *cobra.Command) (*abPlan, error) {
	p := &abPlan{format: af.format, export: af.exportJSON, gcTables: !af.noGCTable}
	if err := af.resolveSession(cmd, p); err != nil {
		return nil, err
	}
	if err := p.resolveSides(cmd.Context(), af); err != nil {
		return nil, err
	}
	if af.layouts != "" {
		if err := p.resolveLayouts(af); err != nil {
			return nil, err
		}
	}
	if err := af.history.resolve(); err != nil {
		return nil, err
	}
	p.history = af.history
	return p, nil
}

// resolveSession checks the flags every session takes (registerSession's,
// the environments and the export) into p, before anything runs.
func (af *abFlags) resolveSession(cmd *cobra.Command, p *abPlan) error {
	o := &p.opts
	var err error
	o.Base.Name, o.Head.Name = "base", "head"
	for _, e := range []struct {
		flag string
		in   []string
		out  *[]string
	}{{"--base-env", af.baseEnv, &o.Base.Env}, {"--head-env", af.headEnv, &o.Head.Env}} {
		for _, kv := range e.in {
			if name, _, ok := strings.Cut(kv, "="); !ok || name == "" {
				return fmt.Errorf("%s %q: expected NAME=VALUE", e.flag, kv)
			}
		}
		*e.out = slices.Clone(e.in)
	}
	if o.MaxTime = af.maxTime; o.MaxTime <= 0 {
		return fmt.Errorf("--max-time %v: must be positive (e.g. 3m)", af.maxTime)
	}
	if strings.TrimSpace(af.looks) == "auto" {
		p.rule.AutoLooks = analysis.DefaultAutoLooks
	} else if p.rule.Looks, err = parseLooks(af.looks); err != nil {
		return fmt.Errorf("--looks %q: %w (or auto)", af.looks, err)
	}
	if p.rule.Alpha, err = analysis.ParseAlpha(af.alpha); err != nil {
		return fmt.Errorf("--%w", err)
	}
	if p.rule.Threshold, err = analysis.ParseThreshold(af.threshold); err != nil {
		return fmt.Errorf("--fail-on-regression: %w", err)
	}
	if p.rule.Metrics, err = analysis.ParseMetrics(af.metric); err != nil {
		return fmt.Errorf("--metric: %w", err)
	}
	p.rule.BaseName, p.rule.HeadName = "base", "head"
	switch af.format {
	case "text", "markdown":
	default:
		return fmt.Errorf("--format %q: accepted: text, markdown", af.format)
	}
	o.Warmup = af.warmup
	if o.Timeout = af.timeout; o.Timeout != 0 && o.Timeout < minTimeout {
		return fmt.Errorf("--timeout %v: too short for a worker to start and run: accepted: at least %v", af.timeout, minTimeout)
	}
	if af.pin != "" {
		if err := checkPin(af.pin); err != nil {
			return fmt.Errorf("--pin: %w", err)
		}
	}
	p.pin = af.pin
	o.IgnoreFailure = af.ignoreFailure
	if o.WaitForLoad, err = af.load.resolve(); err != nil {
		return err
	}
	if p.export != "" {
		if err := checkExports([]exportTarget{{flag: "export-json", path: p.export}}); err != nil {
			return err
		}
	}
	style, err := report.ParseStyle(af.style)
	if err != nil {
		return fmt.Errorf("--style: %w", err)
	}
	// The comparison goes to stdout; the rest (look notes, failures,
	// progress) to stderr, so that `ab --format markdown > comment.md`
	// writes the comment only.
	p.ropts.Style = report.ResolveStyle(style, os.Stdout)
	p.ropts.Width = terminalColumns(os.Stdout)
	p.out = newWrapWriter(os.Stderr, terminalColumns(os.Stderr))
	// A failed run is an error: its line is shown in every style, --style
	// none included, which silences only the notes and the progress.
	o.Notices = p.out
	if p.ropts.Style == report.None {
		p.out = io.Discard
	} else {
		o.Progress = progressOut(p.ropts.Style)
	}

	if o.Benchmarks, o.Workload, o.Unit, o.Params, err = af.workload.plan(cmd, af.pin); err != nil {
		return err
	}
	p.planNote = af.workload.note
	if p.work, err = af.work.resolve(o.Benchmarks, o.Workload); err != nil {
		return err
	}
	o.Params = absession.CommonParams(o.Benchmarks)
	o.CommandLine = os.Args
	return nil
}

// resolveSides resolves --base/--base-rev and --head/--head-rev before
// anything builds or runs: paths are checked, revisions resolved.
func (p *abPlan) resolveSides(ctx context.Context, af *abFlags) error {
	o := &p.opts
	switch {
	case af.base != "" && af.baseRev != "":
		return fmt.Errorf("--base and --base-rev together: give one (a built binary, or a revision to build)")
	case af.head != "" && af.headRev != "":
		return fmt.Errorf("--head and --head-rev together: give one (a built binary, or a revision to build)")
	case af.base == "" && af.baseRev == "":
		return fmt.Errorf("--base PATH or --base-rev REV is required: the base build's rootbench binary, or a git revision to build it from")
	}
	var err error
	if af.base != "" {
		if o.Base.Executable, err = executable("--base", af.base); err != nil {
			return err
		}
	}
	switch {
	case af.head != "":
		if o.Head.Executable, err = executable("--head", af.head); err != nil {
			return err
		}
	case af.headRev == "" && af.baseRev == "":
		self, err := os.Executable()
		if err != nil {
			return fmt.Errorf("find this rootbench binary for --head: %w", err)
		}
		if o.Head.Executable, err = executable("--head", self); err != nil {
			return err
		}
	}
	p.runner = &absession.Runner{Progress: p.out}
	if af.baseRev != "" {
		p.baseRev = &revSide{flag: "--base-rev", rev: af.baseRev}
	}
	if af.headRev != "" || (af.baseRev != "" && af.head == "") {
		p.headRev = &revSide{flag: "--head-rev", rev: af.headRev, workTree: af.headRev == ""}
	}
	if p.baseRev == nil && p.headRev == nil {
		return nil
	}
	if p.repo, err = openRepo(af.repo); err != nil {
		return err
	}
	pkg, err := buildPackage(p.repo, af.pkg)
	if err != nil {
		return err
	}
	p.runner = &absession.Runner{Repo: p.repo, Package: pkg, Progress: p.out}
	for _, r := range []*revSide{p.baseRev, p.headRev} {
		if r == nil {
			continue
		}
		if err := r.resolve(ctx, p.repo); err != nil {
			return err
		}
	}
	return nil
}

// executable checks that path is an executable file and returns it
// absolute.
func executable(flag, path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", flag, path, err)
	}
	st, err := os.Stat(abs)
	switch {
	case err != nil:
		return "", fmt.Errorf("%s %s: %w", flag, path, err)
	case st.IsDir():
		return "", fmt.Errorf("%s %s: a directory, not a rootbench binary", flag, path)
	case st.Mode()&0o111 == 0:
		return "", fmt.Errorf("%s %s: not executable", flag, path)
	}
	return abs, nil
}

// parseLooks parses "10,20,40": even, increasing run counts.
func parseLooks(s string) ([]int, error) {
	items, err := parse.List(s)
	if err != nil {
		return nil, err
	}
	var looks []int
	for _, it := range items {
		n, err := parse.Int(it)
		if err != nil {
			return nil, err
		}
		if n < 2 || n%2 != 0 || n > 1<<20 {
			return nil, fmt.Errorf("%s: each look is an even number of runs per side from 2 to %d", it, 1<<20)
		}
		if len(looks) > 0 && int(n) <= looks[len(looks)-1] {
			return nil, fmt.Errorf("%q: the looks must increase", s)
		}
		looks = append(looks, int(n))
	}
	if len(looks) == 0 {
		return nil, fmt.Errorf("no looks given: expected e.g. %s", defaultABLooks)
	}
	return looks, nil
}
