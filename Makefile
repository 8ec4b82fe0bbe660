# rootbench — build, run, test, bench, lint, report.
# `make run` and `make test` do all the set-up on a fresh machine (Go and gcc
# are all they need; modules come from the Go module proxy).

GO      ?= go
BIN     := bin/rootbench
PKGS    := ./...
# Extra flags for `make run`, e.g. make run RUN_FLAGS="--cell boxroot,ref --runs 5".
RUN_FLAGS ?=

.PHONY: all build run test unit race nocgo lint fmt vet staticcheck bench report results clean

all: build

build:
	$(GO) build -buildvcs=auto -o $(BIN) ./cmd/rootbench

# The default comparison: every available cell, interleaved, on the
# message-passing workload (about a minute on 2 cores).
run: build
	./$(BIN) run $(RUN_FLAGS)

# The whole test suite: lint, the race-enabled tests (fuzz seed corpora
# included), and the build without cgo.
test: lint race nocgo

race:
	$(GO) test -race -timeout 20m $(PKGS)

unit:
	$(GO) test $(PKGS)

# cgo-only parts sit behind build constraints: the build without cgo must
# succeed and report them unavailable.
nocgo:
	CGO_ENABLED=0 $(GO) build -o bin/rootbench-nocgo ./cmd/rootbench
	CGO_ENABLED=0 $(GO) vet $(PKGS)
	./bin/rootbench-nocgo list | grep -E '^\W*cgo-handle\W.*no: ' >/dev/null || \
		{ echo "nocgo: 'rootbench list' does not show cgo-handle as unavailable"; exit 1; }

lint: fmt vet staticcheck

fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet $(PKGS)

staticcheck:
	$(GO) tool staticcheck $(PKGS)

# Go benchmarks of the implementations and the workloads (figures, not tests).
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./impls/... ./workload/...

# Regenerate results/REPORT.md and its charts from the committed results/*.json.
report: build
	./$(BIN) report results/*.json -o results

# Re-measure the committed results on this machine, then regenerate the report.
# Takes about eleven minutes on 2 cores. msgpass is the default comparison
# (NITERS=2000, so that `make run` takes a minute); msgpass-full is the OCaml
# benchmark's own size (NITERS=100_000), where the fixed cost of a fresh
# process (page faults, the first GC cycle) no longer weighs on the ratios.
results: build
	./$(BIN) run --cell all --runs 15 --export-json results/msgpass.json --export-markdown results/msgpass.md
	./$(BIN) run --cell all --niters 100_000 --runs 6 --export-json results/msgpass-full.json --export-markdown results/msgpass-full.md
	./$(BIN) run --cell ocaml,boxroot,ref,cgo-handle --parameter-list batch-size=16,256,4096 --runs 6 --export-json results/batch-scan.json
	./$(BIN) run --cell ocaml,boxroot,ref,cgo-handle --niters 500 --parameter-list producers=1,2,4 --parameter-list consumers=1,2,4 --runs 5 --export-json results/scaling.json
	./$(BIN) run --cell boxroot,boxroot:no-reuse --niters 10_000 --runs 3 --export-json results/boxroot-10M.json
	./$(BIN) callback --variant plain,cthread,pipe,spin,channel --calls 1_000_000 --runs 5 --export-json results/callback.json --export-markdown results/callback.md
	./$(BIN) callback --variant plain,cthread,pipe --handle none,cgo-handle,boxroot-handle --calls 1_000_000 --runs 5 --export-json results/callback-handles.json
	$(MAKE) report

clean:
	rm -rf bin
