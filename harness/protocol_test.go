package harness

import (
	"strings"
)

// Texts of the workers that predate --describe, as builds ff81315 to
// 8b5e1bb print them (docs/records.md, "worker protocol").
const (
	oldHelp = `Run one measured run and print it as one JSON line (used by the harness)

Usage:
  rootbench worker [flags]

Flags:
      --cell string       cell (msgpass) or variant (callback)
  -h, --help              help for worker
      --pin string        CPU list to pin this process to
      --set stringArray   NAME=VALUE workload parameter (repeatable)
      --workload string   msgpass or callback (default "msgpass")
`
	oldCells     = "boxroot, boxroot-boxed, boxroot-handle, boxroot:eager-remote, boxroot:force-remote, boxroot:locked-remote, boxroot:no-reuse, bx-boxed, bxboxed, cgo, cgo-handle, direct, generational, ocaml, ocaml-ref, ref"
	oldParams    = "scheduler, max-delay, niters, batch-size, producers, consumers, payload, queue, max-outstanding"
	oldVariants  = "plain, cthread, pipe, spin, channel"
	oldCbParams  = "variant, handle, threads, calls"
	oldWorkloads = "msgpass, callback"
)

func split(list string) []string { return strings.Split(list, ", ") }

// oldInfo is what DescribeWorker learns from a worker before --describe
// (TestDescribeOldWorker checks it against the fake).
func oldInfo(name string, passes bool) *WorkerInfo {
	params := split(oldParams)
	fixed := map[string]string{ParamPasses: "1", ParamWarmupPasses: "0"}
	if passes {
		params = append(params, ParamPasses)
		fixed = map[string]string{ParamWarmupPasses: "1"}
	}
	return &WorkerInfo{
		Name: name, Exe: name, Source: SourceHelp, Protocol: 0,
		Workloads:  map[string][]string{"msgpass": params, "callback": split(oldCbParams)},
		Cells:      map[string][]string{"msgpass": split(oldCells), "callback": split(oldVariants)},
		Fixed:      map[string]map[string]string{"msgpass": fixed},
		Flags:      []string{"cell", "pin", "set", "workload"},
		WarmupPass: passes,
	}
}

// newInfo is a protocol 1 worker as its --describe gives it.
func newInfo(name string) *WorkerInfo {
	return &WorkerInfo{
		Name: name, Exe: name, Source: SourceDescribe, Protocol: 1,
		Workloads: map[string][]string{
			"msgpass":  append(split(oldParams), ParamPasses, ParamWarmupPasses),
			"callback": split(oldCbParams),
		},
		Cells: map[string][]string{"msgpass": split(oldCells), "callback": split(oldVariants)},
		Defaults: map[string]map[string]string{
			"msgpass": {"scheduler": "parallel", "max-delay": "128", "niters": "2000", "batch-size": "1024",
				"producers": "1", "consumers": "1", "payload": "static", "queue": "shared",
				"max-outstanding": "0", "passes": "3", "warmup-passes": "1"},
			"callback": {"variant": "plain", "handle": "none", "threads": "1", "calls": "1000000"},
		},
		Fixed:      map[string]map[string]string{},
		Flags:      []string{"cell", "describe", "pin", "set", "workload"},
		WarmupPass: true,
	}
}
