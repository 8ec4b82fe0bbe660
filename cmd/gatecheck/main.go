// Command gatecheck measures the error rates of `rootbench ab`'s gate: it
// runs many A/A sessions (the same build on both sides: every regression
// reported is a false alarm) and sessions with a planted slowdown on the head
// side of one cell (a regression not reported is a miss), at ab's default
// budget unless told otherwise, and writes the false-alarm and detection
// rates, with 95% Wilson intervals and the command that produced them, to
// OUT.json and OUT.md.
//
// The planted slowdown needs a rootbench built with -tags rootbench_faulty:
// its head workers get ROOTBENCH_SLOW=CELL=PCT%, which makes every measured
// pass of CELL take (1+PCT/100) times as long. Trials of the different kinds
// are interleaved (A/A, 5%, 10%, A/A, ...) so that drift of the machine
// falls on all of them alike.
//
// Usage (see `make gate-check`):
//
//	go run ./cmd/gatecheck -rootbench bin/rootbench-faulty -aa 25 -planted 25 \
//	    -cells ocaml,boxroot,ref,cgo-handle -slow boxroot -pcts 5,10 -out results/gate-check [-- AB FLAGS]
//
// With -replay, gatecheck runs no session: it makes thousands of synthetic
// sessions from the pairs of recorded ab sessions (their --export-json files,
// .json or .json.gz) and judges them with the decision code ab runs
// (analysis.Sequential), at the recorded looks and pair counts, with a
// planted slowdown multiplying the slowed cell's head runs (see replay.go
// and sessions.go); it writes OUT.json and OUT.md (default
// results/gate-replay) and its section of the live report (-live):
//
//	go run ./cmd/gatecheck -replay [-sessions 4000] [-pcts 2,5,10,20] [-variant 45m] results/sessions/aa-*.json.gz
//
// Exit status: 0 when every trial ran (whatever the rates), 1 when a trial
// could not run (or a recorded session could not be replayed), 2 for bad
// flags.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/rootbench/rootbench/harness"
)

func main() {
	cfg, rcfg, err := parseFlags(os.Args[1:])
	if err != nil {
		fmt.Fprintf(os.Stderr, "gatecheck: %v\n", err)
		os.Exit(2)
	}
	if rcfg != nil {
		err = runReplay(rcfg)
	} else {
		err = run(cfg)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "gatecheck: %v\n", err)
		os.Exit(1)
	}
}

// config is what the flags say.
type config struct {
	rootbench string   // the tagged rootbench binary, both sides
	aa        int      // A/A trials
	planted   int      // trials per planted slowdown
	cells     string   // the --cell list of every session
	slow      string   // the cell slowed on the head side
	pcts      []string // planted slowdowns, e.g. "5", "10"
	out       string   // OUT.json and OUT.md
	abFlags   []string // extra ab flags
	args      []string // the command line, recorded
}

// parseFlags reads the flags of the live mode, or of the replay mode
// (-replay) whose configuration it then returns instead.
func parseFlags(args []string) (*config, *replayConfig, error) {
	fs := flag.NewFlagSet("gatecheck", flag.ContinueOnError)
	c := &config{args: append([]string{"gatecheck"}, args...)}
	pcts := fs.String("pcts", "5,10", "planted slowdowns in percent, comma-separated")
	fs.StringVar(&c.rootbench, "rootbench", "bin/rootbench-faulty", "rootbench built with -tags rootbench_faulty")
	fs.IntVar(&c.aa, "aa", 25, "A/A trials")
	fs.IntVar(&c.planted, "planted", 25, "trials per planted slowdown")
	fs.StringVar(&c.cells, "cells", "ocaml,boxroot,ref,cgo-handle", "cells of every session")
	fs.StringVar(&c.slow, "slow", "boxroot", "the cell slowed on the head side")
	fs.StringVar(&c.out, "out", "results/gate-check", "write OUT.json and OUT.md (replay: default results/gate-replay)")
	replay := fs.Bool("replay", false, "replay recorded ab sessions (the arguments: their --export-json files) instead of running sessions")
	rc := registerReplay(fs, args)
	if err := fs.Parse(args); err != nil {
		return nil, nil, err
	}
	if *replay {
		rc, err := rc.finish(fs)
		return nil, rc, err
	}
	c.abFlags = fs.Args()
	for _, p := range strings.Split(*pcts, ",") {
		p = strings.TrimSuffix(strings.TrimSpace(p), "%")
		if v, err := strconv.ParseFloat(p, 64); err != nil || !(v > 0 && v <= 1000) {
			return nil, nil, fmt.Errorf("-pcts %q: expected percentages from 0 to 1000, e.g. 5,10", *pcts)
		}
		c.pcts = append(c.pcts, p)
	}
	switch {
	case c.aa < 0 || c.planted < 0 || c.aa+c.planted == 0:
		return nil, nil, fmt.Errorf("-aa %d -planted %d: need at least one trial, and no negative count", c.aa, c.planted)
	case !strings.Contains(","+c.cells+",", ","+c.slow+","):
		return nil, nil, fmt.Errorf("-slow %s: not among -cells %s", c.slow, c.cells)
	}
	if _, err := os.Stat(c.rootbench); err != nil {
		return nil, nil, fmt.Errorf("-rootbench: %w (build it with: go build -tags rootbench_faulty -o %s ./cmd/rootbench)", err, c.rootbench)
	}
	return c, nil, nil
}

