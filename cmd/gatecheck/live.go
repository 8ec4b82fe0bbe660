package main

// The live check: real ab sessions, A/A and with a planted slowdown,
// interleaved, each read back from its --export-json file.

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/rootbench/rootbench/harness"
)

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
	// Wall time, the metric the trials' rows are read for (one row per
	// benchmark); the extra ab flags may choose another.
	args := []string{"ab", "--base", c.rootbench, "--head", c.rootbench, "--cell", c.cells, "--export-json", out, "--style", "none", "--metric", "wall"}
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
