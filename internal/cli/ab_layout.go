package cli

import (
	"bytes"
	"crypto/sha256"
	"io"
	"os"

	"github.com/rootbench/rootbench/analysis"
)

// layoutNote is what ab says under a comparison of two different builds
// that has a significant row: the verdict is about the two binaries as the
// linker laid them out, and layout alone moves rows. The figures are
// rootbench's own (results/ab-layouts.md in its repository: a change that
// computes the same value, judged in ten layouts).
const layoutNote = "a significant row compares two builds as they were linked, and function " +
	"layout alone has moved rows of a change that alters nothing by -6% to +14% " +
	"(past a 5% gate in one layout of ten). Judge it again in other layouts before you " +
	"trust it: with --base-rev and --head-rev, GOFLAGS=-ldflags=-randlayout=N rebuilds " +
	"both sides in layout N."

// needsLayoutNote reports whether c has a significant row and base and
// head are different builds (files whose contents differ).
func needsLayoutNote(c *analysis.Comparison, base, head string) bool {
	if c == nil {
		return false
	}
	significant := false
	for _, r := range c.Rows {
		if r.Verdict != analysis.Same {
			significant = true
			break
		}
	}
	return significant && !sameContents(base, head)
}

// sameContents reports whether the files at a and b are one file or hold
// the same bytes. A file that cannot be read counts as different: the note
// it decides is a caution, better said once too often.
func sameContents(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	if errA != nil || errB != nil {
		return false
	}
	if os.SameFile(sa, sb) {
		return true
	}
	if sa.Size() != sb.Size() {
		return false
	}
	da, errA := fileDigest(a)
	db, errB := fileDigest(b)
	return errA == nil && errB == nil && bytes.Equal(da, db)
}

// fileDigest is the SHA-256 of the file at path.
func fileDigest(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}
