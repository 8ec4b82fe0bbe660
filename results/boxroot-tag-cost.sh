#!/bin/bash
# Measures what boxroot's generation tags cost: the tagged build against the same code with the
# tags taken out (results/boxroot-notag.patch: validity checked by the free mark's type instead
# of the slot's handle, Delete not advancing the handle). Both test binaries run the same
# benchmarks in turns (ROUNDS rounds, 0.2 s each), and each benchmark's paired differences of
# cpu-ns/op get a Hodges-Lehmann estimate with a 95% Wilcoxon signed-rank interval (normal
# approximation). Run from the repository root on a clean tree; writes to stdout.
set -euo pipefail
ROUNDS=${ROUNDS:-30}
BENCH=${BENCH:-'Handle/boxroot-handle$|^BenchmarkGet$|LocalCreateDelete/boxroot$|RemoteDelete/boxroot$'}
tmp=$(mktemp -d)
trap 'git checkout -q impls/boxroot; rm -rf "$tmp"' EXIT
go test -c -o "$tmp/tag.test" ./impls/boxroot
git apply results/boxroot-notag.patch
go test -c -o "$tmp/notag.test" ./impls/boxroot
git checkout -q impls/boxroot
echo "# ROUNDS=$ROUNDS bash results/boxroot-tag-cost.sh   ($(date -u +%FT%TZ), revision $(git rev-parse --short HEAD), uptime:$(uptime | sed 's/.*user, //'))"
for i in $(seq "$ROUNDS"); do
  for b in tag notag; do
    "$tmp/$b.test" -test.run XXX -test.bench "$BENCH" -test.count 1 -test.benchtime 0.2s |
      awk -v b=$b -v i="$i" '/^Bench/ {print i, b, $1, $5}'
  done
done > "$tmp/raw.txt"
echo "# after: $(uptime | sed 's/.*user, //')"
python3 - "$tmp/raw.txt" <<'PY'
import collections, math, statistics, sys
runs = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    i, build, name, cpu = line.split()
    runs[(name, i)][build] = float(cpu)
pairs = collections.defaultdict(list)
for (name, _), v in runs.items():
    if len(v) == 2:
        pairs[name].append((v["tag"], v["notag"]))
print("| benchmark | pairs | tagged median | untagged median | tag cost (HL) | 95% interval | tagged slower in |")
print("|---|---:|---:|---:|---:|---|---:|")
for name in sorted(pairs):
    p = pairs[name]
    d = [a - b for a, b in p]
    n = len(d)
    walsh = sorted((d[i] + d[j]) / 2 for i in range(n) for j in range(i, n))
    k = int(math.floor(n * (n + 1) / 4 - 1.96 * math.sqrt(n * (n + 1) * (2 * n + 1) / 24)))
    lo, hi = walsh[max(k, 0)], walsh[len(walsh) - 1 - max(k, 0)]
    print("| %s | %d | %.2f | %.2f | %+.2f ns | [%+.2f, %+.2f] | %d |" % (
        name, n, statistics.median(a for a, _ in p), statistics.median(b for _, b in p),
        statistics.median(walsh), lo, hi, sum(x > 0 for x in d)))
PY
