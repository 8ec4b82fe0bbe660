package harness

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Decode reads a results file from r and checks its schema and its samples
// (File.Validate: no negative, zero, NaN or infinite sample). Each result's
// warnings are recomputed from its runs (RecomputeWarnings), which gives
// them their kinds: the file stores their text alone. name is used in error
// messages (a path, or "-" for standard input).
func Decode(r io.Reader, name string) (*File, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: read: %w", name, err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%s: empty file, expected a %s results file", name, Schema)
	}
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("%s: not valid JSON at byte %d: %w", name, se.Offset, err)
		}
		return nil, fmt.Errorf("%s: not a %s results file: %w", name, Schema, err)
	}
	if f.Schema != Schema {
		if f.Schema == "" {
			return nil, fmt.Errorf("%s: no \"schema\" field: not a rootbench results file (expected schema %q)", name, Schema)
		}
		return nil, fmt.Errorf("%s: schema %q is not supported (expected %q)", name, f.Schema, Schema)
	}
	if err := checkResults(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &f, nil
}

// checkResults checks what Decode and DecodeAB check of every results file
// they read: each result has a label, and every sample is usable
// (File.Validate). It then recomputes the results' warnings, which gives
// them their kinds (RecomputeWarnings).
func checkResults(f *File) error {
	for i, r := range f.Results {
		if r.Label == "" {
			return fmt.Errorf("result %d has no label", i)
		}
	}
	if err := f.Validate(); err != nil {
		return err
	}
	RecomputeWarnings(f)
	return nil
}

// Load reads and checks the results file at path ("-" reads standard input;
// a name ending in .gz is read through gzip).
func Load(path string) (*File, error) { return load(path, "results file", Decode) }

// load opens path ("-" is standard input), a file of the kind what names
// (for the error message), gzip-compressed when its name ends in .gz (as
// the committed sessions in results/ are), and reads it with decode.
func load[F any](path, what string, decode func(io.Reader, string) (*F, error)) (*F, error) {
	if path == "-" {
		return decode(os.Stdin, "standard input")
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", what, err)
	}
	defer fh.Close()
	if !strings.HasSuffix(path, ".gz") {
		return decode(fh, path)
	}
	zr, err := gzip.NewReader(fh)
	if err != nil {
		return nil, fmt.Errorf("%s: not a gzip file: %w", path, err)
	}
	defer zr.Close()
	return decode(zr, path)
}

// DecodeAB reads an A/B results file (ab --export-json) from r and checks
// its schema, that it has both sides, and each side's results
// (checkResults, as Decode, which also recomputes their warnings). name is
// used in error messages.
func DecodeAB(r io.Reader, name string) (*ABFile, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: read: %w", name, err)
	}
	var f ABFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: not a %s file: %w", name, ABSchema, err)
	}
	if f.Schema != ABSchema {
		return nil, fmt.Errorf("%s: schema %q, expected %q (the file ab --export-json writes)", name, f.Schema, ABSchema)
	}
	if f.Base == nil || f.Head == nil {
		return nil, fmt.Errorf("%s: an A/B results file needs both sides, base and head", name)
	}
	for _, side := range []struct {
		name string
		f    *File
	}{{"base", f.Base}, {"head", f.Head}} {
		if err := checkResults(side.f); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", name, side.name, err)
		}
	}
	return &f, nil
}

// LoadAB reads and checks the A/B results file at path ("-" reads standard
// input).
func LoadAB(path string) (*ABFile, error) { return load(path, "A/B results file", DecodeAB) }
