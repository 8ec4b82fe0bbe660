# rootbench — build, run, test, bench, lint, report.
# `make run` and `make test` do all the set-up on a fresh machine (Go and gcc
# are all they need; modules come from the Go module proxy).

GO      ?= go
# The committed results files that REPORT.md and README.md's results block
# are generated from: every results/*.json but the gate's error-rate files
# (gatecheck's own format, summarised in results/gate-check.md).
RESULT_FILES := $(filter-out results/gate-check.json results/gate-replay.json,$(wildcard results/*.json))
BIN     := bin/rootbench
PKGS    := ./...
# Extra flags for `make run`, e.g. make run RUN_FLAGS="--cell boxroot,ref --runs 5".
RUN_FLAGS ?=
# Test binaries carry this tag: the test-only faulty:* cells and the planted
# slowdown (ROOTBENCH_SLOW) exist only in them, never in bin/rootbench.
TEST_TAGS := rootbench_faulty

# non-numbers returns the words of $(1) that hold anything but digits.
non-numbers = $(strip $(foreach w,$(1),$(if $(subst 0,,$(subst 1,,$(subst 2,,$(subst 3,,$(subst 4,,$(subst 5,,$(subst 6,,$(subst 7,,$(subst 8,,$(subst 9,,$(w))))))))))),$(w))))

.PHONY: all build run test test-short unit race nocgo shipped report-check example lint fmt vet staticcheck bench report results gate-tools gate-check gate-record gate-replay history-check history-backfill history-real history-confirm perf-check handle-cost clean

all: build

build:
	$(GO) build -buildvcs=auto -o $(BIN) ./cmd/rootbench

# The default comparison: every available cell, interleaved, on the
# message-passing workload (about a minute on 2 cores).
run: build
	./$(BIN) run $(RUN_FLAGS)

# The whole test suite: lint, the race-enabled tests (fuzz seed corpora
# included), the build and the tests without cgo, the shipped binary's
# catalog, the report of the committed results, and the example of a
# program with its own cell.
test: lint race nocgo shipped report-check example

# The tagged suite under the race detector, then the shipped build's
# catalog (no faulty cell, ROOTBENCH_SLOW refused), which only an untagged
# test binary sees. Three packages run their full suite without the
# detector: internal/cli's end-to-end tests re-execute the test binary as
# their workers, so under -race every worker is instrumented too and its
# sessions run several times slower (its fast tier runs under -race: the
# same code in the parent, one run and one A/B session end to end); and
# report/document and report/charts only render (no goroutine in their code
# or tests), where the detector has nothing to watch and slows the
# rendering several times over.
NORACE_PKGS := ./internal/cli ./report/document ./report/charts
RACE_PKGS    = $(filter-out $(addprefix github.com/rootbench/rootbench/,internal/cli report/document report/charts),$(shell $(GO) list $(PKGS)))
race:
	$(GO) test -race -tags $(TEST_TAGS) -timeout 20m $(RACE_PKGS)
	$(GO) test -race -short -tags $(TEST_TAGS) ./internal/cli
	$(GO) test -tags $(TEST_TAGS) -timeout 20m $(NORACE_PKGS)
	$(GO) test -race ./impls/

unit:
	$(GO) test -tags $(TEST_TAGS) $(PKGS)

# The fast tier: every package's logic in 20 s or less on 2 cores (warm build
# cache). -short skips what builds git history, runs function layouts,
# plants slowdowns, sends signals or runs workers for seconds; make test
# runs all of it.
test-short:
	$(GO) test -short -tags $(TEST_TAGS) $(PKGS)

# The shipped binary has no test-only cell: faulty:crash is an unknown cell
# (exit 2), refused before any worker starts.
shipped: build
	@./$(BIN) run --cell faulty:crash --runs 1 >/dev/null 2>&1; st=$$?; \
	if [ $$st -ne 2 ]; then echo "shipped: bin/rootbench run --cell faulty:crash exited $$st, want 2 (unknown cell)"; exit 1; fi

# make report on the committed results files, into a scratch directory: a
# results file report cannot read (as gate-replay.json once was) fails here,
# not at the end of make results' twenty minutes.
report-check: build
	@d=$$(mktemp -d) && trap 'rm -rf "$$d"' EXIT && \
	./$(BIN) report $(RESULT_FILES) -o "$$d" >/dev/null || \
	{ echo "report-check: bin/rootbench report failed on the committed results files (RESULT_FILES)"; exit 1; }

# examples/owncell is its own module (a replace points at this tree): a
# handle table of one's own, its conformance test, and rootbench.Main with it
# as an extra cell. Vet it, staticcheck it (the version this module's tool
# directive pins), test it, and measure it beside boxroot and cgo.Handle once
# (a smoke test: a few seconds).
example:
	$(GO) build -o bin/staticcheck honnef.co/go/tools/cmd/staticcheck
	cd examples/owncell && $(GO) vet ./... && ../../bin/staticcheck ./... && $(GO) test -race ./...
	@mkdir -p bin; cd examples/owncell && $(GO) run . run --cell mytable,boxroot,cgo-handle --runs 2 --niters 200 --style basic \
		>../../bin/example-run.txt 2>&1; st=$$?; cd ../..; \
	if [ $$st -ne 0 ] || ! awk '/^Summary/ { s = 1 } s && /mytable/ { f = 1 } END { exit !f }' bin/example-run.txt; then \
		cat bin/example-run.txt; echo "example: go run . run --cell mytable,boxroot,cgo-handle exited $$st, or its summary has no mytable row"; exit 1; fi; \
	echo "example: go run . run --cell mytable,boxroot,cgo-handle: a summary with mytable (bin/example-run.txt)"

# cgo-only parts sit behind build constraints: the build without cgo must
# succeed and report them unavailable, and the fast tier passes without cgo
# in NOCGO_PKGS: the packages with files behind a cgo constraint (impls,
# impls/boxroot, impls/cgohandle, workload/callback) and those that show
# what a build without cgo lacks (the catalog in internal/cli and the
# top package). Every other package compiles the same either way, and the
# race step above runs the whole suite with cgo.
NOCGO_PKGS := ./impls/... ./workload/... ./internal/cli .
nocgo:
	CGO_ENABLED=0 $(GO) build -o bin/rootbench-nocgo ./cmd/rootbench
	CGO_ENABLED=0 $(GO) vet $(PKGS)
	CGO_ENABLED=0 $(GO) test -short -tags $(TEST_TAGS) -timeout 10m $(NOCGO_PKGS)
	./bin/rootbench-nocgo list | grep -E '^\W*cgo-handle\W.*\Wno\W' >/dev/null || \
		{ echo "nocgo: 'rootbench list' does not show cgo-handle as unavailable"; exit 1; }

lint: fmt vet staticcheck

fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet $(PKGS)
	$(GO) vet -tags $(TEST_TAGS) $(PKGS)

staticcheck:
	$(GO) tool staticcheck $(PKGS)
	$(GO) tool staticcheck -tags $(TEST_TAGS) $(PKGS)

# Go benchmarks of the implementations and the workloads (figures, not tests).
bench:
	$(GO) test -tags $(TEST_TAGS) -run '^$$' -bench . -benchmem ./impls/... ./workload/...

# Regenerate results/REPORT.md, its charts and README.md's results block
# from the committed results/*.json (charts of files no longer there go).
report: build
	rm -f results/*.png results/*.svg
	./$(BIN) report $(RESULT_FILES) -o results --readme README.md --readme-files results/msgpass.json

# Re-measure the committed results on this machine, then regenerate the report.
# Refuses a working tree with uncommitted changes, so that every file names the
# clean revision that measured it. About twenty minutes on 2 cores.
# msgpass is the default comparison (what `make run` measures); msgpass-20M is
# the same comparison at 20M cells per run (NITERS=20_000, one measured pass).
results: build
	@if [ -n "$$(git status --porcelain --untracked-files=no)" ]; then \
		echo "results: the working tree has uncommitted changes: commit them first, so that every results file names a clean revision"; exit 1; fi
	./$(BIN) run --cell all --runs 15 --export-json results/msgpass.json --export-markdown results/msgpass.md
	./$(BIN) run --cell all --niters 20_000 --passes 1 --runs 6 --export-json results/msgpass-20M.json --export-markdown results/msgpass-20M.md
	./$(BIN) run --cell ocaml,boxroot,ref,cgo-handle --parameter-list batch-size=16,256,4096 --runs 6 --export-json results/batch-scan.json
	./$(BIN) run --cell ocaml,boxroot,ref,cgo-handle --niters 500 --parameter-list producers=1,2,4 --parameter-list consumers=1,2,4 --runs 5 --export-json results/scaling.json
	./$(BIN) run --cell boxroot,boxroot:no-reuse --niters 10_000 --passes 1 --runs 3 --export-json results/boxroot-10M.json
	./$(BIN) callback --variant plain,cthread,pipe,spin,channel --calls 1_000_000 --runs 5 --export-json results/callback.json --export-markdown results/callback.md
	./$(BIN) callback --variant plain,cthread,pipe --handle none,cgo-handle,boxroot-handle --calls 1_000_000 --runs 5 --export-json results/callback-handles.json
	$(MAKE) report

# The gate's evidence is measured in conditions: quiet (nothing else
# running) and busy (N CPU-bound busy-loop processes that cmd/gatecheck
# starts before a condition's sessions and kills after them, on an error or
# a signal, and, on Linux, when it dies itself), each judged on wall time
# and CPU time. A planted slowdown is one in the metric it names
# (ROOTBENCH_SLOW=CELL=PCT% in wall time, CELL=PCT%cpu in CPU time; see
# cmd/gatecheck). GATE_CELLS are the cells of every session, GATE_SLOW the
# one slowed; GATE_AB_FLAGS are extra ab flags, e.g. "--max-time 90s".
GATE_CELLS    ?= ocaml,boxroot,ref,cgo-handle
GATE_SLOW     ?= boxroot
GATE_AB_FLAGS ?=
# gate-tools builds what the gate's targets run: the tagged rootbench
# (faulty cells, ROOTBENCH_SLOW) and gatecheck.
gate-tools:
	$(GO) build -buildvcs=auto -tags rootbench_faulty -o bin/rootbench-faulty ./cmd/rootbench
	$(GO) build -o bin/gatecheck ./cmd/gatecheck

# Measure the error rates of `rootbench ab`'s gate live, in each condition
# of GATE_NOISE (noise processes, comma-separated; 0: quiet) in turn:
# GATE_AA A/A sessions (the same build on both sides) and GATE_PLANTED
# sessions per planted head-side slowdown of GATE_SLOW (GATE_PCTS: PCT%
# in wall time, PCT%cpu in CPU time), each at ab's default budget (3
# minutes), interleaved; writes the false-alarm and detection rates per
# condition and metric beside the replay's (results/gate-replay.json), and
# the time ab took to flag each planted slowdown, to results/gate-check.json,
# and results/gate-check.md from it and the replay's. Each session takes up
# to the budget: the defaults (4 + 4 x 4 sessions per condition) take up to
# about an hour per condition.
GATE_AA       ?= 4
GATE_PLANTED  ?= 4
GATE_PCTS     ?= 5%,5%cpu,10%,10%cpu
GATE_NOISE    ?= 0,4
gate-check: gate-tools
	./bin/gatecheck -rootbench bin/rootbench-faulty -aa $(GATE_AA) -planted $(GATE_PLANTED) -noise $(GATE_NOISE) \
		-pcts $(GATE_PCTS) -cells $(GATE_CELLS) -slow $(GATE_SLOW) -out results/gate-check -- $(GATE_AB_FLAGS)

# Record GATE_RECORD A/A sessions for the replay (gate-replay) while NOISE
# CPU-bound noise processes run (0: quiet), into results/sessions/quiet/ or
# results/sessions/noiseN/ (the condition is the directory), gzip-compressed,
# each at ab's defaults (3-minute budget, automatic looks, every metric) on
# GATE_CELLS, the load recorded per run; every session's exit status goes
# to that directory's record.jsonl, and a session that ends without a
# verdict keeps its partial export as failed-aa-*.json.gz. They are
# recorded with a gate of 0.01%, so that they run to their budget look:
# the looks and the pace do not depend on the gate, and the replay needs
# the pairs up to the budget look. Run with nothing else on the machine:
# NOISE is then the only load. A NOISE or GATE_RECORD that is not a whole
# number is refused (exit 2) before anything is built.
NOISE       ?= 0
GATE_RECORD ?= 10
ifneq ($(filter gate-record,$(MAKECMDGOALS)),)
ifneq ($(or $(call non-numbers,$(NOISE)),$(filter-out 1,$(words $(NOISE)))),)
$(error gate-record: NOISE is the number of CPU-bound noise processes, one whole number, 0 or more (0: quiet), not "$(NOISE)")
endif
ifneq ($(or $(call non-numbers,$(GATE_RECORD)),$(filter-out 1,$(words $(GATE_RECORD))),$(if $(subst 0,,$(GATE_RECORD)),,zero)),)
$(error gate-record: GATE_RECORD is the number of sessions to record, one positive number such as 10, not "$(GATE_RECORD)")
endif
endif
gate-record: gate-tools
	./bin/gatecheck -record -noise $(NOISE) -count $(GATE_RECORD) -rootbench bin/rootbench-faulty -cells $(GATE_CELLS) \
		-dir results/sessions -- $(GATE_AB_FLAGS)

# Replay the recorded sessions, each condition (its directory) on its own:
# GATE_REPLAY synthetic A/A sessions and 1000 per planted slowdown of
# GATE_SLOW (2, 5, 10, 20%) in each metric, resampled from the recorded
# pairs and judged by the decision code ab runs, on wall and CPU time
# together, at the recorded looks and pair counts, then A/A and 10% again
# with the other resamplings; checks the targets of each condition and
# metric and, for each one missed, models longer budgets (4m30s to 30m)
# for the shortest that meets it; writes results/gate-replay.md and .json
# (a section per condition and metric) and results/gate-check.md from them
# and the live check's results/gate-check.json. Minutes per condition on 2
# cores, more when targets are missed (each budget modelled adds minutes:
# the longer the session, the more pairs every look sorts). Other budgets
# and cell sets, and fewer sessions per budget searched, e.g.
# GATE_REPLAY_FLAGS="-variant 20m:ocaml,boxroot -variant-sessions 400".
GATE_SESSIONS     ?= $(sort $(wildcard results/sessions/*/aa-*.json.gz))
GATE_REPLAY       ?= 4000
GATE_REPLAY_FLAGS ?=
gate-replay: gate-tools
	./bin/gatecheck -replay -sessions $(GATE_REPLAY) -slow $(GATE_SLOW) $(GATE_REPLAY_FLAGS) $(GATE_SESSIONS)

