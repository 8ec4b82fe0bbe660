#!/bin/sh
# issue23-measure.sh: issue 23's measure of the drop-in API, boxroot-handle
# over boxroot (the domain API) in the same `rootbench run`, in several
# function layouts of the work tree's build, then their ratios
# (results/run-ratio.py).
#
#   results/issue23-measure.sh OUT-DIR [LAYOUT...]    (default layouts: 0 5 9 13)
#
# Builds cmd/rootbench once per layout (go build -ldflags=-randlayout=S,
# into OUT-DIR), then runs each configuration (1x1, 2x2 on the shared queue,
# 2x2 with per-consumer queues) in each layout, the invocations in a random
# order so that a drift of the machine favours no layout or configuration.
# Each invocation writes OUT-DIR/CONFIG-LS.json; its header line on standard
# error carries uptime's load. The ratios it prints are per invocation (with
# a bootstrap interval) and per configuration over the layouts (geometric
# mean, Student's t): see results/run-ratio.py for what each assumes.
# About 40 s per invocation on a 2-core machine.
set -eu
if [ $# -lt 1 ]; then
	echo "usage: $0 OUT-DIR [LAYOUT...] (e.g. /tmp/m23 0 5 9 13)" >&2
	exit 2
fi
out=$1
shift
case $out in
*[[:space:]]*)
	echo "$0: OUT-DIR \"$out\": a directory name without spaces" >&2
	exit 2
	;;
esac
[ $# -gt 0 ] || set -- 0 5 9 13
for s in "$@"; do
	case $s in
	'' | *[!0-9]*)
		echo "$0: layout \"$s\": a layout is a linker seed, a non-negative integer" >&2
		exit 2
		;;
	esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
files=
for s in "$@"; do
	(cd "$root" && go build -ldflags=-randlayout="$s" -o "$out/rootbench-L$s" ./cmd/rootbench)
done
for job in $(for s in "$@"; do printf '1x1:%s\n2x2:%s\npc:%s\n' "$s" "$s" "$s"; done | shuf); do
	cfg=${job%%:*} s=${job##*:}
	case $cfg in
	1x1) flags="--niters 20_000" ;;
	2x2) flags="--producers 2 --consumers 2 --niters 10_000" ;;
	pc) flags="--producers 2 --consumers 2 --niters 10_000 --queue per-consumer" ;;
	esac
	echo "# $cfg layout $s $(uptime)" >&2
	# shellcheck disable=SC2086 # flags is a list of words
	"$out/rootbench-L$s" run --cell boxroot-handle,boxroot -m 20 -M 20 --min-time 0 $flags \
		--export-json "$out/$cfg-L$s.json" >/dev/null
	files="$files $out/$cfg-L$s.json"
done
echo "# end $(uptime)" >&2
# This invocation's files only: an OUT-DIR used before may hold others.
# shellcheck disable=SC2086 # files is a list of paths without spaces (checked above)
python3 "$root/results/run-ratio.py" boxroot-handle boxroot $files
