package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/workload/callback"
)

// abWorkload is the part of `rootbench ab` that reuses `rootbench run`'s
// workload flags (--cell, --niters, ..., --parameter-list, --max-memory) and
// plan, so that both sides measure exactly what `run` would. It is the only
// part of ab that depends on run's flag code.
type abWorkload struct {
	rf         runFlags
	paramLists []string
	// kind is msgpass or callback; the callback flags mirror `callback`'s.
	kind              string
	note              string // which cells "all" (or the default) left out
	variants, handles string
	threads, calls    *checkedValue
}

// callbackOnly are ab's flags that only the callback workload takes.
var callbackOnly = []string{"variant", "handle", "threads", "calls"}

// register adds the workload flags to f.
func (w *abWorkload) register(f *pflag.FlagSet) {
	w.rf.workload = msgpassFlags()
	f.StringVar(&w.rf.cells, "cell", "", "comma-separated cells to compare, each once, or all (env CELL; default: every available cell)")
	for _, wf := range w.rf.workload {
		f.Var(&wf.value, wf.name, fmt.Sprintf("%s (env %s)", wf.help, wf.env))
	}
	f.Var(newSizeValue(&w.rf.maxMemory), "max-memory", "refuse a configuration whose estimated peak memory exceeds this, e.g. 8GiB (default: the memory available now; 0: no check)")
	f.StringArrayVar(&w.paramLists, "parameter-list", nil, "scan a parameter: NAME=v1,v2,... (repeatable; the cartesian product is run)")
	f.StringVar(&w.kind, "workload", "msgpass", "the workload both sides run: msgpass (cells; the flags of 'run') or callback (the flags of 'callback': --variant, --handle, --threads, --calls)")
	w.threads, w.calls = callbackFlag("threads", "1"), callbackFlag("calls", "1_000_000")
	f.StringVar(&w.variants, "variant", "cthread", "callback workload: comma-separated variants: "+strings.Join(callback.Variants(), ", "))
	f.StringVar(&w.handles, "handle", "none,cgo-handle,boxroot-handle", "callback workload: comma-separated handle kinds each call carries: "+strings.Join(handleChoices(), ", "))
	f.Var(w.threads, "threads", "callback workload: C threads calling at once")
	f.Var(w.calls, "calls", "callback workload: calls per run, over all threads")
}

// plan resolves the flags (and the OCaml benchmark's environment variables)
// into the benchmarks, as `run` does; pin is the --pin CPU list.
func (w *abWorkload) plan(cmd *cobra.Command, pin string) (bs []harness.Benchmark, workload, unit string, params map[string]string, err error) {
	s := &session{}
	bf := benchFlags{flags: cmd.Flags(), paramLists: w.paramLists, pin: pin}
	switch w.kind {
	case "msgpass":
		for _, name := range callbackOnly {
			if cmd.Flags().Changed(name) {
				return nil, "", "", nil, fmt.Errorf("--%s is a flag of the callback workload: add --workload callback", name)
			}
		}
	case "callback":
		var msgpassOnly []string
		cmd.Flags().Visit(func(f *pflag.Flag) {
			if f.Name == "cell" || f.Name == "max-memory" || slices.ContainsFunc(w.rf.workload, func(wf *workloadFlag) bool { return wf.name == f.Name }) {
				msgpassOnly = append(msgpassOnly, "--"+f.Name)
			}
		})
		if len(msgpassOnly) > 0 {
			return nil, "", "", nil, fmt.Errorf("%s: not a flag of the callback workload (accepted: --variant, --handle, --threads, --calls, --parameter-list)", strings.Join(msgpassOnly, ", "))
		}
		if !callback.Available {
			return nil, "", "", nil, fmt.Errorf("--workload callback: %s", callback.Unavailable)
		}
		if err := planCallback(s, &bf, w.variants, w.handles, w.threads.text, w.calls.text); err != nil {
			return nil, "", "", nil, err
		}
		return s.opts.Benchmarks, s.opts.Workload, s.opts.Unit, s.opts.Params, nil
	default:
		return nil, "", "", nil, fmt.Errorf("--workload %q: accepted: msgpass, callback", w.kind)
	}
	note, err := planMsgpass(s, &bf, &w.rf, cmd.Flags())
	if err != nil {
		return nil, "", "", nil, err
	}
	// Said once the whole command line is accepted (abPlan.execute), so
	// that a refusal stays one line.
	w.note = note
	return s.opts.Benchmarks, s.opts.Workload, s.opts.Unit, s.opts.Params, nil
}
