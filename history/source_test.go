package history_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/history"
)

// writeJSON writes v as JSON to dir/name, gzipped when name ends in .gz.
func writeJSON(t testing.TB, dir, name string, v any) string {
	t.Helper()
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(name, ".gz") {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write(data)
		zw.Close()
		data = b.Bytes()
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A file and its gzip copy are one content; an A/B session has two sides.
func TestReadFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f := resultsFile(rev(1), t0, spec{cell: "ocaml", walls: []int64{1000}})
	plain, err := history.ReadFile(writeJSON(t, dir, "r.json", f))
	if err != nil {
		t.Fatal(err)
	}
	zipped, err := history.ReadFile(writeJSON(t, dir, "r.json.gz", f))
	if err != nil {
		t.Fatal(err)
	}
	if plain.Hash != zipped.Hash || len(plain.Sides) != 1 || plain.Sides[0].Name != history.SideRun || plain.Schema != harness.Schema {
		t.Errorf("plain %+v, gzipped %+v: want one side and one hash", plain, zipped)
	}
	ab, err := history.ReadFile(writeJSON(t, dir, "ab.json", abFile(f, f)))
	if err != nil {
		t.Fatal(err)
	}
	if len(ab.Sides) != 2 || ab.Sides[0].Name != history.SideBase || ab.Sides[1].Name != history.SideHead || ab.Schema != harness.ABSchema {
		t.Errorf("A/B source = %+v", ab)
	}
}

// What cannot be placed in a history is refused with one line naming the
// file.
func TestReadFileRefuses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	noRev := resultsFile("", t0, spec{cell: "ocaml", walls: []int64{1000}})
	badRev := resultsFile("v1.2.3", t0, spec{cell: "ocaml", walls: []int64{1000}})
	newer := resultsFile(rev(1), t0)
	newer.Schema = "rootbench/v99"
	notJSON := filepath.Join(dir, "notes.json")
	os.WriteFile(notJSON, []byte("hello"), 0o644)
	for path, want := range map[string]string{
		notJSON:                                            "not valid JSON",
		writeJSON(t, dir, "norev.json", noRev):             "no commit",
		writeJSON(t, dir, "badrev.json", badRev):           "not a commit hash",
		writeJSON(t, dir, "newer.json", newer):             `schema "rootbench/v99" is newer than this rootbench reads`,
		writeJSON(t, dir, "ab.json", abFile(noRev, noRev)): "(base): no commit",
		filepath.Join(dir, "missing.json"):                 "no such file",
	} {
		_, err := history.ReadFile(path)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("ReadFile(%s) = %v; want one line saying %q", filepath.Base(path), err, want)
		}
	}
}
