package export

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
)

// JSON writes f as the complete results file: schema harness.Schema, indented
// by two spaces, every run kept, so that harness.Decode reads it back
// unchanged, with each result's relative figures filled in by
// analysis.Annotate (on a copy: f is not modified). HTML characters are not
// escaped (stderr tails stay readable). A file without results (an
// interruption before the first run finished) writes "results": [].
// Non-finite numbers (NaN, ±Inf) have no JSON form and make JSON fail.
func JSON(w io.Writer, f *harness.File) error {
	if f == nil {
		return errors.New("JSON export: no results file")
	}
	c := *f
	c.Schema = harness.Schema
	c.Results = slices.Clone(f.Results)
	if c.Results == nil {
		c.Results = []harness.Result{} // before the first run finishes: "results": [], never null
	}
	analysis.Annotate(&c)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&c); err != nil {
		return fmt.Errorf("encode results as JSON: %w", err)
	}
	return nil
}
