package main

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/rootbench/rootbench/harness"
)

// abWorkload is the part of `rootbench ab` that reuses `rootbench run`'s
// workload flags (--cell, --niters, ..., --parameter-list) and plan, so that
// both sides measure exactly what `run` would. It is the only part of ab
// that depends on run's flag code.
type abWorkload struct {
	cells      string
	flags      []*workloadFlag
	paramLists []string
}

// register adds the workload flags to f.
func (w *abWorkload) register(f *pflag.FlagSet) {
	w.flags = msgpassFlags()
	def := defaultMsgpassParams().Map()
	f.StringVar(&w.cells, "cell", "", "comma-separated cells to compare, or all (env CELL; default: every available cell)")
	for _, wf := range w.flags {
		f.StringVar(&wf.value, wf.name, "", fmt.Sprintf("%s (env %s; default %s)", wf.help, wf.env, def[wf.name]))
	}
	f.StringArrayVar(&w.paramLists, "parameter-list", nil, "scan a parameter: NAME=v1,v2,... (repeatable; the cartesian product is run)")
}

// plan resolves the flags (and the OCaml benchmark's environment variables)
// into the benchmarks, as `run` does; pin is the --pin CPU list.
func (w *abWorkload) plan(cmd *cobra.Command, pin string) (bs []harness.Benchmark, workload, unit string, params map[string]string, err error) {
	s := &session{}
	bf := benchFlags{paramLists: w.paramLists, pin: pin}
	if err := planMsgpass(s, &bf, w.cells, cmd.Flags().Changed("cell"), w.flags, cmd); err != nil {
		return nil, "", "", nil, err
	}
	return s.opts.Benchmarks, s.opts.Workload, s.opts.Unit, s.opts.Params, nil
}