# Measure the error rates of the change-point method (analysis.ChangePoints)
# on synthetic series drawn from fixed seeds: a 5% step in 3% noise over 40
# commits (found, and its range holding the step), pure noise of 200 commits
# (false change points per 1,000), a creep of ten +1.5% steps, then other
# noise models (the median of 5 runs a commit, a build-to-build factor),
# other places of the step and other settings; HISTORY_SERIES series each.
# Writes results/history.md (the same file for the same revision on any
# machine). Its real-history section is made from the store HISTORY_REAL when
# it exists (make history-backfill measures it), else kept as it is. About a
# minute on 2 cores.
HISTORY_SERIES ?= 2000
history-check: build
	@real=; if [ -f "$(HISTORY_REAL)" ]; then \
		./$(BIN) history show --history $(HISTORY_REAL) --cell $(HISTORY_CELLS) --metric wall --format json \
			> bin/history-real.json || exit $$?; real="-real bin/history-real.json"; \
	else echo "history-check: no $(HISTORY_REAL) (make history-backfill): the real-history section is kept" >&2; fi; \
	$(GO) run ./cmd/historycheck -series $(HISTORY_SERIES) -out results/history.md $$real

# The real history: this repository's own commits from HISTORY_SINCE to HEAD
# (HISTORY_SINCE, every HISTORY_EVERY-th commit after it in topological
# order, every merge and HEAD), each built (ab's build cache) and measured
# with its own worker, HISTORY_RUNS runs of each of HISTORY_CELLS
# interleaved, with HISTORY_WORKLOAD (as far as the oldest revision can
# express it: one pass, no warm-up, when it predates passes), into the
# store HISTORY_REAL, each revision stored as it ends. Two producers and
# two consumers, as the bisection that first named the drop-in's
# regression ran (docs/records.md, "Bisecting a regression"). Stop it at
# any time and run it again to resume; measure on a quiet machine. About
# 15 minutes for the 94 revisions from 51c97ff on 2 cores once built, plus
# about a minute per revision not in the cache.
# HISTORY_BACKFILL_FLAGS adds flags, e.g. "--wait-for-load 1".
# make history-real then writes results/history.md's real-history section
# from it alone (make history-check does too, with the synthetic section).
HISTORY_REAL     ?= bin/history-real.db
HISTORY_SINCE    ?= 51c97ff
HISTORY_EVERY    ?= 8
HISTORY_CELLS    ?= boxroot-handle,boxroot
HISTORY_RUNS     ?= 6
HISTORY_WORKLOAD ?= --producers 2 --consumers 2 --niters 10000
HISTORY_BACKFILL_FLAGS ?=
history-backfill: build
	./$(BIN) history backfill --history $(HISTORY_REAL) --since $(HISTORY_SINCE) --every $(HISTORY_EVERY) \
		--cell $(HISTORY_CELLS) --runs $(HISTORY_RUNS) $(HISTORY_WORKLOAD) $(HISTORY_BACKFILL_FLAGS)

