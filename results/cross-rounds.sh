#!/bin/sh
# cross-rounds.sh: interleaved rounds of BenchmarkHandleCrossThread, for
# ratios that come from one invocation each.
#
#   go test -c -o /tmp/pd.test ./impls/boxroot
#   results/cross-rounds.sh /tmp/pd.test 20 'boxroot-handle|boxroot|domain-pins-floor' > raw.txt
#   python3 results/cross-rounds.py raw.txt
#
# One round is one invocation of the test binary running every case named
# by the pattern once, at 20M cells, with one producer and one consumer,
# two of each, and two of each with a queue per consumer. Each round's
# header line names the binary and carries uptime's load.
set -eu
if [ $# -ne 3 ]; then
	echo "usage: $0 TEST-BINARY ROUNDS CASES (e.g. /tmp/pd.test 20 'boxroot-handle|boxroot')" >&2
	exit 2
fi
bin=$1 rounds=$2 cases=$3
# The rounds themselves are cross-rounds-random.sh's, with one binary.
exec "$(dirname "$0")/cross-rounds-random.sh" "$rounds" \
	"HandleCrossThread/(1x1|2x2|2x2-per-consumer)/($cases)\$" 20000000x "$bin"
