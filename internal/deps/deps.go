package main

import (
	_ "github.com/olekukonko/tablewriter"
	_ "github.com/schollz/progressbar/v3"
	_ "github.com/spf13/cobra"
	_ "golang.org/x/perf/benchfmt"
	_ "golang.org/x/perf/benchmath"
	_ "golang.org/x/sys/unix"
	_ "gonum.org/v1/gonum/stat"
	_ "gonum.org/v1/plot"
	_ "pgregory.net/rapid"
)

func main() {}
