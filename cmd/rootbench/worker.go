package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/impls"
	"github.com/rootbench/rootbench/workload/callback"
)

// newWorkerCmd is the hidden command the harness starts once per measured
// run: it runs one workload, verifies it, and prints one JSON line.
//
// A msgpass run is harness.MeasurePasses: one unmeasured warm-up pass, then
// the passes parameter's measured passes, each on a fresh implementation. A
// callback run is one measured pass: its runs are long enough already.
func newWorkerCmd() *cobra.Command {
	var workload, cellName, pin string
	var sets []string
	cmd := &cobra.Command{
		Use:    "worker",
		Short:  "Run one measured run and print it as one JSON line (used by the harness)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if pin != "" {
				if err := harness.Pin(pin); err != nil {
					return usageError(fmt.Errorf("--pin: %w", err))
				}
			}
			var run harness.Run
			var err error
			switch workload {
			case "msgpass":
				e, lerr := impls.Lookup(cellName)
				if lerr != nil {
					return usageError(lerr)
				}
				p := defaultMsgpassParams()
				if err := applySets(sets, p.Set); err != nil {
					return usageError(err)
				}
				if err := p.Validate(); err != nil {
					return usageError(err)
				}
				run, err = harness.MeasurePasses(p.Passes, func() (harness.Pass, error) {
					res, err := e.RunMsgPass(cmd.Context(), p)
					return harness.Pass{Wall: res.Wall, Cells: res.Cells, Stats: res.Stats}, err
				})
			case "callback":
				p := callback.DefaultParams()
				p.Variant = cellName
				if err := applySets(sets, p.Set); err != nil {
					return usageError(err)
				}
				if err := p.Validate(); err != nil {
					return usageError(err)
				}
				var h callback.RootHandle
				if !strings.EqualFold(strings.TrimSpace(p.Handle), callback.HandleNone) {
					if h, err = impls.RootHandleFor(p.Handle); err != nil {
						return usageError(fmt.Errorf("--set handle=%s: %w", p.Handle, err))
					}
				}
				var wall time.Duration
				run, err = harness.Measure(func() (int64, map[string]int64, error) {
					res, err := callback.Run(cmd.Context(), p, h)
					wall = res.Wall
					return res.Calls, nil, err
				})
				run.WallNs = wall.Nanoseconds()
			default:
				return usageErrorf("--workload %q: accepted: msgpass, callback", workload)
			}
			if err != nil {
				return &exitError{code: exitFailed, err: err}
			}
			return harness.WriteWorkerLine(os.Stdout, run)
		},
	}
	f := cmd.Flags()
	f.StringVar(&workload, "workload", "msgpass", "msgpass or callback")
	f.StringVar(&cellName, "cell", "", "cell (msgpass) or variant (callback)")
	f.StringArrayVar(&sets, "set", nil, "NAME=VALUE workload parameter (repeatable)")
	f.StringVar(&pin, "pin", "", "CPU list to pin this process to")
	return cmd
}

func applySets(sets []string, set func(name, value string) error) error {
	for _, kv := range sets {
		name, value, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("--set %q: expected NAME=VALUE", kv)
		}
		if err := set(name, value); err != nil {
			return fmt.Errorf("--set %s: %w", kv, err)
		}
	}
	return nil
}
