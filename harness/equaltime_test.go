package harness

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

func TestEqualTimeWork(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	for _, tc := range []struct {
		asked []int64
		took  []time.Duration
		want  []int64
	}{
		// ocaml and cgo-handle at niters 2000: cgo-handle's runs take 25
		// times ocaml's, so it gets a 25th of the work.
		{[]int64{2000, 2000}, []time.Duration{40 * ms, 1000 * ms}, []int64{2000, 80}},
		// The median of four (lower): the second fastest's time.
		{[]int64{2000, 2000, 2000, 2000}, []time.Duration{10 * ms, 20 * ms, 50 * ms, 400 * ms}, []int64{2000, 2000, 800, 100}},
		// The floor: a 64th of the asked work at least.
		{[]int64{6400, 6400}, []time.Duration{ms, 1000 * ms}, []int64{6400, 100}},
		{[]int64{10, 10}, []time.Duration{ms, 1000 * ms}, []int64{10, 1}},
		// Unknown times keep their work and stay out of the median.
		{[]int64{100, 100, 100}, []time.Duration{0, 10 * ms, 20 * ms}, []int64{100, 100, 50}},
		{[]int64{100}, []time.Duration{0}, []int64{100}},
		{nil, nil, nil},
	} {
		if got := EqualTimeWork(tc.asked, tc.took); !slices.Equal(got, tc.want) {
			t.Errorf("EqualTimeWork(%v, %v) = %v, want %v", tc.asked, tc.took, got, tc.want)
		}
	}
}

// The sizing's promises, for any asked work and times: never more work
// than asked, never less than the floor; a benchmark no slower than the
// median keeps its work; one sized between the bounds takes the median's
// time within the time of half a unit of its work; a slower benchmark never
// gets more work than a faster one asked as much.
func TestEqualTimeWorkProperties(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 12).Draw(t, "n")
		asked := make([]int64, n)
		took := make([]time.Duration, n)
		for i := range n {
			asked[i] = rapid.Int64Range(1, 1_000_000).Draw(t, "asked")
			took[i] = time.Duration(rapid.Int64Range(0, int64(time.Minute)).Draw(t, "took"))
		}
		got := EqualTimeWork(asked, took)
		var known []time.Duration
		for i := range n {
			if took[i] > 0 {
				known = append(known, took[i])
			}
		}
		slices.Sort(known)
		for i := range n {
			floor := max(1, int64(math.Ceil(float64(asked[i])*EqualTimeFloor)))
			if got[i] > asked[i] || got[i] < min(floor, asked[i]) {
				t.Fatalf("benchmark %d: %d of %d asked, floor %d", i, got[i], asked[i], floor)
			}
			if took[i] <= 0 {
				if got[i] != asked[i] {
					t.Fatalf("benchmark %d, of unknown time, sized to %d of %d", i, got[i], asked[i])
				}
				continue
			}
			target := known[(len(known)-1)/2]
			if took[i] <= target && got[i] != asked[i] {
				t.Fatalf("benchmark %d, no slower than the median, sized to %d of %d", i, got[i], asked[i])
			}
			perUnit := float64(took[i]) / float64(asked[i])
			if got[i] > floor && got[i] < asked[i] && math.Abs(float64(got[i])*perUnit-float64(target)) > perUnit/2+1e-6*float64(target) {
				t.Fatalf("benchmark %d: %d units at %.1f ns take %.0f ns, want the median's %d", i, got[i], perUnit, float64(got[i])*perUnit, target)
			}
			for j := range n {
				if took[j] > 0 && asked[j] == asked[i] && took[j] > took[i] && got[j] > got[i] {
					t.Fatalf("benchmark %d (%v) got %d, slower benchmark %d (%v) got %d", i, took[i], got[i], j, took[j], got[j])
				}
			}
		}
	})
}

// TimeEach runs each benchmark once with the side's arguments.
func TestTimeEach(t *testing.T) {
	t.Parallel()
	opt := fakeOptions(t, bench("a", "ok", "100"), bench("b", "exit3"))
	side := Side{Name: "head", Executable: opt.Executable, Env: opt.Env}
	runs, err := TimeEach(context.Background(), side, opt.Benchmarks, time.Minute, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || runs[0].Failed || runs[0].WallNs <= 0 || runs[0].Cells != 100 || !runs[1].Failed {
		t.Errorf("runs %+v: want a's measured, b's failed", runs)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := TimeEach(ctx, side, opt.Benchmarks, 0, t.TempDir()); err == nil {
		t.Error("TimeEach after its context ended: no error")
	}
}
