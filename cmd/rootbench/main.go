// Command rootbench compares root-handle implementations — the ways a Go
// program keeps a value alive behind a small token that can cross into C —
// with a hyperfine-grade harness: one worker process per run, interleaved
// runs, statistics, GC and memory figures, exports, comparisons and reports.
//
// Run `rootbench --help` for the commands. A program of your own can run
// the same command line with its own cells: see package rootbench.
package main

import "github.com/rootbench/rootbench"

func main() { rootbench.Main() }
