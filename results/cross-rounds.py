"""Summarise cross-rounds.sh output (or cross-rounds-random.sh's, each
invocation a round, every binary's pooled): for every case and configuration, the
median over rounds of the case's wall time per cell divided by the
reference case's in the same round (the domain API, boxroot, unless a
second argument names another case), with a 95% bootstrap interval of that
median (2000 resamples of the rounds, seed 1).

Assumptions: rounds are exchangeable (the machine's state drifts, but each
ratio is taken within one invocation, so a drift common to both cases
cancels); the interval is the percentile bootstrap's, which is honest for a
median of 15-20 rounds only roughly, and says nothing about a drift that
hits one case more than the other within a round.
"""
import random
import re
import statistics
import sys

if len(sys.argv) not in (2, 3):
    print("usage: cross-rounds.py ROUNDS-FILE [REFERENCE-CASE] (the output of cross-rounds.sh or cross-rounds-random.sh; reference boxroot)", file=sys.stderr)
    sys.exit(2)
ref = sys.argv[2] if len(sys.argv) == 3 else "boxroot"

rounds = []
for line in open(sys.argv[1]):
    # A round is one invocation: "# round I ..." (cross-rounds.sh) or
    # "# BINARY round I ..." (cross-rounds-random.sh, whose result lines
    # start with the binary's name).
    if re.match(r"# (\S+ )?round ", line):
        rounds.append({})
        continue
    m = re.match(r"(?:\S+ )?BenchmarkHandleCrossThread/(\S+)/(\S+)-\d+\s+\d+\s+([\d.]+) ns/op", line)
    if m and rounds:
        rounds[-1][(m.group(1), m.group(2))] = float(m.group(3))

random.seed(1)
configs = ["1x1", "2x2", "2x2-per-consumer"]
cases = sorted({c for r in rounds for (_, c) in r if c != ref})
if not any((g, ref) in r for r in rounds for g in configs):
    print("cross-rounds.py: no case %r in %s" % (ref, sys.argv[1]), file=sys.stderr)
    sys.exit(2)
print("ratio to %s, median [95%% bootstrap], rounds:" % ref, len(rounds))
print("%-22s" % "case" + "".join("%-26s" % g for g in configs))
for c in cases:
    row = "%-22s" % c
    for g in configs:
        r = [x[(g, c)] / x[(g, ref)] for x in rounds if (g, c) in x and (g, ref) in x]
        if not r:
            row += "%-26s" % "-"
            continue
        meds = sorted(statistics.median(random.choices(r, k=len(r))) for _ in range(2000))
        row += "%-26s" % ("%.2f [%.2f, %.2f] n=%d" % (statistics.median(r), meds[50], meds[1949], len(r)))
    print(row)