history-real: build
	./$(BIN) history show --history $(HISTORY_REAL) --cell $(HISTORY_CELLS) --metric wall --format json > bin/history-real.json
	$(GO) run ./cmd/historycheck -only-real -real bin/history-real.json -out results/history.md

# Confirm the domain API's change points: results/history.md lists, for
# each change point of a series of the domain API (boxroot), the `rootbench
# ab --layouts` command that judges its range at the series' parameters;
# this target runs each one, HISTORY_CONFIRM_TIME per layout, and writes
# their Markdown verdicts to results/history-confirm.md (atomically, at the
# end). A change point is confirmed when its session finds the same
# direction beyond the gate across the layouts. About 4 minutes per change
# point on 2 cores, once built; measure on a quiet machine. When
# results/history.md marks no change point in the domain API, the file says
# so and nothing is measured.
HISTORY_CONFIRM_TIME ?= 45s
history-confirm: build
	@cmds=$$(sed -n 's/^- boxroot on .*: `rootbench \(ab --base-rev [^`]*\)`$$/\1/p' results/history.md); \
	out=results/history-confirm.md; tmp=$$out.tmp; \
	if [ -z "$$cmds" ]; then \
		{ echo "# The domain API's change points, confirmed across function layouts"; echo; \
		  echo "Made by \`make history-confirm\` at $$(git rev-parse --short HEAD) ($$(date -u +%Y-%m-%d)): results/history.md marks no change point in the domain API's series, so there is nothing to confirm."; } > $$tmp && \
		mv $$tmp $$out && echo "history-confirm: results/history.md marks no change point of the domain API; wrote $$out" >&2; exit 0; \
	fi; \
	{ echo "# The domain API's change points, confirmed across function layouts"; echo; \
	  echo "Made by \`make history-confirm\` at $$(git rev-parse --short HEAD) ($$(date -u +%Y-%m-%d)), load $$(cut -d' ' -f1 /proc/loadavg) at its start: each command below is the one results/history.md gives for a change point of the domain API, run with \`--max-time $(HISTORY_CONFIRM_TIME)\` per layout. The change point is confirmed when the combined row of its range moves the same way beyond the gate."; echo; } > $$tmp; \
	echo "$$cmds" | while read -r cmd; do \
		echo "history-confirm: rootbench $$cmd" >&2; \
		{ echo "## \`rootbench $$cmd\`"; echo; } >> $$tmp; \
		./$(BIN) $$cmd --max-time $(HISTORY_CONFIRM_TIME) --format markdown --no-gc-table >> $$tmp; st=$$?; \
		case $$st in 0|1|3) ;; *) echo "history-confirm: ab exited $$st" >&2; exit $$st ;; esac; \
		echo >> $$tmp; \
	done && mv $$tmp $$out

