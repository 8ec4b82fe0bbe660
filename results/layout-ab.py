"""Summarise an A/B comparison of two builds, each built in several function
layouts (go test -c -ldflags=-randlayout=S), run in rounds of every binary
in a random order (the raw file's header gives the commands).

For each round and configuration, each binary's ratio of boxroot-handle's
ns/cell to boxroot's (the domain API) in its own invocation; per build, the
mean of that ratio over its layouts; then B/A, the head build's mean over
the base build's, per round. Prints the median over rounds of each build's
mean ratio and of B/A, with 95% percentile-bootstrap intervals (2000
resamples of the rounds, seed 1), and each layout's median.

Assumptions: rounds are exchangeable; within a round every binary meets
the machine in a random order, so a drift does not favour one build; the
layouts sample the layout effect, which is then part of each build's
mean rather than a bias of one build's one layout.

A binary is named PREFIX-SEED.test (built with -randlayout=SEED) or
PREFIX.test (one build in its default layout, counted as layout 0).

usage: layout-ab.py RAW-FILE BASE-PREFIX HEAD-PREFIX (e.g. base head)
"""
import collections
import random
import re
import statistics
import sys

if len(sys.argv) != 4:
    print("usage: layout-ab.py RAW-FILE BASE-PREFIX HEAD-PREFIX (e.g. results/x.txt base head)", file=sys.stderr)
    sys.exit(2)
raw, base, head = sys.argv[1:]
runs = collections.defaultdict(dict)  # (round, binary) -> {(config, case): ns}
key = None
for line in open(raw):
    m = re.match(r"# \S*?([\w-]+?)(?:-(\d+))?\.test round (\d+)", line)
    if m:
        key = (int(m.group(3)), m.group(1), int(m.group(2) or 0))
        continue
    m = re.match(r"\S+ BenchmarkHandleCrossThread/(\S+)/(\S+)-\d+\s+\d+\s+([\d.]+) ns/op", line)
    if m and key:
        runs[key][(m.group(1), m.group(2))] = float(m.group(3))
if not runs:
    print("layout-ab.py: no rounds in %s" % raw, file=sys.stderr)
    sys.exit(2)


def ratio(d, g):
    if (g, "boxroot-handle") in d and (g, "boxroot") in d:
        return d[(g, "boxroot-handle")] / d[(g, "boxroot")]
    return None


def boot(xs):
    random.seed(1)
    meds = sorted(statistics.median(random.choices(xs, k=len(xs))) for _ in range(2000))
    return "%.3f [%.3f, %.3f]" % (statistics.median(xs), meds[50], meds[1949])


configs = ["1x1", "2x2", "2x2-per-consumer"]
rounds = sorted({r for r, _, _ in runs})
print("rounds:", len(rounds))
for g in configs:
    per = {base: [], head: []}
    ba = []
    for r in rounds:
        means = {}
        for build in (base, head):
            xs = [ratio(d, g) for (rr, b, _), d in runs.items() if rr == r and b == build]
            xs = [x for x in xs if x is not None]
            if xs:
                means[build] = statistics.mean(xs)
                per[build].append(means[build])
        if len(means) == 2:
            ba.append(means[head] / means[base])
    if not ba:
        continue
    print("%s: %s %s, %s %s, %s/%s %s (n=%d)" % (g, base, boot(per[base]), head, boot(per[head]), head, base, boot(ba), len(ba)))
    for build in (base, head):
        seeds = sorted({s for (_, b, s) in runs if b == build})
        cells = []
        for s in seeds:
            xs = [ratio(d, g) for (_, b, ss), d in runs.items() if b == build and ss == s]
            xs = [x for x in xs if x is not None]
            cells.append("layout %d %.3f" % (s, statistics.median(xs)))
        print("   %s: %s" % (build, ", ".join(cells)))
