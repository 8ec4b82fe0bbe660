package cli

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/impls"
	"github.com/rootbench/rootbench/internal/absession"
	"github.com/rootbench/rootbench/parse"
	"github.com/rootbench/rootbench/workload/msgpass"
)

// defaultNIters is the batches per producer of the default comparison: small
// enough that `make run` (every cell, interleaved) takes about a minute on 2
// cores. The OCaml benchmark's full size is NITERS=100_000.
const defaultNIters = 2_000

// workloadFlag is one message-passing parameter: its flag, the OCaml
// benchmark's environment variable, its help, and the flag's value (checked
// by msgpass.Params.Set when given, applied after the environment).
type workloadFlag struct {
	name, env, help string
	typ             string // "int" or the enum's kind, shown in --help
	value           checkedValue
}

func msgpassFlags() []*workloadFlag {
	wfs := []*workloadFlag{
		{name: "scheduler", env: "SCHEDULER", typ: "name", help: "parallel, concurrent or sequential (case-insensitive)"},
		{name: "max-delay", env: "MAX_DELAY", typ: "int", help: "a producer waits for its batches to be consumed every this many batches; <= 0 disables"},
		{name: "niters", env: "NITERS", typ: "int", help: "batches per producer"},
		{name: "batch-size", env: "BATCH_SIZE", typ: "int", help: "cells per batch"},
		{name: "producers", env: "PRODUCERS", typ: "int", help: "producer workers (1 to 64)"},
		{name: "consumers", env: "CONSUMERS", typ: "int", help: "consumer workers (1 to 64)"},
		{name: "payload", env: "PAYLOAD", typ: "name", help: "static (pointers into a preallocated table) or fresh (a new heap object per cell)"},
		{name: "queue", env: "QUEUE", typ: "name", help: "shared (one Treiber stack) or per-consumer (one queue per consumer)"},
		{name: "max-outstanding", env: "MAX_OUTSTANDING", typ: "int", help: "back-pressure: at most this many cells in flight; 0 disables"},
		{name: "passes", env: "PASSES", typ: "int", help: "measured passes per run, after one unmeasured warm-up pass in the same worker (1 to 1000)"},
	}
	def := defaultMsgpassParams().Map()
	for _, w := range wfs {
		name := w.name
		w.value = checkedValue{text: def[name], typ: w.typ, check: func(s string) error {
			p := defaultMsgpassParams()
			return p.Set(name, s)
		}}
	}
	return wfs
}

func defaultMsgpassParams() msgpass.Params {
	p := msgpass.DefaultParams()
	p.NIters = defaultNIters
	return p
}

// runFlags are `rootbench run`'s own flags (benchFlags holds the shared ones).
type runFlags struct {
	cells     string
	workload  []*workloadFlag
	maxMemory int64
}

const envRule = `Parameters default to the OCaml benchmark's environment variables, so this works
verbatim:

  SCHEDULER=Parallel MAX_DELAY=128 NITERS=100_000 BATCH_SIZE=1024 CELL=boxroot rootbench run

A flag beats its environment variable, but every variable that is set must be
valid, even when a flag overrides it: NITERS=abc, CELL=nosuch or CELL= (empty)
is an error with or without --niters or --cell. Numbers accept '_' separators.

Before the first run, the plan is checked: each configuration's peak memory is
estimated (cells in flight x bytes per cell, doubled for the GC, plus the
worker itself; see workload/msgpass/memory.go) and a plan beyond the memory
available (MemAvailable in /proc/meminfo) is refused; --max-memory SIZE sets
the limit instead, 0 turns the check off.`

func newRunCmd() *cobra.Command {
	var bf benchFlags
	rf := runFlags{workload: msgpassFlags()}
	cmd := &cobra.Command{
		Use:   "run [flags]",
		Short: "Run the message-passing benchmark on one or more cells",
		Long: `Run the message-passing benchmark (OCaml boxroot's): producers create batches of
cells and push them on a lock-free stack; consumers pop them, check every value and
delete the cells. Each measured run is a fresh worker process; runs of different
cells are interleaved.

` + envRule,
		Example: `  rootbench run
  rootbench run --cell ocaml,boxroot,ref,cgo-handle --niters 2000 -r 5
  rootbench run -w 1 -r 3 -L batch-size 256,1024 --niters 200
  rootbench run --cell boxroot -P batch-size 256 1024 -D 256 --export-json r.json
  rootbench run --cell all --gc-table --export-markdown results.md`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := bf.resolve()
			if err != nil {
				return usageError(err)
			}
			note, err := planMsgpass(s, &bf, &rf, cmd.Flags())
			if err != nil {
				return usageError(err)
			}
			if note != "" {
				fmt.Fprintf(os.Stderr, "rootbench: %s\n", note)
			}
			return s.execute(cmd.Context())
		},
	}
	f := cmd.Flags()
	f.StringVar(&rf.cells, "cell", "", "comma-separated cells to compare, each once (a cell named twice is refused), or all (env CELL; default: every available cell; see 'rootbench list')")
	for _, w := range rf.workload {
		f.Var(&w.value, w.name, fmt.Sprintf("%s (env %s)", w.help, w.env))
	}
	f.Var(newSizeValue(&rf.maxMemory), "max-memory", "refuse a configuration whose estimated peak memory exceeds this, e.g. 8GiB (default: the memory available now; 0: no check)")
	bf.register(cmd)
	return cmd
}

