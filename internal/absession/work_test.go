package absession

import (
	"context"
	"testing"

	"github.com/rootbench/rootbench/harness"
)

func TestSizesText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		sizes []harness.ABSize
		want  string
	}{
		{nil, ""},
		{[]harness.ABSize{{Label: "ocaml", Param: "niters", Asked: 2000, Work: 2000}, {Label: "cgo-handle", Param: "niters", Asked: 2000, Work: 80}},
			"equal time: cgo-handle at niters 80 (others 2000)"},
		{[]harness.ABSize{{Label: "ocaml", Param: "niters", Asked: 2000, Work: 2000}, {Label: "ref", Param: "niters", Asked: 2000, Work: 2000}},
			"equal time: no benchmark is slower than the median: every one keeps its niters"},
		{[]harness.ABSize{{Label: "cgo-handle", Param: "niters", Asked: 2000, Work: 100, Given: true}},
			"given by hand: cgo-handle at niters 100 (others 2000)"},
		{[]harness.ABSize{{Label: "a", Param: "calls", Asked: 1000, Work: 1000}, {Label: "b", Param: "calls", Asked: 1000, Work: 10},
			{Label: "c", Param: "calls", Asked: 1000, Work: 5, Given: true}},
			"equal time: b at calls 10; given by hand: c at calls 5 (others 1000)"},
		// A scan of the work itself: no single "others".
		{[]harness.ABSize{{Label: "x niters=10", Param: "niters", Asked: 10, Work: 10}, {Label: "x niters=20", Param: "niters", Asked: 20, Work: 10}},
			"equal time: x niters=20 at niters 10"},
	} {
		if got := SizesText(tc.sizes); got != tc.want {
			t.Errorf("SizesText(%+v) = %q, want %q", tc.sizes, got, tc.want)
		}
	}
}

// Sizes an earlier session decided are applied as they are, to the
// benchmarks they name, with no timing run; work given by hand is
// recorded with what was asked before.
func TestWorkDecide(t *testing.T) {
	t.Parallel()
	o := &harness.ABOptions{Benchmarks: []harness.Benchmark{
		{Label: "ocaml", Params: map[string]string{"niters": "2000"}},
		{Label: "cgo-handle", Params: map[string]string{"niters": "100"}},
	}}
	decided := []harness.ABSize{{Label: "cgo-handle", Param: "niters", Asked: 2000, Work: 80}}
	w := &Work{Param: "niters", EqualTime: true, Decided: decided}
	got, err := w.decide(context.Background(), nil, o)
	if err != nil || len(got) != 1 || got[0] != decided[0] {
		t.Errorf("decide with sizes decided = %+v, %v; want them as they are", got, err)
	}
	w = &Work{Param: "niters", Given: map[string]int64{"cgo-handle": 2000}}
	got, err = w.decide(context.Background(), nil, o)
	if want := (harness.ABSize{Label: "cgo-handle", Param: "niters", Asked: 2000, Work: 100, Given: true}); err != nil || len(got) != 1 || got[0] != want {
		t.Errorf("decide with work given = %+v, %v; want %+v", got, err, want)
	}
	o.Benchmarks[0].Params["niters"] = "many"
	if _, err := w.decide(context.Background(), nil, o); err == nil {
		t.Error("decide read niters=many")
	}
}
