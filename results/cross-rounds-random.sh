#!/bin/sh
# cross-rounds-random.sh: rounds of a benchmark over several test binaries
# (two builds, or each build in several function layouts), each round
# running every binary once, in a random order, so that a drift of the
# machine favours no binary. Each invocation's header line names the
# binary and the round and carries uptime's load; each result line starts
# with the binary's name.
#
#   for s in 11 22 33; do
#     go test -c -ldflags=-randlayout=$s -o /tmp/L-base-$s.test ./impls/boxroot
#   done                      # and the same from the other build, as L-head-$s
#   results/cross-rounds-random.sh 10 'HandleCrossThread/.*/(boxroot-handle|boxroot)$' \
#     20000000x /tmp/L-*.test > raw.txt
#   python3 results/layout-ab.py raw.txt L-base L-head
set -eu
if [ $# -lt 4 ]; then
	echo "usage: $0 ROUNDS PATTERN BENCHTIME TEST-BINARY... (e.g. 10 'HandleCrossThread/2x2/' 20000000x /tmp/a.test /tmp/b.test)" >&2
	exit 2
fi
rounds=$1 pattern=$2 benchtime=$3
shift 3
i=1
while [ "$i" -le "$rounds" ]; do
	for b in $(printf '%s\n' "$@" | shuf); do
		echo "# $b round $i $(uptime)"
		"$b" -test.run XXX -test.bench "$pattern" -test.benchtime "$benchtime" |
			grep '^Bench' | sed "s|^|$(basename "$b") |"
	done
	i=$((i + 1))
done
