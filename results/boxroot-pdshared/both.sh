#!/bin/sh
set -eu
cd /tmp/m1
for job in $(for b in main pd; do for s in 0 5 9 13; do printf '%s:1x1:%s\n%s:2x2:%s\n%s:pc:%s\n' $b $s $b $s $b $s; done; done | shuf); do
	b=${job%%:*} rest=${job#*:}; cfg=${rest%%:*} s=${rest##*:}
	case $cfg in
	1x1) flags="--niters 20_000" ;;
	2x2) flags="--producers 2 --consumers 2 --niters 10_000" ;;
	pc) flags="--producers 2 --consumers 2 --niters 10_000 --queue per-consumer" ;;
	esac
	echo "# $b $cfg layout $s $(uptime)" >&2
	./$b-L$s run --cell boxroot-handle,boxroot -m 20 -M 20 --min-time 0 $flags --export-json "$b-$cfg-L$s.json" >/dev/null
done
echo "# end $(uptime)" >&2
