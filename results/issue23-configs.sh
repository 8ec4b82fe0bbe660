# issue23-configs.sh: issue 23's three message-passing configurations, for
# issue23-measure.sh (rootbench run's flags) and
# boxroot-workload-profile/wrounds.sh (the worker's --set pairs) to share.
# Source it, then call issue23_params.

# issue23_params CONFIG prints CONFIG's workload parameters as NAME=VALUE
# words, or fails for a CONFIG other than 1x1, 2x2 (on the shared queue) and
# pc (2x2 with per-consumer queues). All three move 20.48M cells per pass.
issue23_params() {
	case $1 in
	1x1) echo "niters=20000" ;;
	2x2) echo "producers=2 consumers=2 niters=10000" ;;
	pc) echo "producers=2 consumers=2 niters=10000 queue=per-consumer" ;;
	*) return 1 ;;
	esac
}
