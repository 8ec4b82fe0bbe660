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
