package cli

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/parse"
)

// maxScanValues bounds the values of one --parameter-scan: more is a typo
// (a step forgotten), not a plan.
const maxScanValues = 1000

// parameterLists returns every scan asked for as NAME=V1,V2,... lists: the
// --parameter-list flags, then --parameter-scan expanded with its step.
func (b *benchFlags) parameterLists() ([]string, error) {
	lists := append([]string(nil), b.paramLists...)
	if !b.flags.Changed("parameter-scan") {
		return lists, nil
	}
	l, err := expandScan(b.paramScan, int64(b.paramStep))
	if err != nil {
		return nil, fmt.Errorf("--parameter-scan: %w", err)
	}
	return append(lists, l), nil
}

// expandScan turns "NAME=MIN:MAX" and a step into "NAME=MIN,MIN+STEP,...",
// every value at most MAX.
func expandScan(spec string, step int64) (string, error) {
	const accepted = "accepted: NAME MIN MAX (or NAME=MIN:MAX) with whole numbers MIN <= MAX, e.g. -P batch-size 256 1024 -D 256"
	name, rng, ok := strings.Cut(spec, "=")
	lo, hi, ok2 := strings.Cut(rng, ":")
	if !ok || !ok2 || strings.TrimSpace(name) == "" {
		return "", fmt.Errorf("%q: %s", spec, accepted)
	}
	min, err := parse.Int(lo)
	if err != nil {
		return "", fmt.Errorf("%s MIN: %w", name, err)
	}
	max, err := parse.Int(hi)
	if err != nil {
		return "", fmt.Errorf("%s MAX: %w", name, err)
	}
	if min > max {
		return "", fmt.Errorf("%s %d %d: MIN is above MAX: %s", name, min, max, accepted)
	}
	if step < 1 {
		return "", fmt.Errorf("step %d: accepted: a whole number from 1", step)
	}
	// (max-min)/step+1 values; computed in uint64 so that the span of the
	// whole int64 range does not overflow.
	if n := uint64(max-min)/uint64(step) + 1; n > maxScanValues {
		return "", fmt.Errorf("%s from %d to %d by %d is %d values, more than %d: raise --parameter-step-size", name, min, max, step, n, maxScanValues)
	}
	var values []string
	for v := min; ; v += step {
		values = append(values, strconv.FormatInt(v, 10))
		if v > max-step { // the next value would pass max (or overflow)
			break
		}
	}
	return name + "=" + strings.Join(values, ","), nil
}

// scan expands parameter lists into configurations: each is a list of
// (name, value) settings, the cartesian product in flag order.
func scan(lists []string, canon func(string) (string, error)) ([][][2]string, []string, error) {
	configs := [][][2]string{nil}
	var varied []string
	seen := map[string]bool{}
	for _, l := range lists {
		name, values, err := parse.ParameterList(l)
		if err != nil {
			return nil, nil, fmt.Errorf("--parameter-list: %w", err)
		}
		if name, err = canon(name); err != nil {
			return nil, nil, fmt.Errorf("--parameter-list %s: %w", l, err)
		}
		if seen[name] {
			return nil, nil, fmt.Errorf("--parameter-list: %s is scanned twice", name)
		}
		seen[name] = true
		varied = append(varied, name)
		var next [][][2]string
		for _, c := range configs {
			for _, v := range values {
				nc := append(append([][2]string(nil), c...), [2]string{name, v})
				next = append(next, nc)
			}
		}
		configs = next
	}
	return configs, varied, nil
}

// nameBenchmarks applies --command-name: either one name per benchmark, in
// the order they are planned, or one template for all. In both, {cell} and
// {PARAMETER} (any parameter of the benchmark, e.g. {batch-size}) are
// replaced by the benchmark's values. Names must come out distinct.
func (b *benchFlags) nameBenchmarks(bs []harness.Benchmark) error {
	names := b.commandNames
	if len(names) == 0 {
		return nil
	}
	if len(names) != 1 && len(names) != len(bs) {
		return fmt.Errorf("--command-name given %d times for %d benchmarks: accepted: once per benchmark, or once as a template using {cell} and parameters such as {batch-size}", len(names), len(bs))
	}
	seen := map[string]int{}
	for i := range bs {
		tmpl := names[0]
		if len(names) > 1 {
			tmpl = names[i]
		}
		name := expandName(tmpl, bs[i])
		if strings.TrimSpace(name) == "" {
			return fmt.Errorf("--command-name %q: empty name: accepted: a non-empty name", tmpl)
		}
		if j, dup := seen[name]; dup {
			return fmt.Errorf("--command-name: benchmarks %d and %d are both named %q: names must differ (use {cell} or a scanned parameter such as {batch-size})", j+1, i+1, name)
		}
		seen[name] = i
		bs[i].Label = name
	}
	return nil
}

// expandName replaces {cell} and {PARAMETER} in a name template.
func expandName(tmpl string, b harness.Benchmark) string {
	pairs := []string{"{cell}", b.Cell}
	for k, v := range b.Params {
		pairs = append(pairs, "{"+k+"}", v)
	}
	return strings.NewReplacer(pairs...).Replace(tmpl)
}

// label names a configuration: the cell, plus the scanned parameters.
func label(cell string, params map[string]string, varied []string) string {
	parts := []string{cell}
	for _, n := range varied {
		parts = append(parts, n+"="+params[n])
	}
	return strings.Join(parts, " ")
}

// setArgs renders parameters as worker --set flags, in a stable order.
func setArgs(params map[string]string) []string {
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var args []string
	for _, k := range keys {
		args = append(args, "--set", k+"="+params[k])
	}
	return args
}
