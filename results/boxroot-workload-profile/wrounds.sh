#!/bin/sh
# wrounds.sh N CONFIG BUILD...: message passing straight through the worker,
# no harness. For N rounds, runs /tmp/BUILD-rootbench's worker once per cell
# (boxroot-handle, boxroot) and build, the jobs of a round in a random
# order, and prints "round build cell config ns/cell" (the mean of the
# worker's three measured passes over 20.48M cells each). CONFIG is 1x1, 2x2
# or pc (2x2 with per-consumer queues), as issue23-configs.sh gives them.
# Summarise with: python3 wr.py FILE
set -eu
. "$(dirname "$0")/../issue23-configs.sh"
n=$1 cfg=$2
shift 2
params=$(issue23_params "$cfg") || { echo "$0: config \"$cfg\": want 1x1, 2x2 or pc" >&2; exit 2; }
A=
for p in $params; do A="$A --set $p"; done
for r in $(seq "$n"); do
	for job in $(for b in "$@"; do echo "$b:boxroot-handle"; echo "$b:boxroot"; done | shuf); do
		b=${job%%:*} c=${job##*:}
		# shellcheck disable=SC2086 # A is a list of words
		"/tmp/$b-rootbench" worker --workload msgpass $A --cell "$c" |
			python3 -c "import json,sys; d=json.loads(sys.stdin.readline()); p=d['pass_ns']; print('$r $b $c $cfg', sum(p)/len(p)/20.48e6)"
	done
done
