package cli

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/rootbench/rootbench/harness"
)

// prepareSides is the worker-protocol handshake of an A/B session (ab, and
// each bisect step), made before the first run: it learns what each side's
// worker accepts (harness.DescribeWorker: `worker --describe`, or --help and
// probes for builds that predate it), finds the parameters both can express
// for every benchmark (harness.MatchSides: the nearest equivalent where one
// side cannot, e.g. one pass without warm-up against a build before
// `passes`), and renders each side's own worker arguments. The notes go to
// notices; a benchmark one side cannot run as asked is an error of one line.
// The benchmarks' parameters become the ones both sides measure.
func prepareSides(ctx context.Context, o *harness.ABOptions, pin string, notices io.Writer) error {
	var infos [2]*harness.WorkerInfo
	for i, s := range []*harness.Side{&o.Base, &o.Head} {
		info, err := harness.DescribeWorker(ctx, s.Executable, s.Env)
		if err != nil {
			return fmt.Errorf("%s: %w", s.Name, err)
		}
		t, _ := harness.ToolOf(s.Executable, nil)
		info.Name = fmt.Sprintf("%s (%s)", s.Name, revision(t))
		infos[i] = info
	}
	var args [2]map[string][]string
	args[0], args[1] = map[string][]string{}, map[string][]string{}
	var notes []string
	for i := range o.Benchmarks {
		b := &o.Benchmarks[i]
		common, ns, err := harness.MatchSides(o.Workload, b.Params, infos[0], infos[1])
		if err != nil {
			return fmt.Errorf("%s: %w", b.Label, err)
		}
		for _, n := range ns {
			if !slices.Contains(notes, n) {
				notes = append(notes, n)
			}
		}
		for side, info := range infos {
			if err := info.CheckCell(o.Workload, b.Cell); err != nil {
				return err
			}
			a, err := info.Args(harness.WorkerRequest{Workload: o.Workload, Cell: b.Cell, Params: common, Pin: pin})
			if err != nil {
				return fmt.Errorf("%s: %w", b.Label, err)
			}
			args[side][b.Label] = a
		}
		b.Params = common
	}
	o.Params = commonParams(o.Benchmarks)
	o.Base.Args = func(b *harness.Benchmark) []string { return args[0][b.Label] }
	o.Head.Args = func(b *harness.Benchmark) []string { return args[1][b.Label] }
	for _, n := range notes {
		fmt.Fprintf(notices, "ab: %s\n", n)
	}
	return nil
}
