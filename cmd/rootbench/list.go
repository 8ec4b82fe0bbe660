package main

import (
	"fmt"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/spf13/cobra"

	"github.com/rootbench/rootbench/impls"
	"github.com/rootbench/rootbench/workload/callback"
)

func newListCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the cells (and callback variants) with their aliases, descriptions and availability",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := cmd.OutOrStdout()
			t := tablewriter.NewWriter(w)
			t.Header("Cell", "Aliases", "Available", "Description")
			for _, e := range impls.All() {
				avail := "yes"
				if !e.Available() {
					avail = "no: " + e.Unavailable
				}
				if err := t.Append(e.Name, strings.Join(e.Aliases, ", "), avail, e.Description); err != nil {
					return err
				}
			}
			if err := t.Render(); err != nil {
				return err
			}
			fmt.Fprintf(w, "\nCallback variants (rootbench callback --variant): %s\n", strings.Join(callback.Variants(), ", "))
			fmt.Fprintf(w, "Callback handles (rootbench callback --handle):   %s\n", strings.Join(callback.Handles(), ", "))
			if !callback.Available {
				fmt.Fprintf(w, "The callback workload is unavailable: %s\n", callback.Unavailable)
			}
			return nil
		},
	}
}
