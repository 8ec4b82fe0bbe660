package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// skipCalibrationInShort skips a Monte-Carlo calibration, which simulates
// what (a thousand tables, say), in -short.
func skipCalibrationInShort(t *testing.T, what string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("Monte-Carlo calibration over %s: skipped in -short (the full suite runs it)", what)
	}
}

// lognormal draws n times around center with a log-scale spread sigma.
func lognormal(rng *rand.Rand, n int, center, sigma float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = center * math.Exp(sigma*rng.NormFloat64())
	}
	return out
}

// TestFalseAlarmRate measures the default method's error rate on A/A
// tables (both sides drawn from one skewed distribution, fixed seed): with
// Holm, a table of 4 rows raises an alarm in at most alpha of the trials
// (plus sampling slack); without the correction, noticeably more often,
// which is why the correction is the default.
func TestFalseAlarmRate(t *testing.T) {
	t.Parallel()
	skipCalibrationInShort(t, "a thousand simulated tables")
	const trials, rows, n = 1000, 4, 8
	rng := rand.New(rand.NewPCG(14, 2))
	alarms := map[Correction]int{}
	for range trials {
		var bs, hs []spec
		for r := range rows {
			label := fmt.Sprintf("r%d", r)
			bs = append(bs, spec{Label: label, Samples: lognormal(rng, n, 1, 0.2)})
			hs = append(hs, spec{Label: label, Samples: lognormal(rng, n, 1, 0.2)})
		}
		base, head := fixture(bs...), fixture(hs...)
		for _, corr := range []Correction{CorrectionHolm, CorrectionNone} {
			c := mustFiles(t, base, head, Options{Correction: corr})
			for _, r := range c.Rows {
				if r.Verdict != Same {
					alarms[corr]++
					break
				}
			}
		}
	}
	slack := 3 * math.Sqrt(0.05*0.95/trials)
	holm, none := float64(alarms[CorrectionHolm])/trials, float64(alarms[CorrectionNone])/trials
	t.Logf("A/A tables of %d rows, %d+%d runs: any false alarm in %.1f%% (Holm), %.1f%% (no correction)", rows, n, n, 100*holm, 100*none)
	if holm > 0.05+slack {
		t.Errorf("Holm: false alarms in %.1f%% of tables, above 5%% + %.1f%%", 100*holm, 100*slack)
	}
	if none < 0.10 {
		t.Errorf("without correction only %.1f%% of 4-row tables alarm; expected about 1-0.95^4 = 18.5%%", 100*none)
	}
}

// TestIntervalCoverageAndPower measures, on a planted 10% slowdown with
// 5% log-normal noise, how often the one-row interval covers the true
// change (at least its 95% level, less sampling slack) and how often the
// gate at 5% calls it a regression.
func TestIntervalCoverageAndPower(t *testing.T) {
	t.Parallel()
	const trials, n = 1000, 10
	rng := rand.New(rand.NewPCG(14, 4))
	covered, detected, passed := 0, 0, 0
	for range trials {
		base := fixture(spec{Label: "x", Samples: lognormal(rng, n, 1, 0.05)})
		head := fixture(spec{Label: "x", Samples: lognormal(rng, n, 1.10, 0.05)})
		r := mustFiles(t, base, head, Options{Threshold: 0.05}).Rows[0]
		if r.DeltaLo <= 0.10 && 0.10 <= r.DeltaHi {
			covered++
		}
		switch r.Gate {
		case Regression:
			detected++
		case Pass:
			passed++
		}
	}
	cov, det := float64(covered)/trials, float64(detected)/trials
	t.Logf("planted +10%%, sigma 5%%, %d+%d runs: interval covers %.1f%%, gate 5%% detects %.1f%%, passes %d", n, n, 100*cov, 100*det, passed)
	if cov < 0.95-3*math.Sqrt(0.05*0.95/trials) {
		t.Errorf("coverage %.1f%%, below 95%%", 100*cov)
	}
	if det < 0.8 {
		t.Errorf("a 10%% slowdown found in only %.1f%% of trials", 100*det)
	}
	if passed > 0 {
		t.Errorf("a 10%% slowdown passed a 5%% gate %d times", passed)
	}
}
