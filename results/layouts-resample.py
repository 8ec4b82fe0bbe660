"""The false-alarm rate of `ab --layouts` on real builds, by resampling:
results/ab-layouts-raw.txt holds sessions of one change that computes
nothing new (d9035b0 against a38fc1c), each in its own function layout. Every
set of K distinct layouts is one A/A comparison across layouts: each row's
delta is the mean of the layouts' deltas, with Student's t interval on K-1
degrees of freedom, Holm across the rows at alpha 0.05, and the gate at +5%,
as analysis.CompareLayouts decides (without its floor from the sessions' own
noise, which only widens the interval: the rates here are upper bounds).

Usage: python3 results/layouts-resample.py results/ab-layouts-raw.txt

Assumptions: the sessions' printed deltas (Hodges-Lehmann estimates of the
paired log ratios) stand in for the means CompareLayouts takes; a layout with
two sessions (9) contributes one of them, each in turn. The sets overlap, so
the rates are estimates from 9 layouts, not from independent comparisons.
"""
import itertools
import math
import re
import sys

from statistics import mean, stdev

ROWS = ["boxroot-handle", "boxroot", "ocaml"]
# Student's t quantiles are computed by bisection on the CDF (regularized
# incomplete beta by continued fraction), so the script needs no scipy.


def betacf(a, b, x):
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / d
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        c = 1 + aa / c
        d = 1 / d
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        c = 1 + aa / c
        d = 1 / d
        h *= d * c
    return h


def ibeta(a, b, x):
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    lbt = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x)
    if x < (a + 1) / (a + b + 2):
        return math.exp(lbt) * betacf(a, b, x) / a
    return 1 - math.exp(lbt) * betacf(b, a, 1 - x) / b


def t_sf(t, df):
    """P(T > t) for t >= 0."""
    return 0.5 * ibeta(df / 2, 0.5, df / (df + t * t))


def t_quantile(p, df):
    lo, hi = 0.0, 1e6
    for _ in range(200):
        mid = (lo + hi) / 2
        if 1 - t_sf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def sessions(path):
    out, cur = [], None
    for line in open(path):
        m = re.match(r"(?:=== |## )layout (\d+)( again)?", line)
        if m:
            cur = {"layout": m.group(1)}
            out.append(cur)
            continue
        m = re.match(r"\|? ?(boxroot-handle|boxroot|ocaml)\s*\|?\s+\S+\s*\|?\s+\S+\s*\|?\s+([+-][\d.]+)%", line)
        if m and cur is not None and m.group(1) not in cur:
            cur[m.group(1)] = math.log1p(float(m.group(2)) / 100)
    return [s for s in out if all(r in s for r in ROWS)]


def judge(ys_by_row, alpha=0.05, gate=0.05):
    """Holm across rows; returns {row: (verdict, gate outcome)}."""
    k = len(next(iter(ys_by_row.values())))
    stats = {}
    for row, ys in ys_by_row.items():
        mu, se = mean(ys), stdev(ys) / math.sqrt(k)
        p = 1.0 if se == 0 else min(1.0, 2 * t_sf(abs(mu) / se, k - 1))
        stats[row] = (mu, se, p)
    order = sorted(stats, key=lambda r: stats[r][2])
    m, mult, stopped = len(order), {}, None
    for step, row in enumerate(order):
        mlt = m - step
        if stopped is None and not (mlt * stats[row][2] <= alpha):
            stopped = mlt
        mult[row] = stopped if stopped is not None else mlt
    out = {}
    for row, (mu, se, p) in stats.items():
        half = t_quantile(1 - alpha / mult[row] / 2, k - 1) * se
        lo, hi = mu - half, mu + half
        verdict = "slower" if lo > 0 else "faster" if hi < 0 else "~"
        g = "pass" if math.expm1(hi) < gate else "regression" if verdict != "~" and math.expm1(mu) > gate else "inconclusive"
        out[row] = (verdict, g)
    return out


def main():
    ss = sessions(sys.argv[1])
    by_layout = {}
    for s in ss:
        by_layout.setdefault(s["layout"], []).append(s)
    layouts = sorted(by_layout, key=int)
    print("sessions: %d, layouts: %s" % (len(ss), " ".join(layouts)))
    for s in ss:
        print("  layout %-3s " % s["layout"] + "  ".join("%s %+.2f%%" % (r, 100 * math.expm1(s[r])) for r in ROWS))
    print("K  sets  any significant row  any regression  rows passing (of 3 per set)")
    for k in (3, 4, 5, 6):
        sets = alarms = regressions = passes = 0
        for combo in itertools.combinations(layouts, k):
            for pick in itertools.product(*(by_layout[l] for l in combo)):
                res = judge({r: [s[r] for s in pick] for r in ROWS})
                sets += 1
                alarms += any(v != "~" for v, _ in res.values())
                regressions += any(g == "regression" for _, g in res.values())
                passes += sum(g == "pass" for _, g in res.values())
        print("%d  %4d  %4d (%.3f)         %4d (%.3f)    %.2f" % (k, sets, alarms, alarms / sets, regressions, regressions / sets, passes / sets))


main()
