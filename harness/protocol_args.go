package harness

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Rendering one worker run as a command line: CheckCell, Args, and the
// parameter spellings they compare.

// canonicalParam is a parameter name as the protocol compares it: lower
// case, '-' for '_' (batch-size for BATCH_SIZE), as the workers match names.
func canonicalParam(name string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(name)), "_", "-")
}

// sameValue compares parameter values as the workers read them: case and
// surrounding spaces ignored, and '_' separators in numbers (100_000).
func sameValue(a, b string) bool {
	norm := func(s string) string {
		s = strings.ToLower(strings.TrimSpace(s))
		if d := strings.ReplaceAll(s, "_", ""); d != "" && strings.Trim(d, "+-0123456789") == "" {
			return d
		}
		return s
	}
	return norm(a) == norm(b)
}

// canonicalParams is params under canonical names; two spellings of one
// name are an error.
func canonicalParams(params map[string]string) (map[string]string, error) {
	out := make(map[string]string, len(params))
	for _, k := range sortedKeys(params) {
		c := canonicalParam(k)
		if _, dup := out[c]; dup {
			return nil, fmt.Errorf("parameter %s given twice (as %s and another spelling)", c, k)
		}
		out[c] = params[k]
	}
	return out, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// accepts reports whether the worker's --set takes name for workload.
func (w *WorkerInfo) accepts(workload, name string) bool {
	return slices.Contains(w.Workloads[workload], name)
}

// fixed is the value the worker always runs name with, if it does not
// accept name and its value is known.
func (w *WorkerInfo) fixed(workload, name string) (string, bool) {
	v, ok := w.Fixed[workload][name]
	return v, ok
}

// workloadErr is nil if the worker runs workload.
func (w *WorkerInfo) workloadErr(workload string) error {
	if _, ok := w.Workloads[workload]; ok {
		return nil
	}
	return fmt.Errorf("%s has no %s workload (it has: %s)", w.Name, workload, strings.Join(sortedKeys(w.Workloads), ", "))
}

// CheckCell returns nil if the worker's --cell accepts cell for workload,
// case-insensitively, or if its cells are unknown; otherwise an error of one
// line listing what it accepts. Test-only cells (-tags rootbench_faulty) are
// never listed: callers that run them skip this check.
func (w *WorkerInfo) CheckCell(workload, cell string) error {
	if err := w.workloadErr(workload); err != nil {
		return err
	}
	cells := w.Cells[workload]
	if cells == nil {
		return nil
	}
	for _, c := range cells {
		if strings.EqualFold(c, strings.TrimSpace(cell)) {
			return nil
		}
	}
	return fmt.Errorf("%s has no %s cell %q (accepted: %s)", w.Name, workload, cell, strings.Join(cells, ", "))
}

// Args renders req as this worker's command line (its arguments after the
// executable): worker --workload W --cell C [--pin CPUS] [--cpu-time]
// --set NAME=VALUE... (--cpu-time when req asks for it and the worker
// measures it),
// parameters under their canonical names in sorted order. A parameter the
// worker does not accept is left out when the worker always runs with that
// value (Fixed: passes=1 on a worker before passes); otherwise it is an
// error, as are a workload the worker lacks and --pin on a worker without
// it. Args does not check the cell (see CheckCell).
func (w *WorkerInfo) Args(req WorkerRequest) ([]string, error) {
	if err := w.workloadErr(req.Workload); err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.Cell) == "" {
		return nil, fmt.Errorf("%s: a %s run needs a cell", w.Name, req.Workload)
	}
	args := []string{"worker", "--workload", req.Workload, "--cell", req.Cell}
	if req.Pin != "" {
		if !slices.Contains(w.Flags, "pin") {
			return nil, fmt.Errorf("%s has no --pin flag (its flags: %s)", w.Name, strings.Join(w.Flags, ", "))
		}
		args = append(args, "--pin", req.Pin)
	}
	if req.CPUTime && w.CPUTime {
		args = append(args, "--"+FlagCPUTime)
	}
	params, err := canonicalParams(req.Params)
	if err != nil {
		return nil, err
	}
	for _, name := range sortedKeys(params) {
		v := params[name]
		if w.accepts(req.Workload, name) {
			args = append(args, "--set", name+"="+v)
			continue
		}
		if f, ok := w.fixed(req.Workload, name); ok {
			if sameValue(f, v) {
				continue
			}
			return nil, fmt.Errorf("%s always runs %s %s=%s (it has no parameter %s): %s=%s cannot be expressed",
				w.Name, req.Workload, name, f, name, name, v)
		}
		return nil, fmt.Errorf("%s has no %s parameter %s (accepted: %s)",
			w.Name, req.Workload, name, strings.Join(w.Workloads[req.Workload], ", "))
	}
	return args, nil
}
