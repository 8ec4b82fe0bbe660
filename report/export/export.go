// Package export writes a results file in the formats other tools read:
// JSON (the complete results file of harness.Schema, every sample kept),
// CSV (one summary row per result, as hyperfine's --export-csv), Markdown
// (hyperfine's --export-markdown table) and the Go benchmark format (one
// line per run, for benchstat). Each format is one Exporter; WriteFile writes any of them
// atomically.
package export

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/rootbench/rootbench/harness"
)

// Format names an export format.
type Format string

// The export formats.
const (
	FormatJSON     Format = "json"
	FormatCSV      Format = "csv"
	FormatMarkdown Format = "markdown"
	FormatGoBench  Format = "gobench"
)

// Formats lists the export formats, in the order they are documented.
var Formats = []Format{FormatJSON, FormatCSV, FormatMarkdown, FormatGoBench}

// Exporter writes f to w in one format.
type Exporter func(w io.Writer, f *harness.File) error

// ByName returns the exporter for a format name: json, csv, markdown (or
// md) or gobench (or benchstat), case-insensitively.
func ByName(format string) (Exporter, error) {
	switch Format(strings.ToLower(strings.TrimSpace(format))) {
	case FormatJSON:
		return JSON, nil
	case FormatCSV:
		return CSV, nil
	case FormatMarkdown, "md":
		return Markdown, nil
	case FormatGoBench, "benchstat":
		return GoBench, nil
	}
	return nil, fmt.Errorf("unknown export format %q: accepted formats are json, csv, markdown and gobench", format)
}

// WriteFile writes f with e to path. The path "-" means standard output:
// the export is rendered in memory first, so a failing exporter writes
// nothing. Any other path is replaced atomically: the export goes to a
// temporary file in the same directory, which is flushed, fsynced and then
// renamed over path, so a reader (or a crash) never sees a truncated file,
// and a failing exporter leaves the previous file untouched. A new file gets
// mode 0644; an existing file keeps its mode. Errors name the path.
func WriteFile(path string, f *harness.File, e Exporter) error {
	if e == nil {
		return fmt.Errorf("export to %s: no exporter given", path)
	}
	if f == nil {
		return fmt.Errorf("export to %s: no results to export", path)
	}
	if path == "-" {
		var buf bytes.Buffer
		if err := e(&buf, f); err != nil {
			return fmt.Errorf("export to standard output: %w", err)
		}
		if _, err := os.Stdout.Write(buf.Bytes()); err != nil {
			return fmt.Errorf("export to standard output: %w", err)
		}
		return nil
	}
	if path == "" {
		return errors.New("export: empty path (use - for standard output)")
	}
	return WriteAtomic(path, func(w io.Writer) error { return e(w, f) })
}

// WriteAtomic replaces the file at path with what write writes, atomically:
// the bytes go to a temporary file in the same directory, which is flushed,
// fsynced and renamed over path, so a reader (or a crash) never sees a
// truncated file and a failing write leaves the previous file untouched. A
// new file gets mode 0644; an existing file keeps its mode. Errors name the
// path.
func WriteAtomic(path string, write func(io.Writer) error) error {

	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		if fi.IsDir() {
			return fmt.Errorf("export to %s: is a directory, expected a file path", path)
		}
		mode = fi.Mode().Perm()
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("export to %s: create temporary file: %w", path, err)
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()

	bw := bufio.NewWriterSize(tmp, 64<<10)
	if err := write(bw); err != nil {
		return fmt.Errorf("export to %s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("export to %s: write: %w", path, err)
	}
	if err := tmp.Chmod(mode); err != nil {
		return fmt.Errorf("export to %s: set mode: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("export to %s: fsync: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("export to %s: close: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("export to %s: %w", path, err)
	}
	done = true
	// Make the rename itself durable. Best effort: some file systems refuse
	// to fsync a directory, and the file is already complete either way.
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}
