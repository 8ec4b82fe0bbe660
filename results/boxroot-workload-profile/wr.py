"""wr.py FILE: per configuration and build, the ratio boxroot-handle /
boxroot of each round (both cells' workers ran in that round), sorted, with
their median and geometric mean. No interval: a handful of rounds, read as
a screen, not a verdict (the issue's measure is issue23-measure.sh)."""
import collections
import math
import sys

d = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    if line.strip():
        r, b, c, cfg, v = line.split()
        d[(cfg, b, r)][c] = float(v)
for cfg in sorted({k[0] for k in d}):
    for b in sorted({k[1] for k in d}):
        rs = sorted(v["boxroot-handle"] / v["boxroot"] for k, v in d.items()
                    if k[0] == cfg and k[1] == b and len(v) == 2)
        g = math.exp(sum(map(math.log, rs)) / len(rs))
        print(cfg, b, "n=%d" % len(rs), "median %.3f geomean %.3f" % (rs[len(rs) // 2], g),
              " ".join("%.2f" % x for x in rs))
