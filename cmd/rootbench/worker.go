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
// run: it runs one workload once, verifies it, and prints one JSON line.
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
			var fn func() (time.Duration, int64, map[string]int64, error)
			switch workload {
			case "msgpass":
				e, err := impls.Lookup(cellName)
				if err != nil {
					return usageError(err)
				}
				p := defaultMsgpassParams()
				if err := applySets(sets, p.Set); err != nil {
					return usageError(err)
				}
				if err := p.Validate(); err != nil {
					return usageError(err)
				}
				fn = func() (time.Duration, int64, map[string]int64, error) {
					res, err := e.RunMsgPass(cmd.Context(), p)
					return res.Wall, res.Cells, res.Stats, err
				}
			case "callback":
				p := callback.DefaultParams()
				p.Variant = cellName
				if err := applySets(sets, p.Set); err != nil {
					return usageError(err)
				}
				if err := p.Validate(); err != nil {
					return usageError(err)
				}
				fn = func() (time.Duration, int64, map[string]int64, error) {
					res, err := callback.Run(cmd.Context(), p)
					return res.Wall, res.Calls, nil, err
				}
			default:
				return usageErrorf("--workload %q: accepted: msgpass, callback", workload)
			}
			var wall time.Duration
			run, err := harness.Measure(func() (int64, map[string]int64, error) {
				w, cells, stats, err := fn()
				wall = w
				return cells, stats, err
			})
			if err != nil {
				return &exitError{code: exitFailed, err: err}
			}
			run.WallNs = wall.Nanoseconds()
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
