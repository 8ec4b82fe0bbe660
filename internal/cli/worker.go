package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/impls"
	"github.com/rootbench/rootbench/parse"
	"github.com/rootbench/rootbench/workload/callback"
	"github.com/rootbench/rootbench/workload/msgpass"
)

// newWorkerCmd is the hidden command the harness starts once per measured
// run: it runs one workload, verifies it, and prints one JSON line.
//
// A msgpass run is harness.MeasurePasses: warmup-passes unmeasured warm-up
// passes (default 1; 0 measures as the workers before the passes parameter
// did), then the passes parameter's measured passes, each on a fresh
// implementation. A callback run is one measured pass: its runs are long
// enough already.
//
// With --cpu-time the line also holds the process's CPU time over exactly
// the measured passes (cpu_user_ns, cpu_sys_ns), read by the workload where
// it reads its pass's clock (harness.Pass.CPU); without it the line has
// no field a parent from before that flag would refuse.
//
// --describe prints what this worker accepts (harness.WorkerDescription) as
// one JSON line, the handshake harness.DescribeWorker reads before a session.
func newWorkerCmd() *cobra.Command {
	var workload, cellName, pin string
	var sets []string
	var describe, cpuTime bool
	cmd := &cobra.Command{
		Use:    "worker",
		Short:  "Run one measured run and print it as one JSON line (used by the harness)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if describe {
				return json.NewEncoder(os.Stdout).Encode(describeWorker(cmd.Flags()))
			}
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
				warmups := defaultWarmupPasses
				if err := applySets(sets, func(name, value string) error {
					return setMsgpassWorker(&p, &warmups, name, value)
				}); err != nil {
					return usageError(err)
				}
				if err := p.Validate(); err != nil {
					return usageError(err)
				}
				run, err = harness.MeasurePasses(p.Passes, warmUp(warmups, func() (harness.Pass, error) {
					res, err := e.RunMsgPass(cmd.Context(), p)
					return harness.Pass{Wall: res.Wall, CPU: res.CPU, Cells: res.Cells, Stats: res.Stats}, err
				}))
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
				var res callback.Result
				run, err = harness.Measure(func() (int64, map[string]int64, error) {
					var err error
					res, err = callback.Run(cmd.Context(), p, h)
					return res.Calls, nil, err
				})
				run.WallNs = res.Wall.Nanoseconds()
				run.CPUUserNs, run.CPUSysNs = res.CPU.User.Nanoseconds(), res.CPU.Sys.Nanoseconds()
			default:
				return usageErrorf("--workload %q: accepted: msgpass, callback", workload)
			}
			if err != nil {
				return &exitError{code: exitFailed, err: err}
			}
			if !cpuTime {
				run.CPUUserNs, run.CPUSysNs = 0, 0
			}
			return harness.WriteWorkerLine(os.Stdout, run)
		},
	}
	f := cmd.Flags()
	f.StringVar(&workload, "workload", "msgpass", "msgpass or callback")
	f.StringVar(&cellName, "cell", "", "cell (msgpass) or variant (callback)")
	f.StringArrayVar(&sets, "set", nil, "NAME=VALUE workload parameter (repeatable)")
	f.StringVar(&pin, "pin", "", "CPU list to pin this process to")
	f.BoolVar(&describe, "describe", false, "print what this worker accepts as one JSON line, and run nothing")
	f.BoolVar(&cpuTime, harness.FlagCPUTime, false, "report the process's CPU time over the measured passes (cpu_user_ns, cpu_sys_ns)")
	return cmd
}

// defaultWarmupPasses is the msgpass worker's warmup-passes default: the one
// warm-up pass harness.MeasurePasses runs.
const defaultWarmupPasses = 1

// setMsgpassWorker sets one msgpass parameter of the worker: warmup-passes,
// which the worker owns (msgpass.Params describe one pass and its measured
// repetitions, not how a process warms up), or one of msgpass.Params.
func setMsgpassWorker(p *msgpass.Params, warmups *int, name, value string) error {
	if strings.ReplaceAll(strings.ToLower(strings.TrimSpace(name)), "_", "-") == harness.ParamWarmupPasses {
		v, err := parse.Int(value)
		if err != nil {
			return fmt.Errorf("%s: %w", harness.ParamWarmupPasses, err)
		}
		if v < 0 || v > harness.MaxPasses {
			return fmt.Errorf("%s %s: out of range: accepted: 0 to %d", harness.ParamWarmupPasses, value, harness.MaxPasses)
		}
		*warmups = int(v)
		return nil
	}
	if _, err := msgpass.CanonicalName(name); err != nil {
		return fmt.Errorf("%w; the worker also accepts %s", err, harness.ParamWarmupPasses)
	}
	return p.Set(name, value)
}

// warmUp adapts pass to harness.MeasurePasses, whose first call of pass is
// its one unmeasured warm-up pass: that first call runs pass n times (not at
// all for n = 0, which makes the run one Measure of the measured passes, as
// the worker measured before it had a warm-up pass); every later call runs
// it once.
func warmUp(n int, pass func() (harness.Pass, error)) func() (harness.Pass, error) {
	warmed := false
	return func() (harness.Pass, error) {
		if warmed {
			return pass()
		}
		warmed = true
		var ps harness.Pass
		for range n {
			var err error
			if ps, err = pass(); err != nil {
				return ps, err
			}
		}
		return ps, nil
	}
}

// describeWorker says what this worker accepts, from the code that accepts
// it: the flags registered on flags, each workload's parameter names and
// defaults, and the cells the catalog can run.
func describeWorker(flags *pflag.FlagSet) harness.WorkerDescription {
	var names []string
	flags.VisitAll(func(f *pflag.Flag) {
		if f.Name != "help" {
			names = append(names, f.Name)
		}
	})
	defaults := defaultMsgpassParams().Map()
	defaults[harness.ParamWarmupPasses] = strconv.Itoa(defaultWarmupPasses)
	d := harness.WorkerDescription{
		Protocol:   harness.ProtocolVersion,
		Flags:      names,
		WarmupPass: defaultWarmupPasses > 0,
		CPUTime:    true,
		Workloads: map[string]harness.WorkloadDescription{
			"msgpass": {
				Params:   append(msgpass.ParamNames(), harness.ParamWarmupPasses),
				Cells:    msgpassCells(),
				Defaults: defaults,
			},
		},
	}
	if callback.Available {
		cp := callback.DefaultParams()
		d.Workloads["callback"] = harness.WorkloadDescription{
			Params: append([]string(nil), callback.ParamNames...),
			Cells:  callback.Variants(),
			Defaults: map[string]string{
				"variant": cp.Variant,
				"handle":  cp.Handle,
				"threads": strconv.Itoa(cp.Threads),
				"calls":   strconv.FormatInt(cp.Calls, 10),
			},
		}
	}
	return d
}

// msgpassCells are the spellings --cell accepts for msgpass and this build
// can run: the names and aliases of the catalog's available cells (test-only
// cells stay unlisted, as in `rootbench list`).
func msgpassCells() []string {
	var out []string
	for _, e := range impls.All() {
		if e.Available() {
			out = append(out, e.Name)
			out = append(out, e.Aliases...)
		}
	}
	sort.Strings(out)
	return out
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
