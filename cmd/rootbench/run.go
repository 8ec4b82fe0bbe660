package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/impls"
	"github.com/rootbench/rootbench/internal/parse"
	"github.com/rootbench/rootbench/workload/msgpass"
)

// defaultNIters is the batches per producer of the default comparison: small
// enough that `make run` (every cell, interleaved) takes about a minute on 2
// cores. The OCaml benchmark's full size is NITERS=100_000.
const defaultNIters = 2_000

// workloadFlag is one message-passing parameter: its flag, the OCaml
// benchmark's environment variable, and its help.
type workloadFlag struct {
	name, env, help string
	value           string
}

func msgpassFlags() []*workloadFlag {
	return []*workloadFlag{
		{name: "scheduler", env: "SCHEDULER", help: "parallel, concurrent or sequential (case-insensitive)"},
		{name: "max-delay", env: "MAX_DELAY", help: "a producer waits for its batches to be consumed every this many batches; <= 0 disables"},
		{name: "niters", env: "NITERS", help: "batches per producer (accepts 100_000)"},
		{name: "batch-size", env: "BATCH_SIZE", help: "cells per batch"},
		{name: "producers", env: "PRODUCERS", help: "producer workers (1 to 64)"},
		{name: "consumers", env: "CONSUMERS", help: "consumer workers (1 to 64)"},
		{name: "payload", env: "PAYLOAD", help: "static (pointers into a preallocated table) or fresh (a new heap object per cell)"},
		{name: "queue", env: "QUEUE", help: "shared (one Treiber stack) or per-consumer (one queue per consumer)"},
		{name: "max-outstanding", env: "MAX_OUTSTANDING", help: "back-pressure: at most this many cells in flight; 0 disables"},
		{name: "passes", env: "PASSES", help: "measured passes per run, after one unmeasured warm-up pass in the same worker (1 to 1000)"},
	}
}

func defaultMsgpassParams() msgpass.Params {
	p := msgpass.DefaultParams()
	p.NIters = defaultNIters
	return p
}

func newRunCmd() *cobra.Command {
	var bf benchFlags
	var cells string
	wfs := msgpassFlags()
	def := defaultMsgpassParams().Map()
	cmd := &cobra.Command{
		Use:   "run [flags]",
		Short: "Run the message-passing benchmark on one or more cells",
		Long: `Run the message-passing benchmark (OCaml boxroot's): producers create batches of
cells and push them on a lock-free stack; consumers pop them, check every value and
delete the cells. Each measured run is a fresh worker process; runs of different
cells are interleaved.

Parameters default to the OCaml benchmark's environment variables, so this works
verbatim:

  SCHEDULER=Parallel MAX_DELAY=128 NITERS=100_000 BATCH_SIZE=1024 CELL=boxroot rootbench run

A flag beats its environment variable. Numbers accept '_' separators.`,
		Example: `  rootbench run
  rootbench run --cell ocaml,boxroot,ref,cgo-handle --niters 2000 --runs 5
  rootbench run --cell boxroot,ref --parameter-list batch-size=16,256,4096 --export-json r.json
  rootbench run --cell all --gc-table --export-markdown results.md`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := bf.resolve()
			if err != nil {
				return usageError(err)
			}
			if err := planMsgpass(s, &bf, cells, cmd.Flags().Changed("cell"), wfs, cmd); err != nil {
				return usageError(err)
			}
			return s.execute(cmd.Context())
		},
	}
	f := cmd.Flags()
	f.StringVar(&cells, "cell", "", "comma-separated cells to compare, or all (env CELL; default: every available cell; see 'rootbench list')")
	for _, w := range wfs {
		f.StringVar(&w.value, w.name, "", fmt.Sprintf("%s (env %s; default %s)", w.help, w.env, def[w.name]))
	}
	bf.register(cmd)
	return cmd
}

// planMsgpass resolves cells and workload parameters into benchmarks.
func planMsgpass(s *session, bf *benchFlags, cellFlag string, cellChanged bool, wfs []*workloadFlag, cmd *cobra.Command) error {
	base := defaultMsgpassParams()
	// Environment first, then flags.
	for _, w := range wfs {
		if v, ok := os.LookupEnv(w.env); ok && strings.TrimSpace(v) != "" {
			if err := base.Set(w.name, v); err != nil {
				return fmt.Errorf("environment %s=%s: %w", w.env, v, err)
			}
		}
	}
	for _, w := range wfs {
		if cmd.Flags().Changed(w.name) {
			if err := base.Set(w.name, w.value); err != nil {
				return fmt.Errorf("--%w", err) // Set names the parameter: "--niters: ..."
			}
		}
	}
	cellList := cellFlag
	if !cellChanged {
		cellList = os.Getenv("CELL")
	}
	var entries []impls.Entry
	if strings.TrimSpace(cellList) == "" {
		entries = impls.Default()
	} else {
		names, err := parse.List(cellList)
		if err != nil {
			return fmt.Errorf("--cell: %w", err)
		}
		if entries, err = impls.Resolve(names); err != nil {
			return fmt.Errorf("--cell: %w", err)
		}
	}
	configs, varied, err := scan(bf.paramLists, msgpass.CanonicalName)
	if err != nil {
		return err
	}
	var bs []harness.Benchmark
	for _, c := range configs {
		p := base
		for _, kv := range c {
			if err := p.Set(kv[0], kv[1]); err != nil {
				return fmt.Errorf("--parameter-list %s=%s: %w", kv[0], kv[1], err)
			}
		}
		if err := p.Validate(); err != nil {
			if len(c) > 0 {
				return fmt.Errorf("configuration %v: %w", c, err)
			}
			return err
		}
		params := p.Map()
		for _, e := range entries {
			args := append([]string{"worker", "--workload", "msgpass", "--cell", e.Name}, bf.workerArgs()...)
			args = append(args, setArgs(params)...)
			bs = append(bs, harness.Benchmark{
				Cell:   e.Name,
				Label:  label(e.Name, params, varied),
				Params: params,
				Args:   args,
			})
		}
	}
	s.opts.Benchmarks = bs
	s.opts.Workload = "msgpass"
	s.opts.Unit = "cell"
	s.opts.Params = commonParams(bs)
	return nil
}
