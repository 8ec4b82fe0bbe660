package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/impls"
	"github.com/rootbench/rootbench/internal/absession"
	"github.com/rootbench/rootbench/parse"
	"github.com/rootbench/rootbench/workload/callback"
	"github.com/rootbench/rootbench/workload/msgpass"
)

// workFlags are ab's and bisect's flags that give benchmarks their own
// amount of work (absession.Work): --equal-time, --niters-for (msgpass)
// and --calls-for (callback).
type workFlags struct {
	equalTime           bool
	nitersFor, callsFor []string
}

func (w *workFlags) register(f *pflag.FlagSet) {
	f.BoolVar(&w.equalTime, "equal-time", true, fmt.Sprintf("time one unmeasured run of each benchmark on head first, then give each its own --niters (--calls) so that its runs take about as long as the median benchmark's: never more than asked, never less than 1/%.0f of it; both sides run the same work and rows stay per cell, so a slow cell gets as many pairs as the others", 1/harness.EqualTimeFloor))
	f.StringArrayVar(&w.nitersFor, "niters-for", nil, "CELL=N: run CELL at --niters N on both sides (repeatable; not sized by --equal-time)")
	f.StringArrayVar(&w.callsFor, "calls-for", nil, "callback workload: NAME=N: run the benchmarks of variant or handle NAME at N calls on both sides (repeatable; not sized by --equal-time)")
}

// resolve applies --niters-for or --calls-for to bs (their parameters) and
// returns the session's Work: nil when every benchmark runs the work
// asked. Every entry must name a benchmark and give a whole number of at
// least 1; each benchmark takes one entry at most.
func (w *workFlags) resolve(bs []harness.Benchmark, workload string) (*absession.Work, error) {
	param, flag, entries, other := "niters", "--niters-for", w.nitersFor, "--calls-for"
	if workload == "callback" {
		param, flag, entries, other = "calls", "--calls-for", w.callsFor, "--niters-for"
	}
	if len(w.nitersFor)+len(w.callsFor) > len(entries) {
		return nil, fmt.Errorf("%s is not a flag of the %s workload (use %s)", other, workload, flag)
	}
	work := &absession.Work{Param: param, EqualTime: w.equalTime, Given: map[string]int64{}}
	for _, e := range entries {
		name, value, ok := strings.Cut(e, "=")
		if !ok || strings.TrimSpace(name) == "" {
			return nil, fmt.Errorf("%s %q: accepted: NAME=N, e.g. %s", flag, e, example(workload))
		}
		n, err := checkWork(workload, param, value)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", flag, e, err)
		}
		matched := 0
		for i := range bs {
			b := &bs[i]
			if !runsAs(b, workload, name) {
				continue
			}
			if _, twice := work.Given[b.Label]; twice {
				return nil, fmt.Errorf("%s %s: %s is given its %s twice: give each benchmark one", flag, e, b.Label, param)
			}
			asked, _ := parse.Int(b.Params[param])
			work.Given[b.Label] = asked
			b.Params = cloneWith(b.Params, param, fmt.Sprint(n))
			matched++
		}
		if matched == 0 {
			return nil, fmt.Errorf("%s %s: no benchmark runs %q (accepted: %s)", flag, e, name, strings.Join(benchmarkNames(bs, workload), ", "))
		}
	}
	if !w.equalTime && len(work.Given) == 0 {
		return nil, nil
	}
	return work, nil
}

// runsAs reports whether benchmark b is the one NAME names: msgpass, its
// cell (by any of its names); callback, its variant or its handle.
func runsAs(b *harness.Benchmark, workload, name string) bool {
	name = strings.TrimSpace(name)
	if workload == "callback" {
		return strings.EqualFold(b.Params["variant"], name) || strings.EqualFold(b.Params["handle"], name)
	}
	e, err := impls.Lookup(name)
	return err == nil && e.Name == b.Cell
}

// benchmarkNames are the names runsAs accepts for bs, each once.
func benchmarkNames(bs []harness.Benchmark, workload string) []string {
	var out []string
	add := func(s string) {
		for _, o := range out {
			if o == s {
				return
			}
		}
		out = append(out, s)
	}
	for _, b := range bs {
		if workload == "callback" {
			add(b.Params["variant"])
			add(b.Params["handle"])
		} else {
			add(b.Cell)
		}
	}
	return out
}

func example(workload string) string {
	if workload == "callback" {
		return "cgo-handle=100_000"
	}
	return "cgo-handle=80"
}

// checkWork reads a run's work as the workload's own parameters accept it
// (msgpass niters, callback calls).
func checkWork(workload, param, value string) (int64, error) {
	if workload == "callback" {
		p := callback.DefaultParams()
		if err := p.Set(param, value); err != nil {
			return 0, err
		}
		if p.Calls < 1 {
			return 0, fmt.Errorf("%s %s: accepted: at least 1", param, value)
		}
		return p.Calls, nil
	}
	p := msgpass.DefaultParams()
	if err := p.Set(param, value); err != nil {
		return 0, err
	}
	return int64(p.NIters), p.Validate()
}

// cloneWith is a copy of params with name set to value.
func cloneWith(params map[string]string, name, value string) map[string]string {
	out := map[string]string{name: value}
	for k, v := range params {
		if k != name {
			out[k] = v
		}
	}
	return out
}
