"""Ratio of two cells' mean wall times in `rootbench run` exports, per run
and across function layouts.

Each FILE is one `rootbench run --cell NUM,DEN ... --export-json FILE`
(or that file gzipped, FILE.gz)
(for issue 23: NUM boxroot-handle, DEN boxroot). Files are grouped by the
name before the last '-L<seed>' (e.g. 2x2-L5.json and 2x2-L9.json are the
group 2x2, in layouts 5 and 9).

Per file: the ratio of the two cells' mean wall times (each run's wall_ns
per cell), with a 95% percentile-bootstrap interval (4000 resamples of
each cell's runs, seed 1). Assumes the runs of a cell are independent and
exchangeable (the runs interleave the cells, so a drift of the machine
favours neither).

Per group of K >= 2 layouts: the geometric mean of the K ratios, with
Student's t interval on K-1 degrees of freedom over the log ratios.
Assumes the layouts' log ratios are independent draws with one spread,
close to normal: the layout is then part of the figure, not a bias of one
build.

usage: run-ratio.py NUM DEN FILE...  (e.g. boxroot-handle boxroot /tmp/rr/*.json)
"""
import collections
import gzip
import json
import math
import random
import re
import statistics
import sys

# Student's t, two-sided 95%, by degrees of freedom.
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365,
       8: 2.306, 9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179, 15: 2.131, 20: 2.086}


def per_cell(path, num, den):
    d = json.load(gzip.open(path) if path.endswith(".gz") else open(path))
    if "results" not in d:
        sys.exit(f"{path}: not a `rootbench run` export (it has no \"results\"; an `ab` export is read by `rootbench compare`)")
    times = {}
    for r in d["results"]:
        times[r["cell"]] = [run["wall_ns"] / run["cells"] for run in r["runs"] if run.get("cells")]
    if num not in times or den not in times:
        sys.exit(f"{path}: needs cells {num} and {den}, has {sorted(times)}")
    return times[num], times[den], d["machine"].get("load_avg"), d.get("started_at", "")


def bootstrap(a, b, rng, n=4000):
    rs = []
    for _ in range(n):
        ra = [rng.choice(a) for _ in a]
        rb = [rng.choice(b) for _ in b]
        rs.append(statistics.fmean(ra) / statistics.fmean(rb))
    rs.sort()
    return rs[int(0.025 * n)], rs[int(0.975 * n) - 1]


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: run-ratio.py NUM DEN FILE... (e.g. boxroot-handle boxroot /tmp/rr/*.json)")
    num, den, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    rng = random.Random(1)
    groups = collections.defaultdict(list)
    for f in files:
        a, b, load, started = per_cell(f, num, den)
        ratio = statistics.fmean(a) / statistics.fmean(b)
        lo, hi = bootstrap(a, b, rng)
        name = re.sub(r"\.json(\.gz)?$", "", f.rsplit("/", 1)[-1])
        m = re.match(r"(.*)-L(\d+)$", name)
        group, layout = (m.group(1), int(m.group(2))) if m else (name, 0)
        groups[group].append((layout, ratio))
        print(f"{name}: {num}/{den} {ratio:.3f} [{lo:.3f}, {hi:.3f}], {len(a)} and {len(b)} runs, started {started[:19]}, load {load}")
    for group, rs in sorted(groups.items()):
        if len(rs) < 2:
            continue
        logs = [math.log(r) for _, r in rs]
        k = len(logs)
        mean = statistics.fmean(logs)
        t = T95.get(k - 1, 2.0)
        half = t * statistics.stdev(logs) / math.sqrt(k)
        layouts = ", ".join(f"{l}: {r:.3f}" for l, r in sorted(rs))
        print(f"{group} across {k} layouts ({layouts}): {math.exp(mean):.3f} "
              f"[{math.exp(mean - half):.3f}, {math.exp(mean + half):.3f}]")


main()
