package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/impls"
	"github.com/rootbench/rootbench/internal/absession"
	"github.com/rootbench/rootbench/parse"
	"github.com/rootbench/rootbench/workload/callback"
)

func newCallbackCmd() *cobra.Command {
	var bf benchFlags
	var variants, handles string
	threads, calls := callbackFlag("threads", "1"), callbackFlag("calls", "1_000_000")
	cmd := &cobra.Command{
		Use:   "callback [flags]",
		Short: "Measure calls from C threads into Go: direct, through a dispatcher, with and without handles",
		Long: `Measure the cost of calling Go from C, as a native thread calling foo(x) = x + 100
N times: plain (C loops on a Go-owned thread), cthread (a pthread calls Go),
pipe (requests through a pipe to a serving goroutine), spin (a shared-memory slot
handed over with atomics to a goroutine locked to its thread), channel (C calls
Go, which forwards to a server goroutine over a channel). --handle makes every
call carry a handle the Go side resolves to a Go object.

Each variant is one benchmark on the same harness as 'rootbench run': worker
processes, interleaved runs, statistics, relative table, exports.`,
		Example: `  rootbench callback --variant plain,cthread,pipe,spin,channel --calls 1_000_000 -r 5
  rootbench callback --variant cthread --handle none,cgo-handle,boxroot-handle --threads 2`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !callback.Available {
				return usageErrorf("%s", callback.Unavailable)
			}
			s, err := bf.resolve()
			if err != nil {
				return usageError(err)
			}
			if err := planCallback(s, &bf, variants, handles, threads.text, calls.text); err != nil {
				return usageError(err)
			}
			return s.execute(cmd.Context())
		},
	}
	f := cmd.Flags()
	f.StringVar(&variants, "variant", strings.Join(callback.Variants(), ","), "comma-separated variants: "+strings.Join(callback.Variants(), ", "))
	f.StringVar(&handles, "handle", "none", "comma-separated handle kinds each call carries: "+strings.Join(handleChoices(), ", "))
	f.Var(threads, "threads", "C threads calling at once (total throughput)")
	f.Var(calls, "calls", "calls per run, over all threads")
	bf.register(cmd)
	return cmd
}

// handleChoices are the names --handle accepts: none and every registered
// handle.
func handleChoices() []string {
	return append([]string{callback.HandleNone}, impls.HandleNames()...)
}

// callbackFlag is a numeric callback parameter, checked by callback.Params.Set.
func callbackFlag(name, def string) *checkedValue {
	return &checkedValue{text: def, typ: "int", check: func(s string) error {
		p := callback.DefaultParams()
		return p.Set(name, s)
	}}
}

func planCallback(s *session, bf *benchFlags, variants, handles, threads, calls string) error {
	vs, err := parse.List(variants)
	if err != nil {
		return fmt.Errorf("--variant: %w", err)
	}
	hs, err := parse.List(handles)
	if err != nil {
		return fmt.Errorf("--handle: %w", err)
	}
	for _, h := range hs {
		if !strings.EqualFold(strings.TrimSpace(h), callback.HandleNone) {
			if _, err := impls.RootHandleFor(h); err != nil {
				return fmt.Errorf("--handle: %w", err)
			}
		}
	}
	base := callback.DefaultParams()
	if err := base.Set("threads", threads); err != nil {
		return fmt.Errorf("--threads: %w", err)
	}
	if err := base.Set("calls", calls); err != nil {
		return fmt.Errorf("--calls: %w", err)
	}
	lists, err := bf.parameterLists()
	if err != nil {
		return err
	}
	configs, varied, err := scan(lists, func(name string) (string, error) {
		switch name {
		case "threads", "calls":
			return name, nil
		}
		return "", fmt.Errorf("cannot scan %q (accepted: threads, calls; use --variant and --handle lists for the others)", name)
	})
	if err != nil {
		return err
	}
	if len(hs) > 1 {
		varied = append([]string{"handle"}, varied...)
	}
	var bs []harness.Benchmark
	for _, c := range configs {
		for _, h := range hs {
			for _, v := range vs {
				p := base
				p.Variant, p.Handle = v, h
				for _, kv := range c {
					if err := p.Set(kv[0], kv[1]); err != nil {
						return fmt.Errorf("--parameter-list %s=%s: %w", kv[0], kv[1], err)
					}
				}
				if err := p.Validate(); err != nil {
					return err
				}
				params := map[string]string{"variant": p.Variant, "handle": p.Handle,
					"threads": fmt.Sprint(p.Threads), "calls": fmt.Sprint(p.Calls)}
				sets := map[string]string{"handle": p.Handle, "threads": params["threads"], "calls": params["calls"]}
				args := append([]string{"worker", "--workload", "callback", "--cell", p.Variant}, bf.workerArgs()...)
				args = append(args, setArgs(sets)...)
				bs = append(bs, harness.Benchmark{Cell: p.Variant, Label: label(p.Variant, params, varied), Params: params, Args: args})
			}
		}
	}
	if err := bf.nameBenchmarks(bs); err != nil {
		return err
	}
	s.opts.Benchmarks = bs
	s.opts.Workload = "callback"
	s.opts.Unit = "call"
	s.opts.Params = absession.CommonParams(bs)
	return nil
}
