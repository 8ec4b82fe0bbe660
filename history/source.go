package history

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rootbench/rootbench/harness"
)

// Source is one file to add, read and checked: a results file (rootbench
// run or callback) or an A/B session (ab --export-json), with the hash
// of its content that makes adding it twice a no-op.
type Source struct {
	// Name is the file as given ("standard input" for -).
	Name string
	// Schema is the file's schema (harness.Schema, harness.ABSchema).
	Schema string
	// Hash is the SHA-256 of the file's content, uncompressed: a file and
	// its gzip copy are the same content.
	Hash string
	// Sides are the measurements the file holds: one for a results file
	// ("run"); base and head for an A/B session, each stored as a
	// measurement of its own build's commit (see the package
	// documentation).
	Sides []Side
}

// Side is one measurement of a Source: a results file of one build.
type Side struct {
	Name string // "run", "base" or "head"
	File *harness.File
}

// The names of a Source's sides.
const (
	SideRun  = "run"
	SideBase = "base"
	SideHead = "head"
)

// ReadFile reads and checks the results file or A/B session at path ("-"
// reads standard input; a name ending in .gz is read through gzip), as
// harness.Load and harness.LoadAB check them: a file that does not parse,
// of an unknown or newer schema, or whose samples are unusable, is an
// error naming it. A side without a commit (a build without VCS
// information) is refused too: a history places runs by commit.
func ReadFile(path string) (*Source, error) {
	name := path
	var r io.Reader = os.Stdin
	if path == "-" {
		name = "standard input"
	} else {
		fh, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("open results file: %w", err)
		}
		defer fh.Close()
		r = fh
		if strings.HasSuffix(path, ".gz") {
			zr, err := gzip.NewReader(fh)
			if err != nil {
				return nil, fmt.Errorf("%s: not a gzip file: %w", path, err)
			}
			defer zr.Close()
			r = zr
		}
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: read: %w", name, err)
	}
	return Decode(data, name)
}

// Decode reads a results file or an A/B session from its content (see
// ReadFile); name names it in errors.
func Decode(data []byte, name string) (*Source, error) {
	src := &Source{Name: name, Schema: peekSchema(data), Hash: contentHash(data)}
	if src.Schema == harness.ABSchema {
		f, err := harness.DecodeAB(bytes.NewReader(data), name)
		if err != nil {
			return nil, err
		}
		src.Sides = []Side{{SideBase, f.Base}, {SideHead, f.Head}}
	} else {
		f, err := harness.Decode(bytes.NewReader(data), name)
		if err != nil {
			return nil, err
		}
		src.Sides = []Side{{SideRun, f}}
	}
	if err := src.check(); err != nil {
		return nil, err
	}
	return src, nil
}

// FromFile is the Source of a results file held in memory (run's, as it
// finishes); its hash is that of its JSON encoding. Its runs are the same
// runs as those of the file written from it, so adding that file later
// adds no run twice (see Add).
func FromFile(name string, f *harness.File) (*Source, error) {
	return fromMemory(name, f.Schema, f, []Side{{SideRun, f}})
}

// FromAB is the Source of an A/B session held in memory (ab's, as it
// finishes), as FromFile.
func FromAB(name string, f *harness.ABFile) (*Source, error) {
	return fromMemory(name, f.Schema, f, []Side{{SideBase, f.Base}, {SideHead, f.Head}})
}

func fromMemory(name, schema string, v any, sides []Side) (*Source, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	src := &Source{Name: name, Schema: schema, Hash: contentHash(data), Sides: sides}
	if err := src.check(); err != nil {
		return nil, err
	}
	return src, nil
}

// peekSchema returns the "schema" field of a JSON object, "" when there
// is none (harness.Decode then says what is wrong with the file). When it
// comes before any object or array field, as rootbench writes it, only the
// fields before it are read.
func peekSchema(data []byte) string {
	if schema := leadingSchema(data); schema != "" {
		return schema
	}
	var head struct {
		Schema string `json:"schema"`
	}
	_ = json.Unmarshal(data, &head)
	return head.Schema
}

// leadingSchema is the "schema" field of a JSON object when it comes
// before any object or array field, else "".
func leadingSchema(data []byte) string {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return ""
		}
		value, err := dec.Token()
		if err != nil {
			return ""
		}
		if _, nested := value.(json.Delim); nested {
			return ""
		}
		if schema, ok := value.(string); ok && key == "schema" {
			return schema
		}
	}
	return ""
}

func contentHash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// check refuses a side whose commit is unknown or not a commit hash.
func (src *Source) check() error {
	for _, s := range src.Sides {
		if s.File == nil {
			return fmt.Errorf("%s: no %s side", src.Name, s.Name)
		}
		rev := s.File.Tool.Revision
		where := src.Name
		if s.Name != SideRun {
			where += " (" + s.Name + ")"
		}
		if rev == "" {
			return fmt.Errorf("%s: no commit: the binary that measured it was built without VCS information (-buildvcs=false, or outside a git repository); a history places runs by commit", where)
		}
		if !isHash(rev) {
			return fmt.Errorf("%s: revision %q is not a commit hash (40 or 64 hex digits)", where, rev)
		}
	}
	return nil
}

// isHash reports whether s is a full git commit hash, SHA-1 or SHA-256.
func isHash(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