// planMsgpass resolves cells and workload parameters into benchmarks and
// checks the plan. The note, when not empty, says which cells "all" left out.
func planMsgpass(s *session, bf *benchFlags, rf *runFlags, flags *pflag.FlagSet) (note string, err error) {
	base, err := rf.params(flags)
	if err != nil {
		return "", err
	}
	entries, note, err := rf.cellEntries(flags)
	if err != nil {
		return "", err
	}
	lists, err := bf.parameterLists()
	if err != nil {
		return "", err
	}
	configs, varied, err := scan(lists, msgpass.CanonicalName)
	if err != nil {
		return "", err
	}
	limit, limitFrom := memoryLimit(rf.maxMemory, flags.Changed("max-memory"))
	var bs []harness.Benchmark
	for _, c := range configs {
		p := base
		for _, kv := range c {
			if err := p.Set(kv[0], kv[1]); err != nil {
				return "", fmt.Errorf("--parameter-list %s=%s: %w", kv[0], kv[1], err)
			}
		}
		if err := p.Validate(); err != nil {
			if len(c) > 0 {
				return "", fmt.Errorf("configuration %v: %w", c, err)
			}
			return "", err
		}
		if err := checkMemory(p, c, limit, limitFrom); err != nil {
			return "", err
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
	if err := bf.nameBenchmarks(bs); err != nil {
		return "", err
	}
	s.opts.Benchmarks = bs
	s.opts.Workload = "msgpass"
	s.opts.Unit = "cell"
	s.opts.Params = absession.CommonParams(bs)
	return note, nil
}

// params returns the workload parameters: the defaults, then the
// environment, then the flags. Every variable that is set must be valid,
// whether a flag overrides it or not.
func (rf *runFlags) params(flags *pflag.FlagSet) (msgpass.Params, error) {
	p := defaultMsgpassParams()
	for _, w := range rf.workload {
		if v, ok := os.LookupEnv(w.env); ok {
			if err := p.Set(w.name, v); err != nil {
				return p, fmt.Errorf("environment %s=%s: %w", w.env, v, err)
			}
		}
	}
	for _, w := range rf.workload {
		if flags.Changed(w.name) {
			if err := p.Set(w.name, w.value.text); err != nil {
				return p, fmt.Errorf("--%w", err) // Set names the parameter: "--niters: ..."
			}
		}
	}
	return p, nil
}

// cellEntries returns the cells to run: --cell, else CELL, else the default
// set. CELL must be valid when set, even when --cell overrides it.
func (rf *runFlags) cellEntries(flags *pflag.FlagSet) ([]impls.Entry, string, error) {
	env, envSet := os.LookupEnv("CELL")
	var entries []impls.Entry
	var note string
	if envSet {
		var err error
		if entries, note, err = resolveCells(env); err != nil {
			return nil, "", fmt.Errorf("environment CELL=%s: %w", env, err)
		}
	}
	switch {
	case flags.Changed("cell"):
		entries, note, err := resolveCells(rf.cells)
		if err != nil {
			return nil, "", fmt.Errorf("--cell: %w", err)
		}
		return entries, note, nil
	case envSet:
		return entries, note, nil
	}
	return impls.Default(), leftOutNote("the default cell set"), nil
}

// resolveCells resolves a --cell (or CELL) list; an empty list is an error,
// not "every cell", and so is a cell named twice (by its name or an
// alias): each cell is one benchmark, run once per round. "all" with named
// cells runs each of them once. The note says which cells "all" left out.
func resolveCells(list string) ([]impls.Entry, string, error) {
	if strings.TrimSpace(list) == "" {
		return nil, "", fmt.Errorf("empty cell list %q: accepted: comma-separated cells (see 'rootbench list') or all", list)
	}
	names, err := parse.List(list)
	if err != nil {
		return nil, "", err
	}
	entries, err := impls.Resolve(names)
	if err != nil {
		return nil, "", err
	}
	named := map[string]string{} // cell name -> how the list first named it
	for _, n := range names {
		if strings.EqualFold(n, "all") {
			continue
		}
		e, err := impls.Lookup(n) // Resolve found every name
		if err != nil {
			return nil, "", err
		}
		if first, ok := named[e.Name]; ok {
			return nil, "", fmt.Errorf("cell list %q names %s twice (%s, %s): list each cell once; for more runs of it, raise --runs", list, e.Name, first, n)
		}
		named[e.Name] = n
	}
	for _, n := range names {
		if strings.EqualFold(strings.TrimSpace(n), "all") {
			return entries, leftOutNote("--cell all"), nil
		}
	}
	return entries, "", nil
}

// leftOutNote says which listed cells this build cannot run, in one line,
// or returns "" when it runs them all.
func leftOutNote(what string) string {
	var out []string
	for _, e := range impls.All() {
		if !e.Available() {
			out = append(out, fmt.Sprintf("%s (%s)", e.Name, e.Unavailable))
		}
	}
	if len(out) == 0 {
		return ""
	}
	return fmt.Sprintf("%s leaves out %s", what, strings.Join(out, ", "))
}
