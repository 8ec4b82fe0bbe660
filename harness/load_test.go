package harness

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestDecodeErrorsNameTheFileAndTheProblem(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ data, want string }{
		{"", "empty file"},
		{"{", "not valid JSON"},
		{`{"schema": "hyperfine"}`, `schema "hyperfine" is not supported`},
		{`{"results": []}`, `no "schema" field`},
		{`{"schema": "rootbench/v1", "results": [{"cell": "x"}]}`, "no label"},
		{`{"schema": "rootbench/v1", "results": {}}`, "not a rootbench/v2 results file"},
		{`[1, 2]`, "not a rootbench/v2 results file"},
		{`{"schema": "rootbench/v3", "results": []}`, `schema "rootbench/v3" is newer than this rootbench reads (accepted: rootbench/v1, rootbench/v2)`},
		{`{"schema": "rootbench/v0", "results": []}`, `schema "rootbench/v0" is not supported (accepted: rootbench/v1, rootbench/v2)`},
	} {
		_, err := Decode(strings.NewReader(tc.data), "r.json")
		if err == nil || !strings.Contains(err.Error(), "r.json") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Decode(%q) error = %v; want it to name r.json and say %q", tc.data, err, tc.want)
		}
	}
}

func TestLoadRoundTrip(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "r.json")
	f := File{Schema: Schema, Workload: "msgpass", Results: []Result{{Cell: "boxroot", Label: "boxroot", Runs: []Run{{WallNs: 5, Cells: 1}}}}}
	data, _ := json.Marshal(f)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil || len(got.Results) != 1 || got.Results[0].Runs[0].WallNs != 5 {
		t.Fatalf("Load = %+v, %v", got, err)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.json")); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("Load(missing) error = %v", err)
	}
	// A name ending in .gz is read through gzip; one that is not gzip
	// data is refused with its name.
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	zw.Write(data)
	zw.Close()
	gz := filepath.Join(t.TempDir(), "r.json.gz")
	if err := os.WriteFile(gz, zipped.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := Load(gz); err != nil || len(got.Results) != 1 || got.Results[0].Runs[0].WallNs != 5 {
		t.Errorf("Load(%s) = %+v, %v", gz, got, err)
	}
	plain := filepath.Join(t.TempDir(), "plain.json.gz")
	if err := os.WriteFile(plain, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(plain); err == nil || !strings.Contains(err.Error(), "plain.json.gz: not a gzip file") {
		t.Errorf("Load(uncompressed .gz) error = %v", err)
	}
}

// FuzzDecode: any bytes either decode into a file of the right schema
// whose results all have labels, or give an error naming the file; never
// a panic.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"schema": "rootbench/v1", "results": [{"cell": "a", "label": "a", "runs": [{"wall_ns": 1}]}]}`))
	f.Add([]byte(`{"schema": "rootbench/v1", "results": null}`))
	f.Add([]byte(`{"schema": 5}`))
	f.Add([]byte(`not json`))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Decode(strings.NewReader(string(data)), "fuzz.json")
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.json") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if !slices.Contains(Schemas, file.Schema) {
			t.Fatalf("accepted schema %q", file.Schema)
		}
		for _, r := range file.Results {
			if r.Label == "" {
				t.Fatal("accepted a result without a label")
			}
		}
		Summarize(file) // statistics over any accepted file must not panic
	})
}

func TestDecodeABErrorsNameTheFileAndTheProblem(t *testing.T) {
	t.Parallel()
	side := `{"schema": "rootbench/v1", "results": [{"label": "x", "runs": [{"wall_ns": 5, "cells": 1}]}]}`
	bad := `{"schema": "rootbench/v1", "results": [{"label": "x", "runs": [{"wall_ns": -5, "cells": 1}]}]}`
	for _, tc := range []struct{ data, want string }{
		{"{", "not a rootbench-ab/v2 file"},
		{side, `schema "rootbench/v1" is not supported (accepted: rootbench-ab/v1, rootbench-ab/v2: the files ab --export-json writes)`},
		{`{"schema": "rootbench-ab/v9", "base": ` + side + `, "head": ` + side + `}`, `schema "rootbench-ab/v9" is newer than this rootbench reads`},
		{`{"schema": "rootbench-ab/v1", "base": ` + side + `}`, "needs both sides"},
		{`{"schema": "rootbench-ab/v1", "base": ` + side + `, "head": ` + bad + `}`, "ab.json: head:"},
		{`{"schema": "rootbench-ab/v1", "base": {"schema": "rootbench/v1", "results": [{"cell": "y"}]}, "head": ` + side + `}`, "base: result 0 has no label"},
	} {
		_, err := DecodeAB(strings.NewReader(tc.data), "ab.json")
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "ab.json: ") {
			t.Errorf("DecodeAB(%.40q...) = %v, want an error naming ab.json and saying %q", tc.data, err, tc.want)
		}
	}
	for _, schema := range ABSchemas {
		f, err := DecodeAB(strings.NewReader(`{"schema": "`+schema+`", "layout": "5", "base": `+side+`, "head": `+side+`}`), "ab.json")
		if err != nil || f.Layout != "5" || len(f.Head.Results) != 1 {
			t.Errorf("a valid file of %s: %+v, %v", schema, f, err)
		}
	}
}