# Compare this work tree (uncommitted changes included) with the revision the
# change started from, before it lands: `rootbench ab --base-rev --layouts` on
# the drop-in and domain handles, the control and cgo.Handle (msgpass), then on
# the callback workload with handles, each judged across the function layouts
# in LAYOUTS (below); 10 to 12 minutes on 2 cores.
# Writes the Markdown tables of every layout's session and of their
# combination to stdout (CONTRIBUTING.md asks every change to impls/,
# workload/ or harness/ to quote them). BASE defaults to where HEAD left the
# upstream main (origin/main, else main); e.g. make perf-check BASE=HEAD~1.
# The recipe exits 1 when a row of a combination regresses beyond the gate, 2
# on bad input (make itself then exits 2 for either: PERF_STATUS=FILE writes
# the recipe's status to FILE, for CI); an inconclusive row is reported in the
# table and on stderr, not failed.
#
# HISTORY=PATH adds both sides of every session to the history store at PATH
# (ab --history; PATH "default" is $ROOTBENCH_HISTORY, else the cache's).
#
# LAYOUTS lists the function layouts both builds are linked in, one session
# each (-ldflags=-randlayout=N; 0 is the linker's default layout): a layout
# alone moved a change that alters nothing by -6% to +14% (docs/records.md),
# and `ab --layouts` combines the layouts' estimates so that the verdict is about
# the change. PERF_TIME and PERF_CALLBACK_TIME are the budgets of each layout's
# session. One layout (LAYOUTS=0) gives one plain session per workload.
empty :=
space := $(empty) $(empty)
comma := ,
UPSTREAM   ?= $(shell git rev-parse -q --verify origin/main >/dev/null 2>&1 && echo origin/main || echo main)
BASE       ?= $(shell git merge-base HEAD $(UPSTREAM) 2>/dev/null || echo $(UPSTREAM))
PERF_CELLS ?= boxroot-handle,boxroot,ocaml,cgo-handle
PERF_TIME  ?= 1m15s
PERF_CALLBACK_TIME ?= 45s
LAYOUTS    ?= 0 5 9 13 17 21
PERF_STATUS ?=
HISTORY    ?=
perf-check: build
	@echo "perf-check: the work tree against $(BASE) ($$(git log -1 --format='%h %s' $(BASE) | cut -c1-60))" >&2
	@finish() { [ -z "$(PERF_STATUS)" ] || echo "$$1" > "$(PERF_STATUS)"; exit "$$1"; }; \
	[ -n "$(strip $(LAYOUTS))" ] || { echo "perf-check: LAYOUTS is empty; give it layout seeds, e.g. LAYOUTS=\"0 5 9 13 17 21\" (0: the default layout)" >&2; finish 2; }; \
	for l in $(LAYOUTS); do \
		case $$l in *[!0-9]*) echo "perf-check: LAYOUTS holds linker layout seeds (numbers; 0: the default layout), not '$$l'" >&2; finish 2 ;; esac; \
	done; \
	if [ $(words $(LAYOUTS)) -gt 1 ]; then \
		how="--layouts $(subst $(space),$(comma),$(strip $(LAYOUTS)))"; gf="$$GOFLAGS"; \
	else \
		how=; case "$(strip $(LAYOUTS))" in 0) gf="$$GOFLAGS" ;; *) gf="$${GOFLAGS:+$$GOFLAGS }-ldflags=-randlayout=$(strip $(LAYOUTS))" ;; esac; \
	fi; \
	failed=0; hist=$(if $(HISTORY),--history=$(HISTORY)); \
	GOFLAGS="$$gf" ./$(BIN) ab --base-rev $(BASE) $$how $$hist --cell $(PERF_CELLS) --max-time $(PERF_TIME) --format markdown --no-gc-table; st=$$?; \
	case $$st in 0) ;; 1) failed=1 ;; 3) echo "perf-check: msgpass: inconclusive rows (see the tables)" >&2 ;; *) finish $$st ;; esac; \
	echo; \
	GOFLAGS="$$gf" ./$(BIN) ab --base-rev $(BASE) $$how $$hist --workload callback --variant cthread --handle cgo-handle,boxroot-handle \
		--max-time $(PERF_CALLBACK_TIME) --format markdown --no-gc-table; st=$$?; \
	case $$st in 0) ;; 1) failed=1 ;; 3) echo "perf-check: callback: inconclusive rows (see the tables)" >&2 ;; *) finish $$st ;; esac; \
	finish $$failed