// kind is one kind of trial: A/A (pct "") or a planted slowdown.
type kind struct {
	name string // "A/A" or "planted 5%"
	pct  string
	n    int
}

func (c *config) kinds() []kind {
	ks := []kind{{name: "A/A", n: c.aa}}
	for _, p := range c.pcts {
		ks = append(ks, kind{name: "planted " + p + "%", pct: p, n: c.planted})
	}
	return ks
}

// run makes every trial, interleaving the kinds, and writes the report.
func run(c *config) error {
	tmp, err := os.MkdirTemp("", "gatecheck-")
	if err != nil {
		return fmt.Errorf("temporary directory: %w", err)
	}
	defer os.RemoveAll(tmp)
	tool, _ := harness.ToolOf(c.rootbench, nil)
	rep := &Report{
		Command:   strings.Join(c.args, " "),
		Rootbench: tool,
		Machine:   harness.CollectMachine(),
		Cells:     c.cells,
		Slow:      c.slow,
		ABFlags:   c.abFlags,
		StartedAt: time.Now().UTC(),
	}
	ks := c.kinds()
	most := 0
	for _, k := range ks {
		most = max(most, k.n)
	}
	total, done := 0, 0
	for _, k := range ks {
		total += k.n
	}
	for i := range most {
		for _, k := range ks {
			if i >= k.n {
				continue
			}
			done++
			tr, err := c.trial(tmp, k, i)
			if err != nil {
				return err
			}
			fmt.Fprintf(os.Stderr, "gatecheck: trial %d/%d (%s): %s in %s\n", done, total, k.name, tr.Outcome, harness.FormatDuration(time.Duration(tr.DurationNs)))
			rep.Trials = append(rep.Trials, tr)
		}
	}
	rep.FinishedAt = time.Now().UTC()
	rep.tally(ks)
	if err := rep.write(c.out); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "gatecheck: wrote %s.json and %s.md\n", c.out, c.out)
	return nil
}

// trial runs one ab session and reads its gate.
func (c *config) trial(tmp string, k kind, i int) (Trial, error) {
	out := filepath.Join(tmp, fmt.Sprintf("trial-%d-%s.json", i, strings.NewReplacer("/", "", " ", "-", "%", "").Replace(k.name)))
	args := []string{"ab", "--base", c.rootbench, "--head", c.rootbench, "--cell", c.cells, "--export-json", out, "--style", "none"}
	if k.pct != "" {
		args = append(args, "--head-env", fmt.Sprintf("ROOTBENCH_SLOW=%s=%s%%", c.slow, k.pct))
	}
	args = append(args, c.abFlags...)
	cmd := exec.Command(c.rootbench, args...)
	cmd.Env = withoutSlow(os.Environ())
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		return Trial{}, fmt.Errorf("%s trial %d: %w", k.name, i+1, err)
	}
	if code != 0 && code != 1 && code != 3 {
		return Trial{}, fmt.Errorf("%s trial %d: rootbench %s exited %d: %s", k.name, i+1, strings.Join(args, " "), code, strings.TrimSpace(stderr.String()))
	}
	f, err := harness.LoadAB(out)
	if err != nil {
		return Trial{}, fmt.Errorf("%s trial %d: %w", k.name, i+1, err)
	}
	if f.Gate == nil {
		return Trial{}, fmt.Errorf("%s trial %d: %s records no gate decision (exit %d): %s", k.name, i+1, out, code, strings.TrimSpace(stderr.String()))
	}
	tr := Trial{Kind: k.name, Planted: k.pct, ExitCode: code, Outcome: f.Gate.Outcome, Stopped: f.Stopped,
		DurationNs: time.Since(start).Nanoseconds(), Rows: map[string]string{}}
	if len(f.Looks) > 0 {
		tr.Runs = f.Looks[len(f.Looks)-1].Runs
	}
	for _, r := range f.Gate.Rows {
		tr.Rows[r.Label] = r.Outcome
	}
	return tr, nil
}

// withoutSlow drops ROOTBENCH_SLOW from an environment: only the head
// workers get it, through --head-env.
func withoutSlow(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "ROOTBENCH_SLOW=") {
			out = append(out, kv)
		}
	}
	return out
}
