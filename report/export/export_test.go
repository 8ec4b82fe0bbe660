package export

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rootbench/rootbench/harness"
)

func TestByName(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		want Exporter
	}{{"json", JSON}, {"CSV", CSV}, {"markdown", Markdown}, {"md", Markdown}, {"gobench", GoBench}, {"benchstat", GoBench}} {
		got, err := ByName(c.name)
		if err != nil || reflect.ValueOf(got).Pointer() != reflect.ValueOf(c.want).Pointer() {
			t.Errorf("ByName(%q) = %p, %v", c.name, got, err)
		}
	}
	for _, fm := range Formats {
		if _, err := ByName(string(fm)); err != nil {
			t.Errorf("ByName(%q): %v", fm, err)
		}
	}
	if _, err := ByName("xml"); err == nil || !strings.Contains(err.Error(), `"xml"`) || !strings.Contains(err.Error(), "json, csv, markdown and gobench") {
		t.Errorf("ByName(xml) error = %v", err)
	}
}

func TestWriteFileReplacesAtomically(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	f := fixture()
	if err := WriteFile(path, f, JSON); err != nil {
		t.Fatal(err)
	}
	old, _ := os.ReadFile(path)
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("new file mode = %v, want 0644", fi.Mode().Perm())
	}

	// A failing exporter, even after writing half its output, leaves the
	// previous file intact and no temporary file behind.
	boom := errors.New("boom")
	failing := func(w io.Writer, f *harness.File) error {
		io.WriteString(w, "{\"schema\": \"rootb")
		return boom
	}
	err := WriteFile(path, f, failing)
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), path) {
		t.Errorf("error = %v, want boom naming %s", err, path)
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, old) {
		t.Error("a failing exporter changed the file")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only the export (temporary file left behind?)", len(entries))
	}

	// An existing file keeps its mode.
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, f, CSV); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode after rewrite = %v, want 0600 kept", fi.Mode().Perm())
	}

	// Errors name the path.
	for _, bad := range []string{filepath.Join(dir, "missing", "out.csv"), dir} {
		if err := WriteFile(bad, f, CSV); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("WriteFile(%s) error = %v, want one naming the path", bad, err)
		}
	}
	if err := WriteFile(path, f, nil); err == nil {
		t.Error("nil exporter accepted")
	}
}

// TestWriteFileNeverPartial rewrites a large file again and again, with two
// different contents, while another goroutine reads it: every read must be
// one of the two complete contents.
func TestWriteFileNeverPartial(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "big.json")
	big := func(fill byte) Exporter {
		return func(w io.Writer, _ *harness.File) error {
			chunk := bytes.Repeat([]byte{fill}, 64<<10)
			for i := 0; i < 16; i++ { // 1 MiB, written in pieces
				if _, err := w.Write(chunk); err != nil {
					return err
				}
			}
			return nil
		}
	}
	f := fixture()
	if err := WriteFile(path, f, big('a')); err != nil {
		t.Fatal(err)
	}
	rounds := 30
	if testing.Short() {
		rounds = 10
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	var reads, bad atomic.Int64
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			data, err := os.ReadFile(path)
			if err != nil {
				bad.Add(1)
				continue
			}
			reads.Add(1)
			if len(data) != 1<<20 || (bytes.Count(data, []byte{'a'}) != len(data) && bytes.Count(data, []byte{'b'}) != len(data)) {
				bad.Add(1)
			}
		}
	}()
	for i := 0; i < rounds; i++ {
		if err := WriteFile(path, f, big("ab"[i%2])); err != nil {
			t.Error(err)
		}
	}
	stop.Store(true)
	wg.Wait()
	if bad.Load() != 0 || reads.Load() == 0 {
		t.Errorf("%d of %d reads saw a missing or partial file", bad.Load(), reads.Load()+bad.Load())
	}
}

func TestWriteFileStdout(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stdout
	os.Stdout = w
	werr := WriteFile("-", fixture(), Markdown)
	failErr := WriteFile("-", fixture(), func(w io.Writer, _ *harness.File) error {
		io.WriteString(w, "half")
		return errors.New("boom")
	})
	os.Stdout = saved
	w.Close()
	out, _ := io.ReadAll(r)
	if werr != nil {
		t.Fatal(werr)
	}
	var want bytes.Buffer
	if err := Markdown(&want, fixture()); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, want.Bytes()) {
		t.Errorf("stdout = %q, want the Markdown export %q", out, want.String())
	}
	if failErr == nil || !strings.Contains(failErr.Error(), "standard output") {
		t.Errorf("failing exporter to stdout: error = %v", failErr)
	}
}

// A partial file's Markdown and CSV exports say so, as the JSON does; a
// single run's spread is not shown as zero.
func TestPartialAndSingleRun(t *testing.T) {
	t.Parallel()
	f := fixture()
	f.Partial = true
	f.Results[0].Runs = f.Results[0].Runs[:1]
	harness.Summarize(f)
	var md bytes.Buffer
	if err := Markdown(&md, f); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(md.String(), "> **Partial results**") {
		t.Errorf("partial Markdown not marked:\n%s", md.String())
	}
	if !strings.Contains(md.String(), "± —") {
		t.Errorf("one-run σ not shown as —:\n%s", md.String())
	}
	var csvOut bytes.Buffer
	if err := CSV(&csvOut, f); err != nil {
		t.Fatal(err)
	}
	recs, col := readCSV(t, &csvOut)
	for i, row := range recs[1:] {
		if row[col["partial"]] != "true" {
			t.Errorf("row %d: partial %q, want true", i, row[col["partial"]])
		}
	}
	if sd := recs[1][col["stddev"]]; sd != "" {
		t.Errorf("one-run stddev %q, want empty", sd)
	}
	f.Partial = false
	md.Reset()
	if err := Markdown(&md, f); err != nil || strings.Contains(md.String(), "Partial") {
		t.Errorf("complete file marked partial (%v):\n%s", err, md.String())
	}
}