# What the drop-in API costs against the domain API in message passing:
# the cells boxroot-handle and boxroot in one `rootbench run` (their runs
# interleaved, HANDLE_COST_RUNS each, 20.48M cells per pass), in three
# configurations: 1x1 (one producer, one consumer), 2x2 (two of each on the
# shared queue) and pc (two of each, a queue per consumer); each in every
# function layout of LAYOUTS (as perf-check's: cmd/rootbench of
# HANDLE_COST_TREE built once per layout with -ldflags=-randlayout=N, 0 the
# linker's default). The invocations run in a random order (shuf), so that
# the machine's drift favours no layout or configuration. Then, for each
# configuration and layout, `rootbench compare --cells boxroot,boxroot-handle`
# prints the drop-in API's time over the domain API's as a delta (+40%: a
# ratio of 1.40) with its interval. Layouts move the ratio more than its
# interval: read the spread across them. HANDLE_COST_TREE is a checkout of
# this repository (default: this one), e.g. `git worktree add /tmp/base REV`
# to measure another revision; two trees' figures compare only when taken
# in one sitting. The builds and the exports (CONFIG-LN.json) go to
# HANDLE_COST_DIR. About 40 s per configuration and layout at 20 runs on 2
# cores (12 minutes for six layouts); e.g. make handle-cost LAYOUTS="0 5 9 13".
# A LAYOUTS or HANDLE_COST_RUNS that is not a number is refused (exit 2)
# before anything is built.
HANDLE_COST_RUNS ?= 20
HANDLE_COST_TREE ?= .
HANDLE_COST_DIR  ?= bin/handle-cost
HANDLE_COST_1x1  := --niters 20000
HANDLE_COST_2x2  := --producers 2 --consumers 2 --niters 10000
HANDLE_COST_pc   := $(HANDLE_COST_2x2) --queue per-consumer
ifneq ($(filter handle-cost,$(MAKECMDGOALS)),)
ifeq ($(strip $(LAYOUTS)),)
$(error handle-cost: LAYOUTS is empty; give it linker layout seeds, e.g. LAYOUTS="0 5 9 13" (0: the default layout))
endif
ifneq ($(call non-numbers,$(LAYOUTS)),)
$(error handle-cost: LAYOUTS holds linker layout seeds, numbers such as "0 5 9 13" (0: the default layout), not "$(call non-numbers,$(LAYOUTS))")
endif
ifneq ($(or $(call non-numbers,$(HANDLE_COST_RUNS)),$(filter-out 1,$(words $(HANDLE_COST_RUNS))),$(if $(subst 0,,$(HANDLE_COST_RUNS)),,zero)),)
$(error handle-cost: HANDLE_COST_RUNS is the runs per cell, one positive number such as 20, not "$(HANDLE_COST_RUNS)")
endif
endif
handle-cost: build
	@d=$$(mkdir -p "$(HANDLE_COST_DIR)" && cd "$(HANDLE_COST_DIR)" && pwd) || exit 2; \
	[ -f "$(HANDLE_COST_TREE)/cmd/rootbench/main.go" ] || \
		{ echo "handle-cost: HANDLE_COST_TREE=$(HANDLE_COST_TREE) is not a checkout of rootbench (no cmd/rootbench/main.go)" >&2; exit 2; }; \
	for l in $(LAYOUTS); do \
		case $$l in 0) gf="$$GOFLAGS" ;; *) gf="$${GOFLAGS:+$$GOFLAGS }-ldflags=-randlayout=$$l" ;; esac; \
		echo "handle-cost: building $(HANDLE_COST_TREE) in layout $$l" >&2; \
		(cd "$(HANDLE_COST_TREE)" && GOFLAGS="$$gf" $(GO) build -o "$$d/rootbench-L$$l" ./cmd/rootbench) || exit $$?; \
	done; \
	jobs=$$(for l in $(LAYOUTS); do for c in 1x1 2x2 pc; do echo "$$c:$$l"; done; done | { shuf 2>/dev/null || cat; }); \
	total=$$(echo $$jobs | wc -w); n=0; for j in $$jobs; do \
		c=$${j%%:*} l=$${j#*:} n=$$((n + 1)); \
		case $$c in 1x1) f="$(HANDLE_COST_1x1)" ;; 2x2) f="$(HANDLE_COST_2x2)" ;; pc) f="$(HANDLE_COST_pc)" ;; esac; \
		echo "handle-cost: $$n of $$total: $$c in layout $$l ($$(uptime | sed 's/.*load/load/'))" >&2; \
		"$$d/rootbench-L$$l" run --cell boxroot-handle,boxroot --runs $(HANDLE_COST_RUNS) $$f \
			--export-json "$$d/$$c-L$$l.json" --style none || exit $$?; \
	done; \
	for c in 1x1 2x2 pc; do for l in $(LAYOUTS); do \
		echo; echo "== $$c, layout $$l ($$d/$$c-L$$l.json)"; \
		./$(BIN) compare --cells boxroot,boxroot-handle "$$d/$$c-L$$l.json" || exit $$?; \
	done; done

clean:
	rm -rf bin
