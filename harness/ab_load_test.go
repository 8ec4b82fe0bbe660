package harness

import "testing"

func TestLoadRange(t *testing.T) {
	t.Parallel()
	f := &ABFile{}
	if _, _, ok := f.LoadRange(); ok {
		t.Fatalf("LoadRange of an empty session: ok, want none")
	}
	run := func(load float64) Run { return Run{Env: &RunEnv{Load1: load}} }
	f.Base = &File{Results: []Result{{Runs: []Run{run(2.5), {}, run(0.5)}}}}
	f.Head = &File{Results: []Result{{Runs: []Run{run(6.1)}}}}
	lo, hi, ok := f.LoadRange()
	if !ok || lo != 0.5 || hi != 6.1 {
		t.Errorf("LoadRange = %v, %v, %v; want 0.5, 6.1, true", lo, hi, ok)
	}
}

func TestHighStealPairs(t *testing.T) {
	t.Parallel()
	run := func(pair int, high bool) Run { return Run{Pair: pair, Env: &RunEnv{HighSteal: high}} }
	f := &ABFile{
		Base: &File{Results: []Result{{Label: "a", Runs: []Run{run(1, true), run(2, false), run(3, true)}}, {Label: "b", Runs: []Run{run(1, false)}}}},
		Head: &File{Results: []Result{{Label: "a", Runs: []Run{run(1, true), run(2, true), run(3, false)}}, {Label: "b", Runs: []Run{run(1, true), {Pair: 2}}}}},
	}
	// a: pairs 1 (both), 2 (head), 3 (base); b: pair 1 (head); a warm-up
	// (pair 0) never counts.
	f.Base.Results[0].Runs = append(f.Base.Results[0].Runs, run(0, true))
	if got := f.highStealPairs(); got != 4 {
		t.Errorf("highStealPairs = %d, want 4", got)
	}
}
