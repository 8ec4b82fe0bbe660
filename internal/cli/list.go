package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
	"github.com/spf13/cobra"

	"github.com/rootbench/rootbench/impls"
	"github.com/rootbench/rootbench/workload/callback"
)

// listWidth is the width `rootbench list` fits in, in bytes as well as in
// columns: the table is drawn in ASCII and long texts are wrapped.
const listWidth = 80

// Column widths of the list, each with its one-space padding on both sides:
// the longest cell name (boxroot:locked-remote) fits on one line; aliases
// and descriptions wrap. The five '|' take the rest.
const (
	listCellWidth  = 23
	listAliasWidth = 16
	listAvailWidth = 6
	listDescWidth  = listWidth - listCellWidth - listAliasWidth - listAvailWidth - 5
)

func newListCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the cells (and callback variants) with their aliases, descriptions and availability",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return writeList(cmd.OutOrStdout())
		},
	}
}

// writeList writes the catalog as a table at most listWidth wide.
func writeList(w io.Writer) error {
	t := tablewriter.NewTable(w,
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{
			Symbols: tw.NewSymbols(tw.StyleASCII),
		})),
		tablewriter.WithConfig(tablewriter.Config{
			Header: tw.CellConfig{
				Formatting: tw.CellFormatting{AutoFormat: tw.Off},
				Alignment:  tw.CellAlignment{Global: tw.AlignLeft},
			},
			Row: tw.CellConfig{
				Formatting: tw.CellFormatting{AutoWrap: tw.WrapNormal},
				Alignment:  tw.CellAlignment{Global: tw.AlignLeft},
				ColMaxWidths: tw.CellWidth{PerColumn: map[int]int{
					0: listCellWidth, 1: listAliasWidth, 2: listAvailWidth, 3: listDescWidth,
				}},
			},
		}),
	)
	t.Header("Cell", "Aliases", "Runs", "Description")
	for _, e := range impls.All() {
		avail, desc := "yes", e.Description
		if !e.Available() {
			avail, desc = "no", desc+" (unavailable: "+e.Unavailable+")"
		}
		if err := t.Append(e.Name, strings.Join(e.Aliases, ", "), avail, desc); err != nil {
			return fmt.Errorf("list: %w", err)
		}
	}
	if err := t.Render(); err != nil {
		return fmt.Errorf("list: %w", err)
	}
	fmt.Fprintf(w, "\nCallback variants (rootbench callback --variant):\n  %s\n", strings.Join(callback.Variants(), ", "))
	fmt.Fprintf(w, "Callback handles (rootbench callback --handle):\n  %s\n", strings.Join(handleChoices(), ", "))
	if !callback.Available {
		fmt.Fprintf(w, "The callback workload is unavailable:\n  %s\n", callback.Unavailable)
	}
	return nil
}
