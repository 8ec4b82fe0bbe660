package absession

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/rootbench/rootbench/harness"
)

// prepare is the worker-protocol handshake of a session, made before the
// first run: it learns what each side's worker accepts
// (harness.DescribeWorker: `worker --describe`, or --help and probes for
// builds that predate it), finds the parameters both can express for every
// benchmark (harness.MatchSides: the nearest equivalent where one side
// cannot, e.g. one pass without warm-up against a build before `passes`),
// and renders each side's own worker arguments, pinned to pin. It returns
// the notes, each once; a benchmark one side cannot run as asked is an
// error of one line. The benchmarks' parameters become the ones both sides
// measure.
func prepare(ctx context.Context, o *harness.ABOptions, pin string) (infos [2]*harness.WorkerInfo, notes []string, err error) {
	for i, s := range []*harness.Side{&o.Base, &o.Head} {
		info, err := harness.DescribeWorker(ctx, s.Executable, s.Env)
		if err != nil {
			return infos, nil, fmt.Errorf("%s: %w", s.Name, err)
		}
		t, _ := harness.ToolOf(s.Executable, nil)
		info.Name = fmt.Sprintf("%s (%s)", s.Name, Revision(t))
		infos[i] = info
	}
	notes, err = render(o, infos, pin)
	return infos, notes, err
}

// render finds, for every benchmark, the parameters both sides (infos) can
// express and renders each side's worker arguments, pinned to pin (see
// prepare).
func render(o *harness.ABOptions, infos [2]*harness.WorkerInfo, pin string) ([]string, error) {
	args := [2]map[string][]string{{}, {}}
	var notes []string
	for i := range o.Benchmarks {
		b := &o.Benchmarks[i]
		common, ns, err := harness.MatchSides(o.Workload, b.Params, infos[0], infos[1])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", b.Label, err)
		}
		for _, n := range ns {
			if !slices.Contains(notes, n) {
				notes = append(notes, n)
			}
		}
		for side, info := range infos {
			if err := info.CheckCell(o.Workload, b.Cell); err != nil {
				return nil, err
			}
			a, err := info.Args(harness.WorkerRequest{Workload: o.Workload, Cell: b.Cell, Params: common, Pin: pin, CPUTime: true})
			if err != nil {
				return nil, fmt.Errorf("%s: %w", b.Label, err)
			}
			args[side][b.Label] = a
		}
		b.Params = common
	}
	o.Params = CommonParams(o.Benchmarks)
	o.Base.Args = func(b *harness.Benchmark) []string { return args[0][b.Label] }
	o.Head.Args = func(b *harness.Benchmark) []string { return args[1][b.Label] }
	return notes, nil
}

// CommonParams returns the parameters every benchmark shares, as
// harness.Options.Params and harness.ABOptions.Params hold them.
func CommonParams(bs []harness.Benchmark) map[string]string {
	if len(bs) == 0 {
		return nil
	}
	common := maps.Clone(bs[0].Params)
	if common == nil {
		common = map[string]string{}
	}
	for _, b := range bs[1:] {
		for k, v := range common {
			if b.Params[k] != v {
				delete(common, k)
			}
		}
	}
	return common
}
