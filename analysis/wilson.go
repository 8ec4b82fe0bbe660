package analysis

// This file gives a measured proportion its interval: the Wilson score
// interval of k successes in n trials. It assumes independent Bernoulli
// trials with one common success probability (every trial as likely to
// succeed as any other); it holds its level far better than the normal
// (Wald) interval near 0 and 1 and with few trials, and never leaves
// [0, 1]. gatecheck gives every false-alarm and detection rate it
// measures this interval.

import "math"

// WilsonConfidence is the confidence level of WilsonInterval.
const WilsonConfidence = 0.95

// wilsonZ is the standard normal quantile at 1 − (1 − WilsonConfidence)/2
// (TestWilsonZIsTheNormalQuantile checks it).
const wilsonZ = 1.959963984540054

// WilsonInterval is the 95% (WilsonConfidence) Wilson score interval of k
// successes in n independent trials: [0, 1] when n is 0.
func WilsonInterval(k, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	const z = wilsonZ
	p := float64(k) / float64(n)
	nf := float64(n)
	den := 1 + z*z/nf
	mid := (p + z*z/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	return math.Max(0, mid-half), math.Min(1, mid+half)
}
