package export

import (
	"bytes"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/analysis"
	"github.com/rootbench/rootbench/harness"
)

func TestJSONRoundTrip(t *testing.T) {
	t.Parallel()
	f := fixture()
	f.Schema = "" // the exporter always writes the schema
	var b bytes.Buffer
	if err := JSON(&b, f); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "{\n  \"schema\": \"rootbench/v2\",\n") {
		t.Errorf("not indented, or schema missing:\n%.200s", b.String())
	}
	if !strings.Contains(b.String(), `panic: <boxroot> & co`) {
		t.Error("stderr tail HTML-escaped or lost")
	}
	back, err := harness.Decode(&b, "export")
	if err != nil {
		t.Fatalf("harness.Decode of the export: %v", err)
	}
	f.Schema = harness.Schema
	analysis.Annotate(f)         // the export carries the relatives the reports show
	harness.RecomputeWarnings(f) // and Decode gives the warnings of the runs, with their kinds
	if f.Results[0].RelativeBasis != "per cell" || f.Results[0].RelativeTo != "ocaml batch-size=1024" {
		t.Errorf("annotated %q to %q; want per cell to ocaml batch-size=1024", f.Results[0].RelativeBasis, f.Results[0].RelativeTo)
	}
	if !reflect.DeepEqual(back, f) {
		t.Errorf("round trip changed the file:\n got %+v\nwant %+v", back, f)
	}
	if got := len(back.Results[2].Runs); got != 3 {
		t.Errorf("%d runs kept, want every run (3, one failed)", got)
	}

	f.Results[0].Mean = math.NaN()
	if err := JSON(io.Discard, f); err == nil || !strings.Contains(err.Error(), "JSON") {
		t.Errorf("NaN should fail with a clear error, got %v", err)
	}
}

// An interruption before the first run finishes leaves a file without
// results: its JSON holds "results": [], never null, and reads back.
func TestJSONNoResults(t *testing.T) {
	t.Parallel()
	f := fixture()
	f.Partial = true
	for _, results := range [][]harness.Result{nil, {}} {
		f.Results = results
		var b bytes.Buffer
		if err := JSON(&b, f); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "\n  \"results\": []\n") || strings.Contains(b.String(), "null") {
			t.Errorf("results %#v: the export should hold \"results\": [] and no null:\n%s", results, b.String())
		}
		back, err := harness.Decode(&b, "export")
		if err != nil || back.Results == nil || len(back.Results) != 0 {
			t.Errorf("decoded results %#v, %v; want an empty list", back.Results, err)
		}
	}
}
