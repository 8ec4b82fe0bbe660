package harness

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
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
	if f.Schema == "" {
		return nil, fmt.Errorf("%s: no \"schema\" field: not a rootbench results file (expected schema %q)", name, Schema)
	}
	if err := checkSchema(f.Schema, Schemas, ""); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
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
	if err := checkSchema(f.Schema, ABSchemas, ": the files ab --export-json writes"); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
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
	f.HighStealPairs = f.highStealPairs() // from the runs, as the session counted them
	return &f, nil
}

// checkSchema accepts a schema of accepted (oldest first, the newest this
// build writes last); the error is one line naming the schema and what is
// accepted, and says when the file comes from a newer rootbench. what
// follows the list of accepted schemas (e.g. which command writes such
// files).
func checkSchema(schema string, accepted []string, what string) error {
	if slices.Contains(accepted, schema) {
		return nil
	}
	newest := accepted[len(accepted)-1]
	family, _, _ := strings.Cut(newest, "/v")
	list := strings.Join(accepted, ", ")
	if fam, v, ok := strings.Cut(schema, "/v"); ok && fam == family {
		if n, err := strconv.Atoi(v); err == nil {
			_, nv, _ := strings.Cut(newest, "/v")
			if m, _ := strconv.Atoi(nv); n > m {
				return fmt.Errorf("schema %q is newer than this rootbench reads (accepted: %s): read it with the rootbench that wrote it, or a newer one", schema, list)
			}
		}
	}
	return fmt.Errorf("schema %q is not supported (accepted: %s%s)", schema, list, what)
}

// LoadAB reads and checks the A/B results file at path ("-" reads standard
// input).
func LoadAB(path string) (*ABFile, error) { return load(path, "A/B results file", DecodeAB) }
