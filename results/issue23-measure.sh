#!/bin/sh
# issue23-measure.sh: issue 23's measure of the drop-in API, boxroot-handle
# over boxroot (the domain API) in the same `rootbench run`, in several
# function layouts of one or more builds, then their ratios
# (results/run-ratio.py).
#
#   results/issue23-measure.sh [-r RUNS] [-t NAME=TREE]... OUT-DIR [LAYOUT...]
#
#   -t NAME=TREE  measure the source tree TREE (a checkout of this
#                 repository, e.g. a git worktree of another commit) under
#                 the name NAME; repeat it to measure several trees in one
#                 batch. Without -t: this script's own tree, unnamed.
#   -r RUNS       runs per cell in each invocation (default 20).
#   LAYOUT        linker layout seeds (default: 0 5 9 13).
#
# Builds cmd/rootbench of each tree once per layout (go build
# -ldflags=-randlayout=S, into OUT-DIR), then runs each configuration (1x1,
# 2x2 on the shared queue, 2x2 with per-consumer queues) in each layout of
# each tree, all the invocations in one random order, so that a drift of
# the machine favours no tree, layout or configuration. Each invocation
# writes OUT-DIR/[NAME-]CONFIG-LS.json; its header line on standard error
# carries uptime's load. The ratios it prints are per invocation (with a
# bootstrap interval) and per tree and configuration over the layouts
# (geometric mean, Student's t): see results/run-ratio.py for what each
# assumes. Compare two trees' estimates from one batch only. About 40 s per
# invocation of 20 runs on a 2-core machine.
set -eu
usage() {
	echo "usage: $0 [-r RUNS] [-t NAME=TREE]... OUT-DIR [LAYOUT...] (e.g. $0 -t main=/tmp/wt-main -t head=. /tmp/m23 0 5 9 13)" >&2
	exit 2
}
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/results/issue23-configs.sh"
runs=20
trees= # NAME=TREE words, no spaces in either
while getopts r:t: opt; do
	case $opt in
	r)
		case $OPTARG in
		'' | *[!0-9]* | 0)
			echo "$0: -r \"$OPTARG\": the runs per cell, a positive integer" >&2
			exit 2
			;;
		esac
		runs=$OPTARG
		;;
	t)
		name=${OPTARG%%=*} tree=${OPTARG#*=}
		case $OPTARG in
		*=*) ;;
		*) name= ;;
		esac
		case $name in
		'' | *[!A-Za-z0-9_]*)
			echo "$0: -t \"$OPTARG\": give NAME=TREE, NAME of letters, digits and _ (e.g. main=/tmp/wt-main)" >&2
			exit 2
			;;
		esac
		case " $trees " in
		*" $name="*)
			echo "$0: -t $name: the name is given twice" >&2
			exit 2
			;;
		esac
		case $tree in
		'' | *[[:space:]]*)
			echo "$0: -t \"$OPTARG\": TREE is a directory name without spaces" >&2
			exit 2
			;;
		esac
		if [ ! -f "$tree/cmd/rootbench/main.go" ]; then
			echo "$0: -t $name=$tree: no cmd/rootbench/main.go there; TREE is a checkout of this repository" >&2
			exit 2
		fi
		trees="$trees $name=$(cd "$tree" && pwd)"
		;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
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
[ -n "$trees" ] || trees="=$root" # one tree, unnamed: files CONFIG-LS.json
mkdir -p "$out"
for t in $trees; do
	name=${t%%=*} tree=${t#*=}
	for s in "$@"; do
		echo "# building ${name:-the work tree} ($tree) in layout $s" >&2
		(cd "$tree" && go build -ldflags=-randlayout="$s" -o "$out/${name:+$name-}rootbench-L$s" ./cmd/rootbench)
	done
done
files=
jobs=$(for t in $trees; do
	for s in "$@"; do
		for cfg in 1x1 2x2 pc; do printf '%s:%s:%s\n' "${t%%=*}" "$cfg" "$s"; done
	done
done | shuf)
for job in $jobs; do
	name=${job%%:*} rest=${job#*:}
	cfg=${rest%%:*} s=${rest##*:}
	flags=
	for p in $(issue23_params "$cfg"); do flags="$flags --${p%%=*} ${p#*=}"; done
	echo "# ${name:+$name }$cfg layout $s $(uptime)" >&2
	f="$out/${name:+$name-}$cfg-L$s.json"
	# shellcheck disable=SC2086 # flags is a list of words
	"$out/${name:+$name-}rootbench-L$s" run --cell boxroot-handle,boxroot -m "$runs" -M "$runs" --min-time 0 $flags \
		--export-json "$f" >/dev/null
	files="$files $f"
done
echo "# end $(uptime)" >&2
# This invocation's files only: an OUT-DIR used before may hold others.
# shellcheck disable=SC2086 # files is a list of paths without spaces (checked above)
python3 "$root/results/run-ratio.py" boxroot-handle boxroot $files
