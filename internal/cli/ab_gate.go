package cli

import (
	"io"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/report"
)

// abGCTables prints one side-by-side GC table per benchmark that both
// sides measured.
func abGCTables(w io.Writer, base, head *harness.File, o report.Options) {
	for i := range base.Results {
		b := &base.Results[i]
		for j := range head.Results {
			if h := &head.Results[j]; h.Label == b.Label {
				report.GCSideBySide(w, b.Label, b, h, o)
			}
		}
	}
}
