package harness

import (
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// A model of the schedule: for random looks, budgets, benchmark counts and
// decisions, the engine makes exactly the runs the specification says, and
// never more looks than planned.
func TestABScheduleModel(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		nb := rapid.IntRange(1, 3).Draw(t, "benchmarks")
		nl := rapid.IntRange(1, 4).Draw(t, "looks")
		var looks []int
		n := 0
		for range nl {
			n += 2 * rapid.IntRange(1, 3).Draw(t, "step")
			looks = append(looks, n)
		}
		budgetRounds := rapid.IntRange(0, 12).Draw(t, "budget rounds") // 0: no budget
		decideAt := rapid.IntRange(1, nl+1).Draw(t, "decide at look")
		const w = 10 * time.Millisecond
		roundTime := time.Duration(2*nb) * w
		var budget time.Duration
		if budgetRounds > 0 {
			// Room for budgetRounds rounds and half of the next.
			budget = time.Duration(budgetRounds)*roundTime + roundTime/2
		}
		fa := &fakeAB{cancel: -1, opt: ABOptions{
			Benchmarks: abBenchmarks(nb), Base: Side{Executable: "a"}, Head: Side{Executable: "b"},
			Rule:    fixedRule(func(_, _ *File, l Look) (bool, string) { return l.Number >= decideAt, "" }, looks...),
			MaxTime: budget,
		}}
		f, err := fa.run(t)
		if err != nil {
			t.Fatal(err)
		}
		// The specification.
		var wantLooks []Look
		rounds, stop := 0, ""
		for li := 0; stop == ""; {
			if rounds >= looks[li] {
				final := li == nl-1
				wantLooks = append(wantLooks, Look{Number: li + 1, Of: nl, Runs: rounds, Final: final})
				li++
				switch {
				case li >= decideAt:
					stop = StopDecided
				case final:
					stop = StopLastLook
				}
				continue
			}
			if budget > 0 && rounds > 0 && time.Duration(rounds+1)*roundTime > budget {
				if len(wantLooks) == 0 || wantLooks[len(wantLooks)-1].Runs < rounds {
					wantLooks = append(wantLooks, Look{Number: li + 1, Of: nl, Runs: rounds, Final: true, Budget: true})
				}
				stop = StopBudget
				continue
			}
			rounds++
		}
		if !slices.Equal(fa.looks, wantLooks) || f.Stopped != stop || len(fa.calls) != 2*nb*rounds {
			t.Fatalf("looks %+v stopped %q after %d calls; want %+v, %q, %d", fa.looks, f.Stopped, len(fa.calls), wantLooks, stop, 2*nb*rounds)
		}
		if len(fa.looks) > nl {
			t.Fatalf("%d looks, more than the %d planned", len(fa.looks), nl)
		}
		for b := range nb {
			if got, want := sidesOf(fa.calls, b), strings.Repeat("ABBA", rounds/2+1)[:2*rounds]; got != want {
				t.Fatalf("benchmark %d ran %s, want %s", b, got, want)
			}
		}
	})
}
