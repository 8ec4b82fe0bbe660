#!/bin/sh
# both.sh MAIN-TREE PD-TREE [OUT-DIR]: the tenth session's interleaved
# batch, main (bc68f18) and the pdomain-shared prototype in 4 layouts each,
# all 24 invocations in one random order (the files of this directory). It
# was a copy of issue23-measure.sh's loop; that script now measures several
# trees in one batch itself:
exec "$(dirname "$0")/../issue23-measure.sh" -t main="$1" -t pd="$2" "${3:-/tmp/m1}" 0 5 9 13
