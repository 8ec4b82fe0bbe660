package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/rootbench/rootbench/harness"
)

// abWorkload is the part of `rootbench ab` that reuses `rootbench run`'s
// workload flags (--cell, --niters, ..., --parameter-list, --max-memory) and
// plan, so that both sides measure exactly what `run` would. It is the only
// part of ab that depends on run's flag code.
type abWorkload struct {
	rf         runFlags
	paramLists []string
}

// register adds the workload flags to f.
func (w *abWorkload) register(f *pflag.FlagSet) {
	w.rf.workload = msgpassFlags()
	f.StringVar(&w.rf.cells, "cell", "", "comma-separated cells to compare, or all (env CELL; default: every available cell)")
	for _, wf := range w.rf.workload {
		f.Var(&wf.value, wf.name, fmt.Sprintf("%s (env %s)", wf.help, wf.env))
	}
	f.Var(&sizeValue{&w.rf.maxMemory}, "max-memory", "refuse a configuration whose estimated peak memory exceeds this, e.g. 8GiB (default: the memory available now; 0: no check)")
	f.StringArrayVar(&w.paramLists, "parameter-list", nil, "scan a parameter: NAME=v1,v2,... (repeatable; the cartesian product is run)")
}

// plan resolves the flags (and the OCaml benchmark's environment variables)
// into the benchmarks, as `run` does; pin is the --pin CPU list.
func (w *abWorkload) plan(cmd *cobra.Command, pin string) (bs []harness.Benchmark, workload, unit string, params map[string]string, err error) {
	s := &session{}
	bf := benchFlags{flags: cmd.Flags(), paramLists: w.paramLists, pin: pin}
	note, err := planMsgpass(s, &bf, &w.rf, cmd.Flags())
	if err != nil {
		return nil, "", "", nil, err
	}
	if note != "" {
		fmt.Fprintf(os.Stderr, "rootbench: %s\n", note)
	}
	return s.opts.Benchmarks, s.opts.Workload, s.opts.Unit, s.opts.Params, nil
}
